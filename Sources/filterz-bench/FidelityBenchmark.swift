import CLIKit
import Foundation
import JSON
import RealClients
import Server
import Simulation

#if canImport(Glibc)
    import Glibc
#endif

/// `filterz-bench fidelity`: the simulator held to a real player. A 3-rung ladder recorded with the filter on is
/// served with `serve --shape TRACE` and played through by hls.js 1.6 (default configuration) in headless
/// Chromium; `filterz simulate --abr RULE` runs on the same ladder and trace. Per trace and overall: the share
/// of segments played at the same level, stalls and stall time, QoE_lin (and the difference as a share of the
/// offline optimum), start-up time, in both.
enum FidelityBenchmark {
    static let tracesOption = Option.integer(
        "--traces", placeholder: "N", default: 10, in: 1...200,
        help: "Traces played, taken in turn from each family of ../shared/traces/json.")
    static let abrOption = Option.text(
        "--abr", placeholder: "rule", default: "hlsjs", help: "The simulate rule held to hls.js.")
    static let durationOption = Option.integer(
        "--duration", placeholder: "S", default: 60, in: 10...600, help: "Length of the recorded ladder, seconds.")

    static var command: Command {
        Command(
            CommandSpec(
                name: "fidelity",
                abstract: "simulate --abr RULE against hls.js in Chromium on the same ladder and shaped traces.",
                options: [tracesOption.spec, abrOption.spec, durationOption.spec]),
            action: { args, _ in
                let traces = try args.get(tracesOption), rule = try args.get(abrOption)
                let duration = try args.get(durationOption)
                do {
                    return try LiveBenchmark.blocking { try await run(traces: traces, rule: rule, duration: duration) }
                } catch {
                    print("fidelity benchmark failed: \(error)")
                    return 1
                }
            })
    }

    /// One trace's comparison.
    struct Comparison {
        var trace: String
        var segments: Int
        var sameLevel: Int
        var player: Session
        var model: Session
        var optimum: Double?
    }

    /// What one session did, from hls.js's events or from the simulator's report.
    struct Session {
        var levels: [Int]
        var stalls: Int
        var stallSeconds: Double
        var qoeLin: Double
        var startupSeconds: Double
    }

    struct Failure: Error, CustomStringConvertible { var description: String }

    static func run(traces count: Int, rule: String, duration: Int) async throws -> Int32 {
        guard let filterz = ChildProcess.builtFilterz() else {
            throw Failure(description: "no filterz beside the bench")
        }
        if let reason = HLSJSPlayer.unavailableReason { throw Failure(description: reason) }
        let ladder = try recordLadder(filterz, seconds: duration)
        let traces = try pickTraces(count)
        var comparisons: [Comparison] = []
        for trace in traces {
            let comparison = try await compare(ladder: ladder, trace: trace, rule: rule, filterz: filterz)
            comparisons.append(comparison)
            progress(line(comparison))
        }
        // Live LL-HLS: one constant link and one trace, latency p50 in both.
        var liveGaps: [(String, JSONValue)] = []
        let liveTrace = traces.first { $0.path.contains("4g") } ?? traces[0]
        for (label, shape) in [
            ("constant", try NetworkTrace.constant(bitsPerSecond: 5_000_000, latencySeconds: 0.04)),
            (
                "trace",
                try NetworkTrace(json: try Data(contentsOf: liveTrace), fallbackName: liveTrace.lastPathComponent)
            ),
        ] {
            let (player, model) = try await liveLatency(
                filterz, shape: shape, traceFile: label == "trace" ? liveTrace : nil, rule: rule)
            progress(
                "live LL-HLS, \(shape.name): latency p50 hls.js \(fixedNumber(player, digits: 2)) s, model \(fixedNumber(model, digits: 2)) s"
            )
            liveGaps.append(("live_\(label)_latency_p50_s", ResultLine.number(player)))
            liveGaps.append(("live_\(label)_model_latency_p50_s", ResultLine.number(model)))
        }
        let segments = comparisons.reduce(0) { $0 + $1.segments }
        let same = comparisons.reduce(0) { $0 + $1.sameLevel }
        let stallGap = comparisons.map { abs($0.player.stallSeconds - $0.model.stallSeconds) }
        let qoeGap = comparisons.compactMap { c in c.optimum.map { abs(c.player.qoeLin - c.model.qoeLin) / $0 } }
        let startupGap = comparisons.map { abs($0.player.startupSeconds - $0.model.startupSeconds) }
        progress(
            "overall: same level \(same)/\(segments) segments, |Δ stall| median \(fixedNumber(Measuring.median(stallGap), digits: 2)) s, "
                + "|ΔQoE_lin| median \(fixedNumber(Measuring.median(qoeGap) * 100, digits: 1)) % of the optimum")
        ResultLine.print(
            "fidelity",
            [
                ("rule", .string(rule)), ("traces", .integer(comparisons.count)),
                ("same_level", ResultLine.number(Double(same) / Double(max(segments, 1)), places: 3)),
                ("stall_gap_s_median", ResultLine.number(Measuring.median(stallGap))),
                ("stall_gap_s_max", ResultLine.number(stallGap.max())),
                ("qoe_gap_of_optimum_median", ResultLine.number(Measuring.median(qoeGap), places: 3)),
                ("qoe_gap_of_optimum_max", ResultLine.number(qoeGap.max(), places: 3)),
                ("startup_gap_s_median", ResultLine.number(Measuring.median(startupGap))),
            ] + liveGaps)
        return 0
    }

    static func line(_ c: Comparison) -> String {
        func session(_ s: Session) -> String {
            "stalls \(s.stalls) (\(fixedNumber(s.stallSeconds, digits: 2)) s), QoE_lin \(fixedNumber(s.qoeLin, digits: 2)), start-up \(fixedNumber(s.startupSeconds, digits: 2)) s"
        }
        return
            "\(c.trace): same level \(c.sameLevel)/\(c.segments); hls.js \(session(c.player)), levels \(c.player.levels.map(String.init).joined()); "
            + "model \(session(c.model)), levels \(c.model.levels.map(String.init).joined())"
            + (c.optimum.map { "; optimum \(fixedNumber($0, digits: 2))" } ?? "")
    }

    /// A 3-rung ladder of `seconds` with the warm-film filter (2 s segments), recorded once and kept under
    /// `.build/bench-assets`.
    static func recordLadder(_ filterz: String, seconds: Int) throws -> URL {
        let folder = SharedData.packageRoot.appendingPathComponent(".build/bench-assets/fidelity-\(seconds)s")
        if FileManager.default.fileExists(atPath: folder.appendingPathComponent("master.m3u8").path) { return folder }
        progress("recording a \(seconds) s 3-rung ladder into \(folder.path)")
        let result = try ExternalTool.run(
            filterz,
            [
                "record", "--preset", SharedData.sampleMedia.appendingPathComponent("presets/warm-film.json").path,
                "--duration", "\(seconds)", "--segment-duration", "2", "--size", "1280x720",
                "--ladder", "1280x720@2500k,854x480@1200k,426x240@400k", "--out", folder.path,
            ], timeoutSeconds: Double(seconds) * 20 + 60)
        guard result.exitCode == 0 else { throw Failure(description: "record failed: \(result.stderr)") }
        return folder
    }

    /// `count` traces, in turn from each family (folder) of the shared traces, each family's in name order.
    static func pickTraces(_ count: Int) throws -> [URL] {
        guard let shared = SharedData.root else { throw Failure(description: "no ../shared folder") }
        let root = shared.appendingPathComponent("traces/json")
        let families = try FileManager.default.contentsOfDirectory(atPath: root.path).sorted().map {
            root.appendingPathComponent($0)
        }
        let files = try families.map { family in
            try FileManager.default.contentsOfDirectory(atPath: family.path).filter { $0.hasSuffix(".json") }.sorted()
                .map { family.appendingPathComponent($0) }
        }
        var picked: [URL] = []
        var round = 0
        while picked.count < count && round < 1000 {
            for list in files where round < list.count && picked.count < count { picked.append(list[round]) }
            round += 1
        }
        return picked
    }

    static func compare(ladder: URL, trace traceFile: URL, rule: String, filterz: String) async throws -> Comparison {
        let name = traceFile.deletingPathExtension().lastPathComponent
        let trace = try NetworkTrace(
            json: try Data(contentsOf: traceFile), fallbackName: traceFile.deletingPathExtension().lastPathComponent)
        let report = try await play(
            root: ladder.deletingLastPathComponent(), path: "\(ladder.lastPathComponent)/master.m3u8", shape: trace,
            seconds: 600, lowLatency: false)
        if let error = report.error { throw Failure(description: "\(name): hls.js: \(error)") }

        let simulated = try ExternalTool.run(
            filterz,
            [
                "simulate", ladder.appendingPathComponent("master.m3u8").path, "--trace", traceFile.path, "--abr", rule,
                "--json",
            ],
            timeoutSeconds: 600)
        guard simulated.exitCode == 0, let json = try? JSONValue(parsing: Array(simulated.stdout.utf8)),
            case .array(let segments)? = json["segments"], let summary = json["summary"]
        else { throw Failure(description: "\(name): simulate failed: \(simulated.stderr)") }
        let modelLevels = segments.compactMap { segment in segment["variant"]?.doubleValue.map { Int($0) } }
        // Both order the ladder by bitrate, ascending: hls.js's level index is the simulator's variant index.
        let bitrates = report.levelBitrates.map { $0 / 1000 }
        let model = Session(
            levels: modelLevels, stalls: Int(summary["rebuffer_events"]?.doubleValue ?? 0),
            stallSeconds: summary["rebuffer_s"]?.doubleValue ?? 0, qoeLin: summary["qoe_lin"]?.doubleValue ?? 0,
            startupSeconds: summary["startup_s"]?.doubleValue ?? 0)

        // hls.js's played level of each segment: the last main fragment appended for it (loaded, where none
        // was appended).
        let main = report.fragments.filter { $0.type == "main" }
        let firstSN = main.map(\.sn).min() ?? 0
        var bySegment: [Int: Int] = [:]
        for fragment in main where fragment.buffered || bySegment[fragment.sn - firstSN] == nil {
            bySegment[fragment.sn - firstSN] = fragment.level
        }
        let loadsPerSegment = Dictionary(grouping: main, by: \.sn).values.map(\.count)
        if let most = loadsPerSegment.max(), most > 1 {
            progress(
                "  \(name): hls.js loaded a segment \(most) times (levels of sn \(firstSN): \(main.filter { $0.sn == firstSN }.map(\.level)))"
            )
        }
        let playerLevels = (0..<modelLevels.count).map { bySegment[$0] ?? -1 }
        let played = playerLevels.filter { $0 >= 0 }
        let startup = (report.playingAt ?? 0) - (main.first?.start ?? 0)
        let summaryOfPlayer = QoESummary(
            playedLevels: played, bitratesKilobitsPerSecond: bitrates, segmentDurationSeconds: 2,
            rebufferSeconds: report.stallSeconds, rebufferEvents: report.stalls, startupSeconds: startup)
        let player = Session(
            levels: playerLevels, stalls: report.stalls, stallSeconds: report.stallSeconds,
            qoeLin: summaryOfPlayer.qoeLin, startupSeconds: startup)
        let same = zip(playerLevels, modelLevels).filter { $0 == $1 }.count
        return Comparison(
            trace: name, segments: modelLevels.count, sameLevel: same, player: player, model: model,
            optimum: summary["offline_optimal_qoe_lin"]?.doubleValue)
    }

    /// A live LL-HLS recording (2 rungs, 2 s segments, 1/3 s parts) served through `shape` and watched for 40 s by
    /// hls.js with `lowLatencyMode` (its default catch-up, none), then simulated live with `--abr RULE` on the same
    /// link: the latency p50 of each (hls.js's from the wall clock to the program date time on screen, which also
    /// holds the part's publication delay; the model's from the live edge to the position).
    static func liveLatency(_ filterz: String, shape: NetworkTrace, traceFile: URL?, rule: String) async throws -> (
        Double, Double
    ) {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("filterz-fidelity-live-\(getpid())")
        try? FileManager.default.removeItem(at: folder)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let video = folder.appendingPathComponent("live")
        let recorder = Process()
        recorder.executableURL = URL(fileURLWithPath: filterz)
        recorder.arguments = [
            "record", "--preset", SharedData.sampleMedia.appendingPathComponent("presets/warm-film.json").path,
            "--live", "--low-latency", "--size", "854x480", "--ladder", "854x480@1200k,426x240@400k",
            "--duration", "90", "--out", video.path,
        ]
        recorder.standardOutput = FileHandle.nullDevice
        recorder.standardError = FileHandle.nullDevice
        try recorder.run()
        defer { if recorder.isRunning { kill(recorder.processIdentifier, SIGKILL) } }
        let deadline = Date().addingTimeInterval(60)
        while !FileManager.default.fileExists(atPath: video.appendingPathComponent("master.m3u8").path) {
            guard Date() < deadline, recorder.isRunning else {
                throw Failure(description: "no master.m3u8 from record --live")
            }
            try await Task.sleep(nanoseconds: 100_000_000)
        }
        let report = try await play(
            root: folder, path: "live/master.m3u8", shape: shape, seconds: 40, lowLatency: true, catchUp: false)
        if let error = report.error { throw Failure(description: "live: hls.js: \(error)") }
        let network = traceFile.map { ["--trace", $0.path] } ?? ["--bandwidth", "5mbps", "--latency", "40ms"]
        let simulated = try ExternalTool.run(
            filterz, ["simulate", video.path, "--abr", rule, "--watch", "40s", "--json"] + network,
            timeoutSeconds: 300)
        guard simulated.exitCode == 0, let json = try? JSONValue(parsing: Array(simulated.stdout.utf8)),
            let model = json["summary"]?["latency_p50_s"]?.doubleValue
        else { throw Failure(description: "live: simulate failed: \(simulated.stderr)") }
        return (Measuring.median(report.latencies), model)
    }

    /// hls.js in a fresh headless Chromium playing `path` below `root`, served through a link shaped by `shape`.
    /// The page comes from a server of its own, so the shaped link starts at the player's first request.
    static func play(
        root: URL, path: String, shape: NetworkTrace, seconds: Double, lowLatency: Bool, catchUp: Bool = true
    ) async throws -> HLSJSPlayer.Report {
        let page = FileManager.default.temporaryDirectory.appendingPathComponent("filterz-fidelity-page-\(getpid())")
        try FileManager.default.createDirectory(at: page, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: page) }
        var pageConfiguration = ServerConfiguration(root: page.path)
        pageConfiguration.port = 0
        let pageServer = try HTTPServer(configuration: pageConfiguration)
        defer { pageServer.stop(graceSeconds: 1) }
        var configuration = ServerConfiguration(root: root.path)
        configuration.port = 0
        configuration.shape = LinkShape(trace: shape)
        let server = try HTTPServer(configuration: configuration)
        defer { server.stop(graceSeconds: 1) }
        let browser = try await HeadlessChromium.start()
        do {
            try await browser.open(pageServer.baseURL + "/")
            let report = try await HLSJSPlayer.play(
                "\(server.baseURL)/\(path)", in: browser, seconds: seconds, lowLatency: lowLatency, catchUp: catchUp)
            await browser.quit()
            return report
        } catch {
            await browser.quit()
            throw error
        }
    }

    /// A line shown at once (written straight to the descriptor, so a long run reports as it goes, also into a
    /// file).
    static func progress(_ text: String) {
        FileDescriptorOutput.standardOutput.line(text)
    }
}
