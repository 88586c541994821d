import CLIKit
@_spi(Benchmarks) import FilterKit
import FilterzCLI
import Foundation
import Inspect
import JSON
import Parallel
import Synchronization

/// `filterz-bench filter`: FilterKit's fast path on simulated camera frames against the `ffmpeg` CLI running
/// the nearest equivalent filter chain on same-size `testsrc2` frames, in the same run.
///
/// Ours: frames per second for a colour-only preset (per-pixel pass and exact byte table) and for a preset with
/// all 12 values active (blur 10; its colours through the exact byte table from the first frame: the steady state of
/// a stream, as `record` reaches it after its first frames; the table's set-up is in the untimed first frame),
/// at 1280×720 and 1920×1080, on one thread and on all cores (`renderFrame(_:into:)`, output reused as in
/// the video path). Anchor: `ffmpeg -f lavfi -i testsrc2 -vf eq,exposure,colortemperature,curves,hqdn3d,
/// unsharp,gblur,vignette -f null -`, fps = frames / the `rtime` that `-benchmark` prints.
/// All cores are used two ways: one frame at a time split into row bands (as `preview` and `package` render), and
/// frames side by side, one thread each (as `record` renders the camera's frames): the stream's throughput.
/// Last line: `{"bench":"filter","ours_fps":…,"anchor_fps":…,"ratio":…,"side_by_side_fps":…,"side_by_side_ratio":…,
/// "colour_only_1080p_fps":…}` (all-12, 720p, all cores; `ours_fps` one frame at a time split by rows; the last,
/// colour-only at 1080p through the byte table, one frame at a time, against its target of 300 fps).
///
/// `filterz-bench filter --preset all-12` renders only the 720p all-12 case, on 1 thread, split by rows on all cores
/// and side by side on all cores, for about 5 s each and without the anchor: a steady loop to profile (`perf
/// record`) or to compare builds (it prints a hash of one output frame, to check that a change kept the bytes).
/// `filterz-bench filter --preset all-12 --frames N` renders exactly N frames on one thread (and the hash): a fixed
/// amount of work to count with `perf stat` or `valgrind --tool=cachegrind`, with the CPU time of its fastest and
/// median frame (steadier than fps under load); `--frames N --threads T` splits each frame by rows over T threads
/// and also prints the wall time of its fastest and median frame (the CPU time is then the whole process's, every
/// thread's share of the frame). `filterz-bench filter --preset colour-only` runs the 1080p colour-only case alone,
/// like `--preset all-12` (3 s each).
enum FilterBenchmark {
    static let allTwelve = FilterValues(
        brightness: 0.05, exposure: 0.3, contrast: 1.15, saturation: 1.1, sharpness: 0.6, blur: 10, vignette: 0.5,
        noiseReduction: 0.4, highlights: -0.2, shadows: 0.2, temperature: 5600, blackPoint: 0.02)
    /// warm-film's colour steps (its vignette removed).
    static let colourOnly = FilterValues(
        contrast: 1.1, saturation: 0.9, highlights: -0.25, shadows: 0.15, temperature: 4800, blackPoint: 0.03)

    static let ffmpegChain = [
        "eq=brightness=0.05:contrast=1.15:saturation=1.1", "exposure=exposure=0.3",
        "colortemperature=temperature=5600", "curves=all='0/0.02 0.25/0.29 0.75/0.72 1/1'", "hqdn3d=4:3:6:4",
        "unsharp=5:5:0.6:5:5:0", "gblur=sigma=10", "vignette=angle=PI/5",
    ].joined(separator: ",")

    /// The cases `--preset` runs alone.
    static let profiledPresets = ["all-12", "colour-only"]
    static let presetOption = Option.optional(
        "--preset", placeholder: "PRESET",
        help: "all-12 or colour-only alone, without the anchor: a steady loop to profile.")
    static let framesOption = Option.optionalInteger(
        "--frames", placeholder: "N", in: 1...1_000_000,
        help: "With --preset all-12: render exactly N frames and print their CPU times.")
    static let threadsOption = Option.integer(
        "--threads", placeholder: "T", default: 1, in: 1...256,
        help: "With --frames: split each frame by rows on T threads.")

    static var command: Command {
        Command(
            CommandSpec(
                name: "filter",
                abstract:
                    "The all-12 and colour-only filters against ffmpeg's filter chain on frames of the same size.",
                options: [presetOption.spec, framesOption.spec, threadsOption.spec]),
            action: { args, _ in
                let cores = ProcessInfo.processInfo.activeProcessorCount
                let preset = try args.get(presetOption)
                if let preset, !profiledPresets.contains(preset) {
                    throw CLIError.usage(
                        "--preset expects one of \(profiledPresets.joined(separator: ", ")), got '\(preset)'")
                }
                let frames = try args.get(framesOption)
                if frames != nil && preset != "all-12" { throw CLIError.usage("--frames needs --preset all-12") }
                if args.isGiven(threadsOption) && frames == nil { throw CLIError.usage("--threads needs --frames") }
                switch (preset, frames) {
                case (nil, _): return run()
                case ("colour-only", _):
                    return profile("colour-only", colourOnly, width: 1920, height: 1080, seconds: 3, cores: cores)
                case (_, let frames?): return countedAllTwelve(frames: frames, threads: try args.get(threadsOption))
                default: return profile("all-12", allTwelve, width: 1280, height: 720, seconds: 5, cores: cores)
                }
            })
    }

    static func run() -> Int32 {
        let cores = ProcessInfo.processInfo.activeProcessorCount
        print("filter benchmark: FilterKit fast path vs ffmpeg \(ffmpegVersion()) (\(cores) cores)")
        print("colour-only = warm-film colour steps; all-12 = every value active, blur 10")
        // All cores, two ways: one frame at a time split by rows (`preview`, `package`), and frames side by side.
        var ours720 = 0.0, oursSideBySide720 = 0.0, colourOnly1080 = 0.0
        for (width, height) in [(1280, 720), (1920, 1080)] {
            let frames = cameraFrames(width: width, height: height)
            // colour-only twice in the same run: the per-pixel pass, and the exact byte table once it pays.
            let cases: [(String, FilterValues, FilterRenderer.ByteTableUse)] = [
                ("colour-only", colourOnly, .never), ("colour-only", colourOnly, .whenItPays),
                ("all-12", allTwelve, .always),
            ]
            for (name, values, byteTable) in cases {
                for threads in [1, cores] {
                    let start = Date()
                    let renderer = FilterRenderer(
                        values: values, threads: .dispatch(width: threads), byteTable: byteTable)
                    let setup = Date().timeIntervalSince(start)
                    let (fps, cpuFPS, firstFrame) = measure(renderer, frames)
                    let colour = renderer.byteTableIsBuilt ? "byte table" : renderer.colourMethod.rawValue
                    print(
                        String(
                            format:
                                "  ours   %4dx%-4d %-11@ %@ %7.1f fps, %7.1f per CPU-second  (colour: %@, LUT error %.2f, setup %.0f ms, first frame %.0f ms)",
                            width, height, name, threads == 1 ? "1 thread  " : "\(threads) threads", fps, cpuFPS,
                            colour, renderer.lookupTableError ?? 0, setup * 1000, firstFrame * 1000))
                    if width == 1280 && name == "all-12" && threads == cores { ours720 = fps }
                    if width == 1920 && name == "colour-only" && byteTable == .whenItPays && threads == cores {
                        colourOnly1080 = fps
                    }
                }
            }
            // The video path's way to use every core: frames side by side, each on one thread.
            let (fps, cpuFPS) = measureSideBySide(
                FilterRenderer(values: allTwelve, threads: .callingThread, byteTable: .always), frames,
                workers: cores)
            print(
                String(
                    format:
                        "  ours   %4dx%-4d %-11@ %@ %7.1f fps, %7.1f per CPU-second  (%d frames side by side, one thread each, as `record` runs them)",
                    width, height, "all-12", "\(cores) threads", fps, cpuFPS, cores))
            if width == 1280 { oursSideBySide720 = fps }
        }
        for (name, values) in [("colour-only", colourOnly), ("all-12", allTwelve)] {
            for threads in [1, cores] {
                // A 2×2 frame with the table forced on: the time is the table's set-up (entries fill on demand).
                let renderer = FilterRenderer(values: values, threads: .dispatch(width: threads), byteTable: .always)
                let start = Date(), cpuStart = Measuring.processCPUSeconds()
                _ = renderer.renderFrame(Frame(rgbaWidth: 2, height: 2))
                print(
                    String(
                        format: "  ours   exact byte table set-up (%@) %@ %7.0f ms, %7.0f ms CPU", name,
                        threads == 1 ? "1 thread  " : "\(threads) threads", Date().timeIntervalSince(start) * 1000,
                        (Measuring.processCPUSeconds() - cpuStart) * 1000))
            }
        }
        let anchor720 = ffmpegFPS(width: 1280, height: 720, frames: 120)
        let anchor1080 = ffmpegFPS(width: 1920, height: 1080, frames: 60)
        print(String(format: "  ffmpeg 1280x720  chain       all cores %7.1f fps", anchor720 ?? .nan))
        print(String(format: "  ffmpeg 1920x1080 chain       all cores %7.1f fps", anchor1080 ?? .nan))
        print("  ffmpeg -vf \(ffmpegChain)")
        guard let anchor = anchor720 else {
            print("ffmpeg not available: no anchor")
            ResultLine.print(
                "filter",
                [
                    ("ours_fps", ResultLine.number(ours720, places: 1)), ("anchor_fps", .null), ("ratio", .null),
                ])
            return 1
        }
        print(
            "ratio (all-12, 720p, all cores, one frame split by rows): "
                + "\(fixedNumber(ours720 / anchor, digits: 2))x; "
                + "frames side by side: \(fixedNumber(oursSideBySide720 / anchor, digits: 2))x")
        ResultLine.print(
            "filter",
            [
                ("ours_fps", ResultLine.number(ours720, places: 1)),
                ("anchor_fps", ResultLine.number(anchor, places: 1)),
                ("ratio", ResultLine.number(ours720 / anchor)),
                ("side_by_side_fps", ResultLine.number(oursSideBySide720, places: 1)),
                ("side_by_side_ratio", ResultLine.number(oursSideBySide720 / anchor)),
                ("colour_only_1080p_fps", ResultLine.number(colourOnly1080, places: 1)),
            ])
        return 0
    }

    /// One case alone, `seconds` each on 1 thread, on all cores one frame at a time, and frames side by side (the
    /// exact byte table from the first frame), with a hash of one output frame: `--preset all-12` (720p, 5 s) and
    /// `--preset colour-only` (1080p, 3 s; see the type's doc).
    static func profile(_ name: String, _ values: FilterValues, width: Int, height: Int, seconds: Double, cores: Int)
        -> Int32
    {
        let frames = cameraFrames(width: width, height: height)
        let label = String(format: "  ours   %4dx%-4d %@", width, height, name)
        for threads in [1, cores] {
            let renderer = FilterRenderer(values: values, threads: .dispatch(width: threads), byteTable: .always)
            let (fps, cpuFPS, _) = measure(renderer, frames, seconds: seconds)
            let digest = outputDigest(renderer, frames[0])
            print(
                String(
                    format: "%@ %@ %7.1f fps, %7.1f per CPU-second, output FNV-1a %016llx",
                    label, threads == 1 ? "1 thread  " : "\(threads) threads", fps, cpuFPS, digest))
        }
        let (fps, cpuFPS) = measureSideBySide(
            FilterRenderer(values: values, threads: .callingThread, byteTable: .always), frames,
            workers: cores, seconds: seconds)
        print(
            String(
                format: "%@ %d threads %7.1f fps, %7.1f per CPU-second, frames side by side", label, cores, fps, cpuFPS)
        )
        return 0
    }

    /// The 720p all-12 case on `threads` threads for exactly `frames` frames after the first (see the type's doc): a
    /// fixed amount of work, so `perf stat -e cycles:u` compares builds on a busy machine where the timed loops swing.
    static func countedAllTwelve(frames count: Int, threads: Int) -> Int32 {
        let frames = cameraFrames(width: 1280, height: 720)
        let renderer = FilterRenderer(values: allTwelve, threads: .dispatch(width: threads), byteTable: .always)
        var output = frames[0]
        renderer.renderFrame(frames[0], into: &output)
        // CPU seconds per frame: this thread's alone on one thread (other processes do not count), the process's
        // (every thread's) when the frame is split; and wall seconds per frame.
        let frameCPUClock = threads == 1 ? Measuring.threadCPUSeconds : Measuring.processCPUSeconds
        var frameCPU: [Double] = [], frameWall: [Double] = []
        let start = Date(), cpuStart = Measuring.processCPUSeconds()
        for index in 0..<count {
            let before = frameCPUClock(), wallBefore = Date()
            renderer.renderFrame(frames[index % frames.count], into: &output)
            frameCPU.append(frameCPUClock() - before)
            frameWall.append(Date().timeIntervalSince(wallBefore))
        }
        let (seconds, cpu) = (Date().timeIntervalSince(start), Measuring.processCPUSeconds() - cpuStart)
        frameCPU.sort()
        frameWall.sort()
        let digest = outputDigest(renderer, frames[0])
        // The fastest frames are the least disturbed by other work on the machine: a steadier figure under load.
        let wall =
            threads == 1
            ? ""
            : ", wall per frame fastest \(fixedNumber(frameWall[0] * 1000, digits: 2)) ms, "
                + "median \(fixedNumber(frameWall[count / 2] * 1000, digits: 2)) ms"
        print(
            String(
                format:
                    "  ours   1280x720  all-12 %@ %d frames: %7.1f fps, %7.1f per CPU-second, CPU per frame fastest %.2f ms, median %.2f ms%@, output FNV-1a %016llx",
                threads == 1 ? "1 thread  " : "\(threads) threads", count, Double(count) / seconds,
                Double(count) / cpu, frameCPU[0] * 1000, frameCPU[count / 2] * 1000, wall, digest))
        return 0
    }

    /// Frames per second rendering `frames` round-robin for about 2 s (at least 3 frames), after one warm-up
    /// (timed: it includes building the exact byte table when the renderer uses one):
    /// per wall-clock second, and per second of this process's CPU time (all threads), which a machine
    /// shared with other work disturbs much less.
    static func measure(_ renderer: FilterRenderer, _ frames: [Frame], seconds: Double = 2)
        -> (wall: Double, cpu: Double, firstFrame: Double)
    {
        var output = frames[0]
        let first = Date()
        renderer.renderFrame(frames[0], into: &output)
        let firstFrame = Date().timeIntervalSince(first)
        var count = 0
        let start = Date(), cpuStart = Measuring.processCPUSeconds()
        while count < 3 || Date().timeIntervalSince(start) < seconds {
            renderer.renderFrame(frames[count % frames.count], into: &output)
            count += 1
        }
        return (
            Double(count) / Date().timeIntervalSince(start), Double(count) / (Measuring.processCPUSeconds() - cpuStart),
            firstFrame
        )
    }

    /// Four frames of the seeded camera (seed 42) a third of a second apart: every case renders the same pictures.
    static func cameraFrames(width: Int, height: Int) -> [Frame] {
        let camera = SimulatedCamera(.init(width: width, height: height, durationSeconds: 2, seed: 42))
        return (0..<4).map { camera.frame(for: camera.captures[$0 * 10]).image }
    }

    /// FNV-1a of `frame` filtered by `renderer`: equal across builds when an optimisation keeps the bytes.
    static func outputDigest(_ renderer: FilterRenderer, _ frame: Frame) -> UInt64 {
        renderer.renderFrame(frame).packedBytes().reduce(UInt64(0xcbf2_9ce4_8422_2325)) {
            ($0 ^ UInt64($1)) &* 0x100_0000_01b3
        }
    }

    /// Frames per second with `workers` threads each rendering whole frames on its own (the renderer built with
    /// one thread, shared, as `record` shares it), for about `seconds` after one warm-up frame per worker:
    /// per wall-clock second and per second of this process's CPU time.
    static func measureSideBySide(_ renderer: FilterRenderer, _ frames: [Frame], workers: Int, seconds: Double = 3)
        -> (wall: Double, cpu: Double)
    {
        let rendered = Atomic<Int>(0)
        DispatchQueue.concurrentPerform(iterations: workers) { worker in
            var output = frames[worker % frames.count]
            renderer.renderFrame(frames[worker % frames.count], into: &output)
        }
        let start = Date(), cpuStart = Measuring.processCPUSeconds()
        DispatchQueue.concurrentPerform(iterations: workers) { worker in
            var output = frames[0], count = 0
            while count < 3 || Date().timeIntervalSince(start) < seconds {
                renderer.renderFrame(frames[(worker + count * workers) % frames.count], into: &output)
                count += 1
            }
            rendered.add(count, ordering: .relaxed)
        }
        let total = Double(rendered.load(ordering: .relaxed))
        return (total / Date().timeIntervalSince(start), total / (Measuring.processCPUSeconds() - cpuStart))
    }

    static func ffmpegFPS(width: Int, height: Int, frames: Int) -> Double? {
        let arguments = [
            "-hide_banner", "-nostats", "-benchmark", "-f", "lavfi", "-i", "testsrc2=size=\(width)x\(height):rate=30",
            "-frames:v", "\(frames)", "-vf", ffmpegChain, "-f", "null", "-",
        ]
        guard let output = runTool("ffmpeg", arguments) else { return nil }
        // "bench: utime=12.345s stime=0.123s rtime=4.567s"
        guard let range = output.range(of: "rtime="),
            let seconds = Double(output[range.upperBound...].prefix { $0.isNumber || $0 == "." }), seconds > 0
        else {
            print("could not read ffmpeg's rtime: \(output.suffix(300))")
            return nil
        }
        return Double(frames) / seconds
    }

    static func ffmpegVersion() -> String {
        guard let output = runTool("ffmpeg", ["-hide_banner", "-version"]) else { return "(not installed)" }
        return output.split(separator: "\n").first.map { String($0.split(separator: " ").dropFirst(2).first ?? "") }
            ?? "?"
    }

    /// Runs a tool from PATH and returns stdout + stderr, or nil when it cannot run or fails.
    static func runTool(_ name: String, _ arguments: [String]) -> String? {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = [name] + arguments
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        process.standardInput = FileHandle.nullDevice
        do { try process.run() } catch { return nil }
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            print(
                "\(name) exited with \(process.terminationStatus): \(String(decoding: data.suffix(400), as: UTF8.self))"
            )
            return nil
        }
        return String(decoding: data, as: UTF8.self)
    }
}
