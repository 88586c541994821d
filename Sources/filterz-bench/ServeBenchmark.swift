import CLIKit
import FilterzCLI
import Foundation
import Inspect
import JSON
import RealClients
import Server

/// `filterz-bench serve`: wrk against our server and against nginx (sendfile, keep-alive, worker_processes
/// auto) serving the same folder, in the same run: requests/s for a 2 KB playlist, MB/s for a 1 MiB segment,
/// p50/p99 latency, and the ratios ours ÷ nginx (of the medians, and round by round to show the spread). Both with
/// `wrk -t2 -c64`, no access log.
enum ServeBenchmark {
    struct Settings: Sendable {
        var seconds = 3
        /// An even number puts each server in each position equally often.
        var rounds = 3
        /// Print every wrk run, not only the medians.
        var verbose = false
        /// Our event loops (0: one per processor, as `filterz serve`).
        var threads = 0
        /// Every server logs each request (Common Log Format) to a file in the state folder, ours one write(2)
        /// per line as `filterz serve` does on stderr.
        var logsAccess = false
    }

    /// What the command line asked for, bound for the run.
    @TaskLocal static var settings = Settings()

    static let secondsOption = Option.integer(
        "--seconds", placeholder: "N", default: 3, in: 1...600, help: "Length of each wrk run.")
    static let roundsOption = Option.integer(
        "--rounds", placeholder: "N", default: 3, in: 1...100, help: "Rounds; the order of the servers rotates.")
    static let verboseOption = Option.flag("--verbose", help: "Print every wrk run, not only the medians.")
    static let threadsOption = Option.integer(
        "--threads", placeholder: "N", default: 0, in: 0...256, help: "Our event loops (0: one per processor).")
    static let accessLogOption = Option.flag("--access-log", help: "Every server logs each request to a file.")

    static var command: Command {
        Command(
            CommandSpec(
                name: "serve",
                abstract: "Our server against nginx on one folder: req/s on a playlist, MB/s on a segment, p99.",
                options: [
                    secondsOption.spec, roundsOption.spec, verboseOption.spec, threadsOption.spec, accessLogOption.spec,
                ]),
            action: { args, _ in
                let settings = Settings(
                    seconds: try args.get(secondsOption), rounds: try args.get(roundsOption),
                    verbose: try args.get(verboseOption), threads: try args.get(threadsOption),
                    logsAccess: try args.get(accessLogOption))
                return $settings.withValue(settings) { run() }
            })
    }

    struct Measurement {
        var requestsPerSecond: Double
        var p50Milliseconds: Double
        var p99Milliseconds: Double
    }

    static var seconds: Int { settings.seconds }
    static var rounds: Int { settings.rounds }
    static let segmentBytes = 1 << 20
    static var verbose: Bool { settings.verbose }

    static func run() -> Int32 {
        do {
            return try measure()
        } catch {
            print("serve benchmark failed: \(error)")
            return 1
        }
    }

    static func measure() throws -> Int32 {
        guard let wrk = ExternalTool.path(of: "wrk"),
            let nginxPath = ExternalTool.path(of: "nginx")
                ?? (FileManager.default.isExecutableFile(atPath: "/usr/sbin/nginx") ? "/usr/sbin/nginx" : nil)
        else {
            print("serve benchmark needs wrk and nginx (make deps)")
            return 2
        }
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("filterz-bench-serve-\(getpid())")
        defer { try? FileManager.default.removeItem(at: root) }
        let video = root.appendingPathComponent("bench")
        try FileManager.default.createDirectory(at: video, withIntermediateDirectories: true)
        let playlist = makePlaylist()
        try Data(playlist.utf8).write(to: video.appendingPathComponent("index.m3u8"))
        var segment = [UInt8](repeating: 0, count: segmentBytes)
        for index in segment.indices { segment[index] = UInt8(truncatingIfNeeded: index &* 2_654_435_761 >> 7) }
        try Data(segment).write(to: video.appendingPathComponent("seg_00000.ts"))

        var configuration = ServerConfiguration(root: root.path)
        configuration.port = 0
        configuration.threadCount = settings.threads
        let logging = settings.logsAccess
        let state = root.appendingPathComponent(".nginx")
        try FileManager.default.createDirectory(at: state, withIntermediateDirectories: true)
        var logLine: (@Sendable (String) -> Void)? = nil
        if logging {
            let log = try LineLog(path: state.appendingPathComponent("ours-access.log").path)
            logLine = { line in log.write(line) }
        }
        let ours = try HTTPServer(configuration: configuration, accessLog: logLine)
        defer { ours.stop(graceSeconds: 1) }

        var nginxConfiguration = configuration
        nginxConfiguration.port = try LoopbackPort.unused()
        let block = try NginxConfig.serverBlock(for: nginxConfiguration)
        let configurationFile = state.appendingPathComponent("nginx.conf")
        try Data(NginxConfig.standalone(serverBlock: block, stateFolder: state.path, accessLog: logging).utf8).write(
            to: configurationFile)
        let nginx = Process()
        nginx.executableURL = URL(fileURLWithPath: nginxPath)
        nginx.arguments = [
            "-e", state.appendingPathComponent("error.log").path, "-p", state.path, "-c", configurationFile.path,
        ]
        try nginx.run()
        defer {
            nginx.terminate()
            nginx.waitUntilExit()
        }
        Thread.sleep(forTimeInterval: 0.5)

        let threads =
            configuration.threadCount > 0 ? configuration.threadCount : ProcessInfo.processInfo.activeProcessorCount
        print(
            "filterz-bench serve: \(rounds) rounds of wrk -t2 -c64 -d\(seconds)s --latency (medians), ours (\(threads) event loops) vs nginx (worker_processes auto); access logs \(logging ? "on (files)" : "off")"
        )
        print("playlist \(playlist.utf8.count) B, segment \(segmentBytes) B")
        let oursURL = "http://127.0.0.1:\(ours.port)/bench/"
        let nginxURL = "http://127.0.0.1:\(nginxConfiguration.port)/bench/"
        // Warm all three (page cache, our playlist cache and prepared answers).
        for url in [oursURL, nginxURL] { _ = try wrkRun(wrk, url + "index.m3u8", seconds: 1) }
        // The machine is shared: measure over several rounds and keep the medians. The order rotates every round
        // so that each server takes each position equally often (the run after another heavy run tends to be
        // slower), with a short pause between runs.
        var runs: [String: [Measurement]] = [:]
        let servers = [("ours", oursURL), ("nginx", nginxURL)]
        for round in 0..<rounds {
            let order = Array(servers[(round % servers.count)...] + servers[..<(round % servers.count)])
            for file in ["index.m3u8", "seg_00000.ts"] {
                for (name, base) in order {
                    Thread.sleep(forTimeInterval: 0.5)
                    let run = try wrkRun(wrk, base + file, seconds: seconds)
                    runs["\(name) \(file)", default: []].append(run)
                    if verbose {
                        print(
                            "  round \(round) \(name) \(file): "
                                + "\(fixedNumber(run.requestsPerSecond, digits: 0)) req/s, "
                                + "p50 \(fixedNumber(run.p50Milliseconds, digits: 3)) ms, "
                                + "p99 \(fixedNumber(run.p99Milliseconds, digits: 3)) ms")
                    }
                }
            }
        }
        let oursPlaylist = median(runs["ours index.m3u8"] ?? [])
        let nginxPlaylist = median(runs["nginx index.m3u8"] ?? [])
        let oursSegment = median(runs["ours seg_00000.ts"] ?? [])
        let nginxSegment = median(runs["nginx seg_00000.ts"] ?? [])

        let megabytes = Double(segmentBytes) / 1_000_000
        func row(_ name: String, _ m: Measurement, perSecond: String) -> String {
            name.padding(toLength: 26, withPad: " ", startingAt: 0)
                + perSecond.padding(toLength: 18, withPad: " ", startingAt: 0)
                + String(format: "p50 %7.3f ms   p99 %7.3f ms", m.p50Milliseconds, m.p99Milliseconds)
        }
        print(
            row(
                "playlist  ours", oursPlaylist, perSecond: String(format: "%9.0f req/s", oursPlaylist.requestsPerSecond)
            ))
        print(
            row(
                "playlist  nginx", nginxPlaylist,
                perSecond: String(format: "%9.0f req/s", nginxPlaylist.requestsPerSecond)))
        print(
            row(
                "segment   ours", oursSegment,
                perSecond: String(format: "%9.0f MB/s", oursSegment.requestsPerSecond * megabytes)))
        print(
            row(
                "segment   nginx", nginxSegment,
                perSecond: String(format: "%9.0f MB/s", nginxSegment.requestsPerSecond * megabytes)))
        let playlistRatio = oursPlaylist.requestsPerSecond / nginxPlaylist.requestsPerSecond
        let segmentRatio = oursSegment.requestsPerSecond / nginxSegment.requestsPerSecond
        let p99Ratio = max(
            oursPlaylist.p99Milliseconds / nginxPlaylist.p99Milliseconds,
            oursSegment.p99Milliseconds / nginxSegment.p99Milliseconds)
        print(
            "ratios (ours ÷ nginx): playlist \(fixedNumber(playlistRatio, digits: 3)), "
                + "segment \(fixedNumber(segmentRatio, digits: 3)), "
                + "p99 (worse of the two) \(fixedNumber(p99Ratio, digits: 3))")
        // The same ratios round by round (ours and nginx measured within seconds of each other): their spread shows
        // how much the load of the moment moved the figure above.
        for (label, file) in [("playlist", "index.m3u8"), ("segment", "seg_00000.ts")] {
            let ratios = zip(runs["ours \(file)"] ?? [], runs["nginx \(file)"] ?? []).map {
                $0.requestsPerSecond / $1.requestsPerSecond
            }
            guard let lowest = ratios.min(), let highest = ratios.max() else { continue }
            print(
                "  \(label) ours ÷ nginx round by round: "
                    + "median \(fixedNumber(Measuring.median(ratios), digits: 3)), "
                    + "from \(fixedNumber(lowest, digits: 3)) to \(fixedNumber(highest, digits: 3))")
        }
        print("targets: playlist ≥ 0.9, segment ≥ 0.9, p99 ≤ 2.0")
        ResultLine.print(
            "serve",
            [
                ("playlist_ratio", ResultLine.number(playlistRatio, places: 3)),
                ("segment_ratio", ResultLine.number(segmentRatio, places: 3)),
                ("p99_ratio", ResultLine.number(p99Ratio, places: 3)),
            ])
        return 0
    }

    /// Each figure's median over the runs.
    static func median(_ runs: [Measurement]) -> Measurement {
        Measurement(
            requestsPerSecond: Measuring.median(runs.map(\.requestsPerSecond)),
            p50Milliseconds: Measuring.median(runs.map(\.p50Milliseconds)),
            p99Milliseconds: Measuring.median(runs.map(\.p99Milliseconds)))
    }

    /// A VOD media playlist of about 2 KB.
    static func makePlaylist() -> String {
        var text =
            "#EXTM3U\n#EXT-X-VERSION:3\n#EXT-X-TARGETDURATION:6\n#EXT-X-MEDIA-SEQUENCE:0\n#EXT-X-PLAYLIST-TYPE:VOD\n"
        var index = 0
        while text.utf8.count < 2000 {
            text += "#EXTINF:6.000,\nseg_\(String(format: "%05d", index)).ts\n"
            index += 1
        }
        return text + "#EXT-X-ENDLIST\n"
    }

    static func wrkRun(_ wrk: String, _ url: String, seconds: Int) throws -> Measurement {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: wrk)
        process.arguments = ["-t2", "-c64", "-d\(seconds)s", "--latency", url]
        let out = Pipe()
        process.standardOutput = out
        process.standardError = FileHandle.nullDevice
        try process.run()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let text = String(decoding: data, as: UTF8.self)
        var measurement = Measurement(requestsPerSecond: 0, p50Milliseconds: 0, p99Milliseconds: 0)
        for line in text.split(separator: "\n") {
            let words = line.split(separator: " ")
            if words.first == "Requests/sec:", words.count > 1 { measurement.requestsPerSecond = Double(words[1]) ?? 0 }
            if words.first == "50%", words.count > 1 { measurement.p50Milliseconds = milliseconds(words[1]) }
            if words.first == "99%", words.count > 1 { measurement.p99Milliseconds = milliseconds(words[1]) }
            if line.contains("Non-2xx") || line.contains("Socket errors") {
                print("  wrk \(url): \(line.trimmingCharacters(in: .whitespaces))")
            }
        }
        return measurement
    }

    /// wrk latencies: `812.00us`, `1.23ms`, `2.01s`.
    static func milliseconds(_ text: Substring) -> Double {
        for (unit, factor) in [("us", 0.001), ("ms", 1.0), ("s", 1000.0)] where text.hasSuffix(unit) {
            return (Double(text.dropLast(unit.count)) ?? 0) * factor
        }
        return Double(text) ?? 0
    }
}

/// Lines appended to a file, one `write(2)` each, from any thread.
final class LineLog: @unchecked Sendable {
    private let descriptor: Int32
    private let lock = NSLock()

    init(path: String) throws {
        descriptor = open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { throw CocoaError(.fileWriteUnknown) }
    }

    deinit { close(descriptor) }

    func write(_ line: String) {
        let bytes = Array((line + "\n").utf8)
        lock.lock()
        defer { lock.unlock() }
        _ = bytes.withUnsafeBytes { Glibc.write(descriptor, $0.baseAddress, $0.count) }
    }
}
