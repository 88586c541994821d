import CLIKit
// filterz-bench parse: HLS playlist parsing throughput and peak memory, against Python m3u8 6.0.0 on the same bytes.
//
// Inputs (generated in process, deterministic):
//   * a 100,000-segment VOD media playlist: EXTINF, EXT-X-PROGRAM-DATE-TIME and EXT-X-BYTERANGE on every
//     segment, EXT-X-KEY every 1,000 segments, EXT-X-MAP + EXT-X-DISCONTINUITY every 10,000 (about 12 MB);
//   * a multivariant playlist with 200 variants and 30 renditions.
// Throughput: median of several `HLS.parse` runs (release build), MB = 10^6 bytes, measured as CPU time of the
// parsing thread (CLOCK_THREAD_CPUTIME_ID) so that other processes competing for the cores do not count;
// Python's runs are measured the same way (time.process_time). Wall-clock medians are printed beside them.
// Peak memory: the kernel's peak resident set (VmHWM) is reset through /proc/self/clear_refs ("5") right
// before one parse; peak minus the resident size just before = the most memory the parse (and the model it
// returns) needed at any moment. Python's figure is ru_maxrss after m3u8.loads minus ru_maxrss before it
// (the text already read), in the same units.
import FilterzCLI
import Foundation
import HLS
import Inspect
import JSON
import Notation
import Parallel

enum ParseBenchmark {
    static let profileOption = Option.optionalInteger(
        "--profile", placeholder: "SEGMENTS", in: 1...10_000_000,
        help: "Parse one generated playlist of this many segments once, no anchor (for valgrind, perf).")

    static var command: Command {
        Command(
            CommandSpec(
                name: "parse",
                abstract:
                    "The HLS parser and whole inspect processes against Python m3u8 on a 100,000-segment playlist.",
                options: [profileOption.spec]),
            action: { args, _ in run(profile: try args.get(profileOption)) })
    }

    static func run(profile: Int?) -> Int32 {
        if let segments = profile {
            // Profiling aid: parse once, no anchor.
            let media = makeMediaPlaylist(segments: segments)
            let result = HLS.parse(media)
            print("parsed \(result.mediaPlaylist?.segments.count ?? -1) segments")
            return 0
        }
        let media = makeMediaPlaylist(segments: 100_000)
        let master = makeMultivariantPlaylist(variants: 200, renditions: 30)
        print("media playlist: \(media.count) bytes, 100000 segments; multivariant: \(master.count) bytes")

        // Check the parse is right before timing it.
        let check = HLS.parse(media)
        guard case .media(let playlist)? = check.playlist, playlist.segments.count == 100_000,
            check.diagnostics.isEmpty
        else {
            print("error: the generated media playlist did not parse cleanly: \(check.diagnostics.prefix(3))")
            return 1
        }
        guard case .multivariant(let variants)? = HLS.parse(master).playlist, variants.variants.count == 200,
            variants.renditions.count == 30
        else {
            print("error: the generated multivariant playlist did not parse")
            return 1
        }

        // Memory first, while the heap is fresh.
        let memory = measurePeakMemory { blackHole(HLS.parse(media)) }
        let peakRatio = memory.map { Double($0) / Double(media.count) }

        let (mediaSeconds, mediaWall) = medianSeconds(runs: 15) { blackHole(HLS.parse(media)) }
        let halves = ParseOptions(parallel: ParallelPair(run: Alongside.run))
        let (_, halvesWall) = medianSeconds(runs: 15) { blackHole(HLS.parse(media, options: halves)) }
        let (masterSeconds, _) = medianSeconds(runs: 200) { blackHole(HLS.parse(master)) }
        let oursMBps = Double(media.count) / mediaSeconds / 1e6
        let masterMBps = Double(master.count) / masterSeconds / 1e6
        print(
            String(
                format: "ours   media:        %8.1f MB/s  (median %.2f ms CPU, %.2f ms wall)", oursMBps,
                mediaSeconds * 1000, mediaWall * 1000))
        print(
            "ours   media, halves on two threads: \(fixedNumber(halvesWall * 1000, digits: 2)) ms wall "
                + "(\(fixedNumber(mediaWall / halvesWall, digits: 2))x the one pass's wall)")
        print(String(format: "ours   multivariant: %8.1f MB/s  (median %.3f ms CPU)", masterMBps, masterSeconds * 1000))
        if let memory, let peakRatio {
            print(String(format: "ours   peak memory:  %8.1f MB = %.2f x input", Double(memory) / 1e6, peakRatio))
        } else {
            print("ours   peak memory:  unavailable (no /proc/self/clear_refs)")
        }

        guard let anchor = runPython(media: media, master: master) else {
            print("error: python3 with m3u8==6.0.0 is needed for the anchor (make deps)")
            ResultLine.print(
                "parse",
                [
                    ("ours_mbps", ResultLine.number(oursMBps)), ("anchor_mbps", .null), ("ratio", .null),
                    ("peak_memory_ratio", ResultLine.number(peakRatio)),
                ])
            return 1
        }
        let anchorMBps = Double(media.count) / anchor.mediaSeconds / 1e6
        let anchorMasterMBps = Double(master.count) / anchor.masterSeconds / 1e6
        print(
            String(
                format: "m3u8   media:        %8.2f MB/s  (median %.0f ms CPU)", anchorMBps, anchor.mediaSeconds * 1000)
        )
        print(String(format: "m3u8   multivariant: %8.2f MB/s", anchorMasterMBps))
        print(
            String(
                format: "m3u8   peak memory:  %8.1f MB = %.2f x input", Double(anchor.peakBytes) / 1e6,
                Double(anchor.peakBytes) / Double(media.count)))
        let ratio = oursMBps / anchorMBps
        print(
            "ratio: \(fixedNumber(ratio, digits: 0))x m3u8 throughput (media), "
                + "\(fixedNumber(masterMBps / anchorMasterMBps, digits: 0))x (multivariant); "
                + "target >= 100x and >= 600 MB/s, peak < 3x input")
        var inspectFields: [(String, JSONValue)] = []
        if let whole = measureWholeProcess(media: media) {
            let slowest = max(whole.textSeconds, whole.jsonSeconds)
            print(
                String(
                    format:
                        "whole process: filterz inspect %.3f s, inspect --json %.3f s; python3 m3u8.loads %.3f s (its parse alone %.3f s CPU)",
                    whole.textSeconds, whole.jsonSeconds, whole.pythonSeconds, anchor.mediaSeconds))
            print(
                "inspect ratio: \(fixedNumber(anchor.mediaSeconds / slowest, digits: 1))x m3u8's parse "
                    + "(slower of text/--json), \(fixedNumber(whole.pythonSeconds / slowest, digits: 1))x "
                    + "python's whole process; target >= 50x")
            inspectFields = [
                ("inspect_text_s", ResultLine.number(whole.textSeconds, places: 3)),
                ("inspect_json_s", ResultLine.number(whole.jsonSeconds, places: 3)),
                ("m3u8_process_s", ResultLine.number(whole.pythonSeconds, places: 3)),
                ("inspect_ratio", ResultLine.number(anchor.mediaSeconds / slowest)),
            ]
        } else {
            print("whole process: skipped (no filterz binary beside filterz-bench, or no python3)")
        }
        ResultLine.print(
            "parse",
            [
                ("ours_mbps", ResultLine.number(oursMBps)), ("anchor_mbps", ResultLine.number(anchorMBps)),
                ("ratio", ResultLine.number(ratio)), ("peak_memory_ratio", ResultLine.number(peakRatio)),
            ] + inspectFields)
        return 0
    }

    // MARK: - Inputs

    static func makeMediaPlaylist(segments: Int) -> [UInt8] {
        var text = """
            #EXTM3U
            #EXT-X-VERSION:7
            #EXT-X-TARGETDURATION:6
            #EXT-X-MEDIA-SEQUENCE:0
            #EXT-X-PLAYLIST-TYPE:VOD
            #EXT-X-INDEPENDENT-SEGMENTS

            """
        text.reserveCapacity(segments * 125)
        let start = DateTime(year: 2026, month: 11, day: 29, hour: 12).secondsSince1970
        var offset = 0
        for index in 0..<segments {
            if index % 10_000 == 0 {
                if index > 0 { text += "#EXT-X-DISCONTINUITY\n" }
                text += "#EXT-X-MAP:URI=\"v720/init_\(index / 10_000).mp4\"\n"
                offset = 0
            }
            if index % 1_000 == 0 {
                let iv = String(index, radix: 16, uppercase: true)
                text += "#EXT-X-KEY:METHOD=AES-128,URI=\"https://keys.example.com/k/\(index / 1_000)\",IV=0x"
                text += String(repeating: "0", count: 32 - iv.count) + iv + "\n"
            }
            let duration = index % 7 == 6 ? 5.5 : 6.006
            text += "#EXT-X-PROGRAM-DATE-TIME:\(DateTime(secondsSince1970: start + Double(index) * 6.006))\n"
            let length = 1_000_000 + (index * 7919) % 400_000
            text += "#EXT-X-BYTERANGE:\(length)@\(offset)\n"
            offset += length
            text += "#EXTINF:\(duration),\n"
            text += "v720/seg_\(String(index).leftPadded(6)).m4s\n"
        }
        text += "#EXT-X-ENDLIST\n"
        return Array(text.utf8)
    }

    static func makeMultivariantPlaylist(variants: Int, renditions: Int) -> [UInt8] {
        var text = "#EXTM3U\n#EXT-X-VERSION:7\n#EXT-X-INDEPENDENT-SEGMENTS\n"
        let languages = ["en", "ko", "ja", "fr", "de", "es", "it", "pt", "zh", "ar"]
        for index in 0..<renditions {
            let type = index < 20 ? "AUDIO" : "SUBTITLES"
            let group = index < 20 ? "aud\(index % 4)" : "subs"
            let language = languages[index % languages.count]
            text +=
                "#EXT-X-MEDIA:TYPE=\(type),GROUP-ID=\"\(group)\",NAME=\"\(type.lowercased()) \(language) \(index)\","
            text += "LANGUAGE=\"\(language)\",DEFAULT=\(index % 10 == 0 ? "YES" : "NO"),AUTOSELECT=YES,"
            if type == "AUDIO" { text += "CHANNELS=\"2\"," }
            text += "URI=\"\(type.lowercased())/\(language)_\(index)/index.m3u8\"\n"
        }
        for index in 0..<variants {
            let height = [360, 480, 540, 720, 1080, 1440, 2160][index % 7]
            let width = height * 16 / 9
            let bandwidth = 400_000 + index * 75_000
            text += "#EXT-X-STREAM-INF:BANDWIDTH=\(bandwidth),AVERAGE-BANDWIDTH=\(bandwidth * 9 / 10),"
            text += "CODECS=\"avc1.640028,mp4a.40.2\",RESOLUTION=\(width)x\(height),FRAME-RATE=29.970,"
            text += "VIDEO-RANGE=SDR,HDCP-LEVEL=NONE,AUDIO=\"aud\(index % 4)\",SUBTITLES=\"subs\",CLOSED-CAPTIONS=NONE,"
            text += "STABLE-VARIANT-ID=\"v\(index)\",PATHWAY-ID=\"CDN-\(index % 2 == 0 ? "A" : "B")\"\n"
            text += "video/\(height)p_\(index)/index.m3u8?token=abc123\n"
        }
        return Array(text.utf8)
    }

    // MARK: - Measuring

    /// Median (CPU seconds of this thread, wall seconds) over `runs` runs after one warm-up run.
    static func medianSeconds(runs: Int, _ body: () -> Void) -> (cpu: Double, wall: Double) {
        body()  // warm up
        var cpu: [Double] = []
        var wall: [Double] = []
        for _ in 0..<runs {
            let startWall = DispatchTime.now().uptimeNanoseconds
            let startCPU = Measuring.threadCPUSeconds()
            body()
            cpu.append(Measuring.threadCPUSeconds() - startCPU)
            wall.append(Double(DispatchTime.now().uptimeNanoseconds - startWall) / 1e9)
        }
        return (Measuring.median(cpu), Measuring.median(wall))
    }

    /// Peak resident bytes added while `body` runs, from VmHWM after resetting it; nil when unsupported.
    static func measurePeakMemory(_ body: () -> Void) -> Int? {
        guard let clear = FileHandle(forWritingAtPath: "/proc/self/clear_refs") else { return nil }
        defer { try? clear.close() }
        guard let before = statusKilobytes("VmRSS") else { return nil }
        do { try clear.write(contentsOf: Data("5".utf8)) } catch { return nil }
        body()
        guard let peak = statusKilobytes("VmHWM") else { return nil }
        return max(0, peak - before) * 1024
    }

    static func statusKilobytes(_ field: String) -> Int? {
        guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else { return nil }
        for line in status.split(separator: "\n") where line.hasPrefix(field + ":") {
            return Int(line.split(separator: " ", omittingEmptySubsequences: true).dropFirst().first ?? "")
        }
        return nil
    }

    struct Anchor {
        var mediaSeconds: Double
        var masterSeconds: Double
        var peakBytes: Int
    }

    static func runPython(media: [UInt8], master: [UInt8]) -> Anchor? {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("filterz-bench-\(getpid())")
        try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let mediaPath = folder.appendingPathComponent("media.m3u8").path
        let masterPath = folder.appendingPathComponent("master.m3u8").path
        guard FileManager.default.createFile(atPath: mediaPath, contents: Data(media)),
            FileManager.default.createFile(atPath: masterPath, contents: Data(master))
        else { return nil }
        let script = """
            import sys, time, resource, statistics, m3u8
            assert m3u8.version.__version__ == '6.0.0' if hasattr(m3u8, 'version') else True
            media = open(sys.argv[1], encoding='utf-8').read()
            master = open(sys.argv[2], encoding='utf-8').read()
            before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
            p = m3u8.loads(media)
            peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
            assert len(p.segments) == 100000, len(p.segments)
            del p
            times = []
            for _ in range(3):
                t = time.process_time(); m3u8.loads(media); times.append(time.process_time() - t)
            mtimes = []
            for _ in range(20):
                t = time.process_time(); m3u8.loads(master); mtimes.append(time.process_time() - t)
            print(statistics.median(times), statistics.median(mtimes), (peak - before) * 1024)
            """
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", "-c", script, mediaPath, masterPath]
        let pipe = Pipe()
        process.standardOutput = pipe
        do { try process.run() } catch { return nil }
        let output = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { return nil }
        let fields = String(decoding: output, as: UTF8.self).split(whereSeparator: \.isWhitespace)
        guard fields.count == 3, let media = Double(fields[0]), let master = Double(fields[1]),
            let peak = Int(fields[2])
        else { return nil }
        return Anchor(mediaSeconds: media, masterSeconds: master, peakBytes: peak)
    }
}

@inline(never)
func blackHole<T>(_ value: T) {
    withExtendedLifetime(value) {}
}

extension String {
    fileprivate func leftPadded(_ width: Int) -> String {
        count >= width ? self : String(repeating: "0", count: width - count) + self
    }
}
