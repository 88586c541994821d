import Foundation
import Playback
import Simulation

/// `filterz-bench abr [TRACES_DIR]`: every rule on every shared trace (Pensieve manifest, 60 s buffer) against
/// the offline optimum, by trace family and on two halves of the traces (even and odd positions in each folder,
/// sorted by name), so a rule tuned on one half can be checked on the other. Quality, not speed: the figures
/// are the same on every machine. The last line is one JSON object with the per-rule means over all traces.
enum ABRBenchmark {
    struct Row {
        var folder: String
        var half: Int
        var optimum: Double
        var qoe: [Double]
        var rebuffer: [Double]
        var levels: [[Int]]
        var name: String
    }

    static func run() -> Int32 {
        let arguments = Array(CommandLine.arguments.dropFirst(2))
        let shared = ProcessInfo.processInfo.environment["FILTERZ_SHARED"] ?? "../shared"
        let tracesFolder = arguments.first ?? shared + "/traces/json"
        guard let manifestData = FileManager.default.contents(atPath: shared + "/manifests/pensieve_envivio_48.json"),
            let manifest = try? StreamManifest(movieJSON: manifestData, name: "pensieve_envivio_48.json")
        else {
            print("abr benchmark: cannot read \(shared)/manifests/pensieve_envivio_48.json (set FILTERZ_SHARED)")
            return 2
        }
        let traces = loadTraces(tracesFolder)
        guard !traces.isEmpty else {
            print("abr benchmark: no traces under \(tracesFolder)")
            return 2
        }
        let rules = ProcessInfo.processInfo.environment["FILTERZ_RULES"].map {
            $0.split(separator: ",").compactMap { ABRRuleKind(rawValue: String($0)) }
        } ?? ABRRuleKind.allCases
        var tuned = SessionConfiguration(bufferCapSeconds: 60)
        applyOverrides(to: &tuned.selector.filterz)
        let configuration = tuned
        // Offline optima never change: kept in `FILTERZ_OPTIMUM_CACHE` (a file) when set, for tuning runs.
        let cachePath = ProcessInfo.processInfo.environment["FILTERZ_OPTIMUM_CACHE"]
        let cached = cachePath.map(readCache) ?? [:]
        let results = BatchSimulation.run(
            manifest: manifest, traces: traces.map(\.trace), rules: rules, configuration: configuration,
            withOptimum: traces.contains { cached[$0.trace.name] == nil })
        let rows = zip(traces, results).map { trace, result in
            Row(
                folder: trace.folder, half: trace.half,
                optimum: cached[result.traceName] ?? result.offlineOptimum?.qoeLin ?? 0,
                qoe: result.summaries.map(\.qoeLin), rebuffer: result.summaries.map(\.rebufferSeconds),
                levels: result.playedLevels, name: result.traceName)
        }
        if let cachePath, cached.count < rows.count {
            try? rows.map { "\($0.name)\t\($0.optimum)\n" }.joined().write(toFile: cachePath, atomically: true, encoding: .utf8)
        }
        if let path = ProcessInfo.processInfo.environment["FILTERZ_DUMP"] {
            // Every session exactly (QoE bit patterns and levels), to check an optimisation changes nothing.
            var text = ""
            for row in rows {
                for r in rules.indices {
                    text += "\(row.name)\t\(rules[r].rawValue)\t\(row.optimum)\t\(row.qoe[r])\t\(row.qoe[r].bitPattern)\t"
                    text += "\(row.rebuffer[r])\t\(row.levels[r].map(String.init).joined(separator: ","))\n"
                }
            }
            try? text.write(toFile: path, atomically: true, encoding: .utf8)
        }
        let names = rules.map(\.rawValue)
        print("Pensieve manifest, 60 s buffer; % = mean over traces with a positive optimum of QoE / optimum")
        print(pad("group", 22) + pad("n", 5) + pad("optimum", 9) + names.map { pad($0, 17) }.joined())
        var families: [(String, (Row) -> Bool)] = [
            ("all", { _ in true }),
            ("half A (even)", { $0.half == 0 }),
            ("half B (odd)", { $0.half == 1 }),
            ("FCC", { $0.folder.contains("fcc") }),
            ("Norway 3G", { $0.folder == "pensieve_norway" || $0.folder == "sabre_3g" }),
            ("Belgium 4G", { $0.folder == "sabre_4g" }),
            ("Lumos 4G/5G", { $0.folder.hasPrefix("lumos") }),
        ]
        for folder in Set(rows.map { $0.folder }).sorted() {
            families.append(("  " + folder, { (row: Row) -> Bool in row.folder == folder }))
        }
        for (name, include) in families {
            let group = rows.filter(include)
            guard !group.isEmpty else { continue }
            var line = pad(name, 22) + pad(String(group.count), 5) + pad(fixed(average(group.map { $0.optimum })), 9)
            for r in rules.indices {
                let qoe = average(group.map { $0.qoe[r] })
                line += pad(fixed(qoe) + " " + fixed(percent(group, r), 1) + "%", 17)
            }
            print(line)
        }
        var rebufferLine = pad("rebuffer s (all)", 36)
        for r in rules.indices { rebufferLine += pad(fixed(average(rows.map { $0.rebuffer[r] })), 17) }
        print(rebufferLine)
        var fields: [String] = []
        for r in rules.indices {
            let qoe = fixed(average(rows.map { $0.qoe[r] }))
            let rebuffer = fixed(average(rows.map { $0.rebuffer[r] }))
            fields.append("\"\(names[r])\":{\"qoe\":\(qoe),\"pct\":\(fixed(percent(rows, r), 1)),\"rebuffer_s\":\(rebuffer)}")
        }
        // The optimum is a dynamic program over the same model: no rule may beat it on any trace.
        var closest = (gap: Double.infinity, trace: "", rule: "")
        for row in rows {
            for r in rules.indices where row.optimum - row.qoe[r] < closest.gap {
                closest = (row.optimum - row.qoe[r], row.name, names[r])
            }
        }
        print("optimum − rule, smallest over all sessions: \(closest.gap) (\(closest.trace), \(closest.rule))")
        if closest.gap < -1e-9 { print("abr benchmark: a rule beats the offline optimum") }
        let meanOptimum = fixed(average(rows.map { $0.optimum }))
        print("{\"bench\":\"abr\",\"traces\":\(rows.count),\"optimum\":\(meanOptimum),\(fields.joined(separator: ","))}")
        return closest.gap < -1e-9 ? 1 : 0
    }

    /// `FILTERZ_PARAMS="horizon=5,reserve=20,weight=0.4,maxError=1,penalty=4.3,unknown=3,pfactor=0.65,ppenalty=0.5,shift=2"` (for tuning).
    static func applyOverrides(to parameters: inout FilterzParameters) {
        guard let text = ProcessInfo.processInfo.environment["FILTERZ_PARAMS"] else { return }
        for pair in text.split(separator: ",") {
            let parts = pair.split(separator: "=")
            guard parts.count == 2, let value = Double(parts[1]) else { continue }
            switch parts[0] {
            case "horizon": parameters.horizon = Int(value)
            case "reserve": parameters.reserveSeconds = value
            case "weight": parameters.terminalWeight = value
            case "maxError": parameters.maxRelativeError = value
            case "penalty": parameters.rebufferPenalty = value
            case "unknown": parameters.unknownErrorSamples = Int(value)
            case "pfactor": parameters.pessimisticFactor = value
            case "ppenalty": parameters.pessimisticPenalty = value
            case "shift": parameters.levelShiftFactor = value
            default: print("unknown parameter \(parts[0])")
            }
        }
        print("filterz parameters: \(parameters)")
    }

    static func percent(_ rows: [Row], _ r: Int) -> Double {
        let ratios = rows.filter { $0.optimum > 0 }.map { $0.qoe[r] / $0.optimum }
        return average(ratios) * 100
    }

    /// Traces by folder, sorted by name; `half` alternates within each folder.
    static func loadTraces(_ folder: String) -> [(folder: String, half: Int, trace: NetworkTrace)] {
        let root = URL(fileURLWithPath: folder)
        var found: [(String, Int, NetworkTrace)] = []
        let subfolders = ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).sorted()
        for sub in subfolders {
            let url = root.appendingPathComponent(sub)
            let files = ((try? FileManager.default.contentsOfDirectory(atPath: url.path)) ?? []).sorted()
            var index = 0
            for file in files where file.hasSuffix(".json") {
                guard let data = FileManager.default.contents(atPath: url.appendingPathComponent(file).path),
                    let trace = try? NetworkTrace(json: data, fallbackName: sub + "/" + file)
                else { continue }
                found.append((sub, index % 2, trace))
                index += 1
            }
        }
        return found
    }

    static func readCache(_ path: String) -> [String: Double] {
        var cached: [String: Double] = [:]
        for line in ((try? String(contentsOfFile: path, encoding: .utf8)) ?? "").split(separator: "\n") {
            let parts = line.split(separator: "\t")
            if parts.count == 2, let value = Double(parts[1]) { cached[String(parts[0])] = value }
        }
        return cached
    }

    static func average(_ values: [Double]) -> Double { values.isEmpty ? 0 : values.reduce(0, +) / Double(values.count) }
    static func fixed(_ value: Double, _ digits: Int = 2) -> String { String(format: "%.\(digits)f", value) }
    static func pad(_ text: String, _ width: Int) -> String {
        text.count >= width ? text + " " : text + String(repeating: " ", count: width - text.count)
    }
}
