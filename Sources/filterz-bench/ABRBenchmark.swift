import CLIKit
import FilterzCLI
import Foundation
import Inspect
import JSON
import Parallel
import Playback
import RealClients
import Simulation

/// `filterz-bench abr [--shared DIR] [--traces DIR]`: every rule on every shared trace (Pensieve manifest, 60 s
/// buffer) against the offline optimum, by trace family and on two halves of the traces (even and odd positions in
/// each folder, sorted by name), so a rule tuned on one half can be checked on the other. Quality, not speed: the
/// figures are the same on every machine. The last line is one JSON object with the per-rule means over all traces.
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

    static let sharedOption = Option.optional(
        "--shared", placeholder: "DIR", shownDefault: "../shared beside the package",
        help: "The shared data: the Pensieve manifest and the traces.")
    static let tracesOption = Option.optional(
        "--traces", placeholder: "DIR", shownDefault: "traces/json in --shared",
        help: "A folder of trace folders, instead of the shared traces.")
    static let ruleOption = Option.repeatable(
        "--rule", placeholder: "RULE",
        help: "Only these rules (throughput|bba|bola|mpc|filterz|hlsjs; default all but hlsjs).")

    static var command: Command {
        Command(
            CommandSpec(
                name: "abr",
                abstract: "Every rule on the shared traces against the offline optimum (quality, not speed).",
                options: [sharedOption.spec, tracesOption.spec, ruleOption.spec]),
            action: { args, _ in
                var rules: [ABRRuleKind] = []
                for name in try args.get(ruleOption) {
                    guard let rule = ABRRuleKind(rawValue: name) else {
                        throw CLIError.usage("--rule: no rule '\(name)'")
                    }
                    rules.append(rule)
                }
                let shared =
                    try args.get(sharedOption)
                    ?? SharedData.packageRoot.deletingLastPathComponent().appendingPathComponent("shared").path
                return run(
                    shared: shared, traces: try args.get(tracesOption),
                    // Not `hlsjs` by default: it models hls.js's buffer, not the 60 s cap of the optimum.
                    rules: rules.isEmpty ? ABRRuleKind.allCases.filter { $0 != .hlsjs } : rules)
            })
    }

    static func run(shared: String, traces tracesArgument: String?, rules: [ABRRuleKind]) -> Int32 {
        let tracesFolder = tracesArgument ?? shared + "/traces/json"
        guard let manifestData = FileManager.default.contents(atPath: shared + "/manifests/pensieve_envivio_48.json"),
            let manifest = try? StreamManifest(movieJSON: manifestData, name: "pensieve_envivio_48.json")
        else {
            print("abr benchmark: cannot read \(shared)/manifests/pensieve_envivio_48.json (give --shared DIR)")
            return 2
        }
        let traces = loadTraces(tracesFolder)
        guard !traces.isEmpty else {
            print("abr benchmark: no traces under \(tracesFolder)")
            return 2
        }
        let configuration = SessionConfiguration(bufferCapSeconds: 60)
        let results = BatchSimulation.run(
            manifest: manifest, traces: traces.map(\.trace), rules: rules, configuration: configuration,
            withOptimum: true, threads: .allCores)
        let rows = zip(traces, results).map { trace, result in
            Row(
                folder: trace.folder, half: trace.half, optimum: result.offlineOptimum?.qoeLin ?? 0,
                qoe: result.summaries.map(\.qoeLin), rebuffer: result.summaries.map(\.rebufferSeconds),
                levels: result.playedLevels, name: result.traceName)
        }
        let names = rules.map(\.rawValue)
        print("Pensieve manifest, 60 s buffer; % = mean over traces with a positive optimum of QoE / optimum")
        var table = TextTable(header: ["group", "n", "optimum"] + names)
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
            let qoe = rules.indices.map { r in
                fixedNumber(average(group.map { $0.qoe[r] }), digits: 2) + " "
                    + fixedNumber(percent(group, r), digits: 1) + "%"
            }
            table.append(
                [name, String(group.count), fixedNumber(average(group.map { $0.optimum }), digits: 2)] + qoe)
        }
        table.append(
            ["rebuffer s (all)", "", ""]
                + rules.indices.map { r in fixedNumber(average(rows.map { $0.rebuffer[r] }), digits: 2) })
        for line in table.lines(indent: 0) { print(line) }
        var fields: [(String, JSONValue)] = []
        for r in rules.indices {
            fields.append(
                (
                    names[r],
                    .object([
                        ("qoe", ResultLine.number(average(rows.map { $0.qoe[r] }))),
                        ("pct", ResultLine.number(percent(rows, r), places: 1)),
                        ("rebuffer_s", ResultLine.number(average(rows.map { $0.rebuffer[r] }))),
                    ])
                ))
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
        ResultLine.print(
            "abr",
            [("traces", .integer(rows.count)), ("optimum", ResultLine.number(average(rows.map { $0.optimum })))]
                + fields)
        return closest.gap < -1e-9 ? 1 : 0
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

    static func average(_ values: [Double]) -> Double {
        values.isEmpty ? 0 : values.reduce(0, +) / Double(values.count)
    }
}
