import CLIKit
import FilterzCLI
import Foundation
import Inspect
import JSON
import Parallel
import RealClients

#if canImport(Glibc)
    import Glibc
#endif

/// `filterz-bench live [--seconds S]`: the camera recorded live with `warm-film` on the default ladder, once with
/// plain `--live` and twice with `--live --low-latency`, each served by `filterz serve` and played by hls.js in
/// headless Chromium for `S` seconds (default 60): regular and the first low-latency recording by hls.js as
/// docs/LIVE.md configures it (`lowLatencyMode`, `maxLiveSyncPlaybackRate: 1.5`), the second by a stock hls.js
/// (`lowLatencyMode` only). Prints, for each: the latency between the wall clock and the program date time of the
/// frame playing (median, p95), hls.js's own latency, how playback began, stalls, blocking-reload hold times and
/// (low latency) the part publication delay from `--timing-log`; then the ratio of the medians and a JSON line.
/// Every run uses 2 s segments, so the difference is what the parts, hints and blocking reload make.
enum LiveBenchmark {
    struct Run {
        var report: HLSJSPlayer.Report
        /// Last frame captured → part renamed into place, and → listed in the playlists, milliseconds.
        var renameDelays: [Double]
        var listingDelays: [Double]
        var speed: String
        /// 1,000 clients blocked on the same future part: each answer's first byte − the part's listing, ms.
        var heldAnswerDelays: [Double] = []
        var heldAnswered = 0
    }

    static let secondsOption = Option.decimal(
        "--seconds", placeholder: "S", default: 60, in: 10...3600, help: "How long each recording is played.")

    static var command: Command {
        Command(
            CommandSpec(
                name: "live",
                abstract: "Regular --live against --live --low-latency, each played by hls.js in headless Chromium.",
                options: [secondsOption.spec]),
            action: { args, _ in run(seconds: try args.get(secondsOption)) })
    }

    static func run(seconds: Double) -> Int32 {
        if let reason = HLSJSPlayer.unavailableReason {
            print("live benchmark needs hls.js and Chromium: \(reason)")
            return 1
        }
        guard let binary = ChildProcess.builtFilterz() else {
            print("live benchmark needs the filterz binary beside filterz-bench (swift build -c release)")
            return 1
        }
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("filterz-bench-live-\(getpid())")
        defer { try? FileManager.default.removeItem(at: root) }
        print("filterz-bench live: warm-film, default ladder, 2 s segments, \(Int(seconds)) s of hls.js playback each")
        do {
            let regular = try record(
                binary: binary, folder: root.appendingPathComponent("regular"), seconds: seconds, lowLatency: false)
            printRun("regular --live", regular)
            let low = try record(
                binary: binary, folder: root.appendingPathComponent("ll"), seconds: seconds, lowLatency: true)
            printRun("--live --low-latency, hls.js as docs/LIVE.md configures it", low)
            printHeld(low)
            let stock = try record(
                binary: binary, folder: root.appendingPathComponent("ll-stock"), seconds: seconds, lowLatency: true,
                catchUp: false)
            printRun("--live --low-latency, stock hls.js (lowLatencyMode only)", stock)
            let llMedian = percentile(low.report.latencies, 0.5)
            let regularMedian = percentile(regular.report.latencies, 0.5)
            let ratio = regularMedian / max(llMedian, 0.001)
            print("latency ratio (regular / low latency, medians): \(fixedNumber(ratio, digits: 2))")
            ResultLine.print(
                "live",
                [
                    ("ll_latency_p50_s", ResultLine.number(llMedian, places: 3)),
                    ("ll_latency_p95_s", ResultLine.number(percentile(low.report.latencies, 0.95), places: 3)),
                    ("regular_latency_p50_s", ResultLine.number(regularMedian, places: 3)),
                    ("stalls", .integer(low.report.stalls)),
                    ("stock_ll_latency_p50_s", ResultLine.number(percentile(stock.report.latencies, 0.5), places: 3)),
                    ("stock_ll_latency_p95_s", ResultLine.number(percentile(stock.report.latencies, 0.95), places: 3)),
                    ("stock_stalls", .integer(stock.report.stalls)),
                    ("part_publish_p95_ms", ResultLine.number(percentile(low.renameDelays, 0.95), places: 1)),
                ])
            return 0
        } catch {
            print("live benchmark failed: \(error)")
            return 1
        }
    }

    static func printRun(_ name: String, _ run: Run) {
        let r = run.report
        print("\(name): \(run.speed)")
        if let error = r.error { print("  hls.js error: \(error)") }
        for line in r.startup { print("  start: \(line)") }
        print(
            String(
                format: "  latency (wall clock − playing PDT): median %.3f s, p95 %.3f s (%d samples)",
                percentile(r.latencies, 0.5), percentile(r.latencies, 0.95), r.latencies.count))
        print(
            String(
                format: "  hls.js latency: median %.3f s, p95 %.3f s", percentile(r.playerLatencies, 0.5),
                percentile(r.playerLatencies, 0.95)))
        print(
            String(
                format: "  stalls: %d (%.2f s in all); parts loaded %d, segments loaded %d", r.stalls, r.stallSeconds,
                r.partsLoaded, r.fragmentsLoaded))
        for detail in r.stallDetails { print("    stall \(detail)") }
        let holds = r.blockingHoldSeconds.map { $0 * 1000 }
        print(
            String(
                format: "  blocking reloads: %d, hold median %.0f ms, p95 %.0f ms, max %.0f ms",
                r.blockingRequests, percentile(holds, 0.5), percentile(holds, 0.95), holds.max() ?? 0))
        if !run.renameDelays.isEmpty {
            print(
                String(
                    format:
                        "  part publication (last capture → renamed): median %.1f ms, p95 %.1f ms; → listed: median %.1f ms, p95 %.1f ms (%d parts)",
                    percentile(run.renameDelays, 0.5), percentile(run.renameDelays, 0.95),
                    percentile(run.listingDelays, 0.5), percentile(run.listingDelays, 0.95), run.renameDelays.count))
        }
    }

    static func printHeld(_ run: Run) {
        guard run.heldAnswered > 0 else { return }
        let d = run.heldAnswerDelays
        print(
            String(
                format:
                    "  1000 held blocking reloads: %d answered; first byte − listing: median %.1f ms, p99 %.1f ms, max %.1f ms",
                run.heldAnswered, percentile(d, 0.5), percentile(d, 0.99), d.max() ?? .nan))
    }

    static func percentile(_ values: [Double], _ p: Double) -> Double {
        guard !values.isEmpty else { return .nan }
        let sorted = values.sorted()
        return sorted[min(sorted.count - 1, Int((Double(sorted.count - 1) * p).rounded()))]
    }

    /// Records into `folder/live`, serves `folder`, plays it, stops both.
    static func record(binary: String, folder: URL, seconds: Double, lowLatency: Bool, catchUp: Bool = true) throws
        -> Run
    {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let video = folder.appendingPathComponent("live")
        let timingLog = folder.appendingPathComponent("timing.jsonl")
        let recorder = Process()
        recorder.executableURL = URL(fileURLWithPath: binary)
        recorder.arguments =
            [
                "record", "--preset", SharedData.sampleMedia.appendingPathComponent("presets/warm-film.json").path,
                "--live", "--segment-duration", "2",
                "--duration", String(Int(seconds) + 30), "--out", video.path,
            ]
            + (lowLatency ? ["--low-latency", "--timing-log", timingLog.path] : [])
        let recorderOutput = Pipe()
        recorder.standardOutput = recorderOutput
        let recorderErrors = folder.appendingPathComponent("record.stderr")
        _ = FileManager.default.createFile(atPath: recorderErrors.path, contents: nil)
        recorder.standardError = try FileHandle(forWritingTo: recorderErrors)
        try recorder.run()
        defer { if recorder.isRunning { kill(recorder.processIdentifier, SIGKILL) } }
        let server = Process()
        server.executableURL = URL(fileURLWithPath: binary)
        server.arguments = ["serve", folder.path, "--port", "0", "--quiet", "--connections-per-address", "0"]
        let serverOutput = Pipe()
        server.standardOutput = serverOutput
        server.standardError = FileHandle.nullDevice
        try server.run()
        defer { if server.isRunning { kill(server.processIdentifier, SIGKILL) } }
        guard
            let line = String(data: serverOutput.fileHandleForReading.availableData, encoding: .utf8)?
                .split(separator: "\n").first,
            let base = line.split(separator: " ").first(where: { $0.hasPrefix("http") })
        else { throw BenchError("filterz serve printed no URL") }
        let url = String(base).hasSuffix("/") ? String(base) : String(base) + "/"
        let deadline = Date().addingTimeInterval(60)
        while !FileManager.default.fileExists(atPath: video.appendingPathComponent("master.m3u8").path) {
            guard Date() < deadline, recorder.isRunning else { throw BenchError("no master.m3u8 from record --live") }
            Thread.sleep(forTimeInterval: 0.1)
        }
        let report = try blocking {
            let browser = try await HeadlessChromium.start()
            do {
                try await browser.open(url)
                let report = try await HLSJSPlayer.play(
                    url + "live/master.m3u8", in: browser, seconds: seconds, lowLatency: lowLatency, catchUp: catchUp)
                await browser.quit()
                return report
            } catch {
                await browser.quit()
                throw error
            }
        }
        var held: (msn: Int, part: Int, answers: [Double])?
        if lowLatency, catchUp, let port = URL(string: url)?.port.map({ UInt16($0) }),
            let next = HeldRequests.nextSegmentStart(of: video.appendingPathComponent("720p/index.m3u8"))
        {
            let answers = HeldRequests.firstByteTimes(
                port: port, path: "/live/720p/index.m3u8?_HLS_msn=\(next.msn)&_HLS_part=\(next.part)", count: 1000,
                timeoutSeconds: 15)
            held = (next.msn, next.part, answers)
        }
        kill(recorder.processIdentifier, SIGINT)
        recorder.waitUntilExit()
        let summary = String(data: recorderOutput.fileHandleForReading.readDataToEndOfFile(), encoding: .utf8) ?? ""
        kill(server.processIdentifier, SIGINT)
        server.waitUntilExit()
        var renamed: [Double] = []
        var listed: [Double] = []
        var heldDelays: [Double] = []
        if lowLatency, let text = try? String(contentsOf: timingLog, encoding: .utf8) {
            for line in text.split(separator: "\n") {
                guard let entry = try? JSONValue(parsing: Array(line.utf8)), entry["track"] != .string("audio"),
                    let capture = entry["last_capture_ms"]?.doubleValue, let rename = entry["renamed_ms"]?.doubleValue,
                    let listing = entry["listed_ms"]?.doubleValue
                else { continue }
                renamed.append(rename - capture)
                listed.append(listing - capture)
                if let held, entry["track"] == .string("720p"), entry["msn"] == .integer(held.msn),
                    entry["part"] == .integer(held.part)
                {
                    heldDelays = held.answers.map { $0 - listing }
                }
            }
        }
        let speed =
            summary.split(separator: "\n").first.flatMap { $0.split(separator: "(").last.map { "(" + $0 } } ?? ""
        let dropped =
            (try? String(contentsOf: recorderErrors, encoding: .utf8))?
            .split(whereSeparator: { $0 == "\n" || $0 == "\r" }).last { $0.contains("dropped") }
            .map { "; " + $0.replacingOccurrences(of: "filterz record: ", with: "") } ?? ""
        return Run(
            report: report, renameDelays: renamed, listingDelays: listed, speed: String(speed) + dropped,
            heldAnswerDelays: heldDelays, heldAnswered: held?.answers.count ?? 0)
    }

    struct BenchError: Error, CustomStringConvertible {
        var description: String
        init(_ description: String) { self.description = description }
    }

    /// Runs async work to completion from synchronous code.
    static func blocking<T: Sendable>(_ work: @escaping @Sendable () async throws -> T) throws -> T {
        let slot = ResultSlots<Result<T, any Error>>(count: 1)
        let done = DispatchSemaphore(value: 0)
        Task {
            do { slot.set(0, .success(try await work())) } catch { slot.set(0, .failure(error)) }
            done.signal()
        }
        done.wait()
        guard let result = slot.values.first else { throw BenchError("the async work ended without a result") }
        return try result.get()
    }
}
