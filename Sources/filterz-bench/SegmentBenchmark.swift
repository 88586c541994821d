import CLIKit
import Encryption
import FilterKit
import FilterzCLI
import Foundation
import Inspect
import JSON
import Recording

#if canImport(Glibc)
    import Glibc
#endif

/// `filterz-bench segment [--preset all-12|colour-only] [--encrypt]`: our `record` job against the `ffmpeg` CLI
/// doing the nearest equivalent job, in the same run; with `--encrypt`, our job a second time with `--encrypt
/// aes-128 --key-rotation 5` right after the clear one, and the slowdown (wall and CPU) between the two.
///
/// Ours: `filterz record` in process — simulated camera 1280×720 at 30 fps for 20 s, the all-12-values
/// preset of `filterz-bench filter` (or its colour-only preset, so the cost of everything but the spatial
/// filters shows), the default ladder (720p/540p/360p at 3000k/2000k/730k), 2 s segments, MPEG-TS, with AAC
/// audio, WebVTT subtitles, I-frame playlists and the poster.
/// Anchor: `ffmpeg -f lavfi -i testsrc2` (+ a sine for audio) through the matching filter chain of
/// `filterz-bench filter`, split to the three scaled renditions, libx264 with our preset (`superfast`), the
/// same capped VBR and keyframes forced every 2 s (scene cuts off), AAC 128k, and the `hls` muxer with a
/// master playlist.
/// Both lines also print the CPU seconds used, so "cores busy" = CPU ÷ wall shows how well each overlaps.
/// Last line: `{"bench":"segment","ours_s":…,"anchor_s":…,"ratio":…,"realtime":…}` (plus `"preset"` for
/// colour-only); ratio = ours / anchor (wall time, lower is better), realtime = 20 s / ours.
enum SegmentBenchmark {
    static let seconds = 20
    static let ladder = [(1280, 720, 3000), (960, 540, 2000), (640, 360, 730)]
    /// The libx264 speed preset of both jobs (ours is `filterz record`'s default).
    static let x264Preset = LadderSegmenter.Configuration.defaultX264Preset

    /// A preset of the benchmark: our filter values and the nearest ffmpeg chain.
    struct Variant {
        var name: String
        var values: FilterValues
        var ffmpegChain: String
    }

    static let variants = [
        Variant(name: "all-12", values: FilterBenchmark.allTwelve, ffmpegChain: FilterBenchmark.ffmpegChain),
        Variant(
            name: "colour-only", values: FilterBenchmark.colourOnly,
            ffmpegChain: "eq=contrast=1.1:saturation=0.9,colortemperature=temperature=4800,"
                + "curves=all='0/0.03 0.25/0.29 0.75/0.70 1/1'"),
    ]

    static let presetOption = Option.choice(
        "--preset", placeholder: "PRESET", from: variants.map(\.name), default: "all-12",
        help: "The filters of both jobs: all-12, or colour-only (everything but the spatial filters).")
    static let encryptOption = Option.flag(
        "--encrypt", help: "Also time our job with --encrypt aes-128 in the same run (encrypted ÷ clear).")

    static var command: Command {
        Command(
            CommandSpec(
                name: "segment",
                abstract: "filterz record against the ffmpeg CLI making the same ladder.",
                options: [presetOption.spec, encryptOption.spec]),
            action: { args, _ in
                let name = try args.get(presetOption)
                guard let variant = variants.first(where: { $0.name == name }) else {
                    throw CLIError.failure("no variant '\(name)'")
                }
                return run(variant, encrypting: try args.get(encryptOption))
            })
    }

    static func run(_ variant: Variant, encrypting: Bool) -> Int32 {
        let cores = ProcessInfo.processInfo.activeProcessorCount
        print(
            "segment benchmark: filterz record vs ffmpeg CLI, 1280x720 30 fps \(seconds) s, 3 renditions, 2 s TS segments, "
                + "\(variant.name) preset, x264 \(x264Preset) (\(cores) cores)")
        let work = FileManager.default.temporaryDirectory.appendingPathComponent("filterz-bench-segment-\(getpid())")
        try? FileManager.default.removeItem(at: work)
        try? FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: work) }

        let presetURL = work.appendingPathComponent("\(variant.name).json")
        _ = FileManager.default.createFile(
            atPath: presetURL.path, contents: Data(Preset(name: variant.name, values: variant.values).jsonBytes()))
        guard let (ours, oursCPU) = record(presetURL, into: work.appendingPathComponent("ours"), extra: []) else {
            return 1
        }
        print(
            String(
                format: "  ours    %.2f s  (%.2fx real time)  CPU %.1f s (%.2f cores busy)",
                ours, Double(seconds) / ours, oursCPU, oursCPU / ours))
        var encryptedFields: [(String, JSONValue)] = []
        if encrypting {
            // The same job with AES-128 segments and a key every 5 segments, right after the clear one.
            let keys = work.appendingPathComponent("keys").path
            guard
                let (sealed, sealedCPU) = record(
                    presetURL, into: work.appendingPathComponent("encrypted"),
                    extra: ["--encrypt", "aes-128", "--key-rotation", "5", "--keys", keys])
            else { return 1 }
            print(
                String(
                    format:
                        "  ours --encrypt aes-128  %.2f s  (%.2fx real time)  CPU %.1f s  (%+.1f %% wall, %+.1f %% CPU)",
                    sealed, Double(seconds) / sealed, sealedCPU, (sealed / ours - 1) * 100,
                    (sealedCPU / oursCPU - 1) * 100))
            // The cipher alone over every segment of the clear run: what encryption costs, free of scheduling noise.
            let cipherSeconds = cipherCost(of: work.appendingPathComponent("ours"))
            print(
                String(
                    format:
                        "  AES-128-CBC alone over the clear run's %.1f MB of segments: %.1f ms CPU (%.2f %% of the clear job's CPU)",
                    cipherSeconds.megabytes, cipherSeconds.seconds * 1000, cipherSeconds.seconds / oursCPU * 100))
            encryptedFields = [
                ("encrypted_s", ResultLine.number(sealed)), ("encrypted_ratio", ResultLine.number(sealed / ours)),
                ("cipher_ms", ResultLine.number(cipherSeconds.seconds * 1000)),
            ]
        }

        let anchorFolder = work.appendingPathComponent("anchor")
        try? FileManager.default.createDirectory(at: anchorFolder, withIntermediateDirectories: true)
        let arguments = anchorArguments(folder: anchorFolder.path, chain: variant.ffmpegChain)
        let childCPUBefore = Measuring.childrenCPUSeconds()
        let anchorStart = Date()
        let anchorOutput = FilterBenchmark.runTool("ffmpeg", arguments)
        let anchor = Date().timeIntervalSince(anchorStart)
        let anchorCPU = Measuring.childrenCPUSeconds() - childCPUBefore
        print(
            "  ffmpeg " + arguments.map { $0.contains(" ") || $0.contains(";") ? "'\($0)'" : $0 }.joined(separator: " ")
        )
        let presetFields: [(String, JSONValue)] = variant.name == "all-12" ? [] : [("preset", .string(variant.name))]
        let realtime = ("realtime", ResultLine.number(Double(seconds) / ours))
        guard anchorOutput != nil else {
            print("ffmpeg not available or failed: no anchor")
            ResultLine.print(
                "segment",
                presetFields + [("ours_s", ResultLine.number(ours)), ("anchor_s", .null), ("ratio", .null), realtime])
            return 1
        }
        print(
            String(
                format: "  anchor  %.2f s  (%.2fx real time)  CPU %.1f s (%.2f cores busy)",
                anchor, Double(seconds) / anchor, anchorCPU, anchorCPU / anchor))
        print("ratio (ours / ffmpeg wall time): \(fixedNumber(ours / anchor, digits: 2))")
        ResultLine.print(
            "segment",
            presetFields + encryptedFields + [
                ("ours_s", ResultLine.number(ours)), ("anchor_s", ResultLine.number(anchor)),
                ("ratio", ResultLine.number(ours / anchor)), realtime,
            ])
        return 0
    }

    /// `filterz record` of the benchmark job into `folder` (plus `extra` options): wall and CPU seconds, or nil
    /// (after printing why) when it failed.
    static func record(_ preset: URL, into folder: URL, extra: [String]) -> (wall: Double, cpu: Double)? {
        let stdout = CapturedOutput(), stderr = CapturedOutput()
        let cpuBefore = Measuring.processCPUSeconds()
        let start = Date()
        let code = CLI.run(
            arguments: [
                "record", "--preset", preset.path, "--duration", "\(seconds)", "--fps", "30",
                "--size", "1280x720", "--segment-duration", "2", "--x264-preset", x264Preset,
                "--out", folder.path,
            ] + extra,
            stdout: stdout, stderr: stderr)
        let wall = Date().timeIntervalSince(start)
        let cpu = Measuring.processCPUSeconds() - cpuBefore
        print(stdout.text, terminator: "")
        guard code == 0 else {
            print("filterz record failed: \(stderr.text)")
            return nil
        }
        return (wall, cpu)
    }

    /// Encrypts every `.ts` segment below `folder` (best of 3 passes, one key and IV): CPU seconds and megabytes.
    static func cipherCost(of folder: URL) -> (seconds: Double, megabytes: Double) {
        let files = (FileManager.default.enumerator(atPath: folder.path)?.compactMap { $0 as? String } ?? [])
            .filter { $0.hasSuffix(".ts") }
        let segments = files.compactMap { try? Data(contentsOf: folder.appendingPathComponent($0)) }.map { [UInt8]($0) }
        let key = [UInt8](repeating: 0x2b, count: 16), iv = [UInt8](repeating: 0, count: 16)
        var best = Double.infinity
        var checksum = 0
        for _ in 0..<3 {
            let before = Measuring.processCPUSeconds()
            for segment in segments { checksum &+= (try? AES128CBC.encrypt(segment, key: key, iv: iv))?.count ?? 0 }
            best = min(best, Measuring.processCPUSeconds() - before)
        }
        if checksum == 0 { print("  (no segments to encrypt)") }
        return (best, Double(segments.reduce(0) { $0 + $1.count }) / 1_000_000)
    }

    /// The ffmpeg command line of the anchor job.
    static func anchorArguments(folder: String, chain: String) -> [String] {
        var graph = "[0:v]\(chain),format=yuv420p,split=3[s0][s1][s2]"
        for (index, rung) in ladder.enumerated() {
            graph += ";[s\(index)]scale=\(rung.0):\(rung.1)[v\(index)]"
        }
        var arguments = [
            "-hide_banner", "-nostats", "-y",
            "-f", "lavfi", "-i", "testsrc2=size=1280x720:rate=30:duration=\(seconds)",
            "-f", "lavfi", "-i", "sine=frequency=440:sample_rate=48000:duration=\(seconds)",
            "-filter_complex", graph,
        ]
        for index in ladder.indices { arguments += ["-map", "[v\(index)]"] }
        arguments += ["-map", "1:a"]
        arguments += [
            "-c:v", "libx264", "-preset", x264Preset, "-profile:v", "high",
            "-x264-params", "scenecut=0:open-gop=0", "-g", "60", "-keyint_min", "60",
            "-force_key_frames", "expr:gte(t,n_forced*2)",
        ]
        for (index, rung) in ladder.enumerated() {
            arguments += [
                "-b:v:\(index)", "\(rung.2)k", "-maxrate:v:\(index)", "\(rung.2)k", "-bufsize:v:\(index)",
                "\(rung.2 * 2)k",
            ]
        }
        arguments += [
            "-c:a", "aac", "-b:a", "128k",
            "-f", "hls", "-hls_time", "2", "-hls_playlist_type", "vod",
            "-hls_segment_filename", "\(folder)/v%v/seg_%05d.ts",
            "-master_pl_name", "master.m3u8",
            "-var_stream_map", "a:0,agroup:aud v:0,agroup:aud v:1,agroup:aud v:2,agroup:aud",
            "\(folder)/v%v/index.m3u8",
        ]
        return arguments
    }
}
