import CLIKit
import FilterKit
import Media
import Packaging
import Recording

/// `filterz record`: filtered frames from the simulated camera (and microphone) → an HLS ladder.
enum RecordCommand {
    static let duration = Option.decimal(
        "--duration", placeholder: "seconds", default: 20, in: 0.1...86_400, help: "Length of the recording.")
    static let fps = Option.integer(
        "--fps", placeholder: "n", default: 30, in: 1...120, help: "Camera frames per second.")
    static let size = Option.text(
        "--size", placeholder: "WxH", default: "1280x720", help: "Camera picture size (long x short side).")
    static let orientation = Option.text(
        "--orientation", placeholder: "landscape|portrait", default: SimulatedCamera.Orientation.landscape.rawValue,
        help: "How the phone is held.")
    static let live = Option.flag(
        "--live", help: "Publish while recording, paced to real time: EVENT playlists rewritten after every segment.")
    static let window = Option.optional(
        "--window", placeholder: "n", help: "With --live: a sliding window of the last n segments instead of EVENT.")
    static let lowLatency = Option.flag(
        "--low-latency",
        help:
            "With --live: Low-Latency HLS — fMP4 parts, preload hints, blocking reload; 2 s segments unless --segment-duration is given."
    )
    static let partDuration = Option.optional(
        "--part-duration", placeholder: "seconds", shownDefault: "1/3 s",
        help: "With --low-latency: part length, 0.2–1.0 s in whole frames dividing the segment.")
    static let timingLog = Option.optional(
        "--timing-log", placeholder: "file",
        help: "With --low-latency: one JSON line per part (last capture, rename and listing times, ms).")
    static let seed = Option.integer(
        "--seed", placeholder: "n", default: 1, in: 0...Int.max, help: "Seed of the simulated camera scene.")

    static var command: Command {
        Command(
            CommandSpec(
                name: "record",
                abstract: "Record the simulated camera through a filter preset into a multi-rendition HLS ladder.",
                discussion: """
                    Writes master.m3u8, one media playlist and I-frame playlist per rendition, an audio playlist,
                    Korean and English WebVTT subtitle playlists, poster.jpg and filter.json into --out.
                    Ctrl-C finishes the segment in progress, finalises the playlists and exits 0.
                    """,
                options: SegmentingOptions.specs
                    + [duration.spec, fps.spec, size.spec, orientation.spec, live.spec, window.spec, lowLatency.spec]
                    + [partDuration.spec, timingLog.spec, seed.spec],
                examples: [
                    "filterz record --preset warm-film --duration 20 --fps 30 --size 1280x720 --out out/warm-film",
                    "filterz record --preset noir --segment-duration 2 --format fmp4 --ladder 640x360@730k,320x180@250k --out out/noir",
                    "filterz record --preset dreamy --live --window 5 --duration 600 --out /srv/hls/live",
                    "filterz record --preset warm-film --live --low-latency --part-duration 0.2 --out /srv/hls/ll",
                ]),
            action: run)
    }

    /// A `record` command line checked whole (every option, then the preset read) before the camera starts.
    struct Plan {
        var settings: Recording.Settings
        var camera: SimulatedCamera.Configuration
        var microphone: SimulatedMicrophone.Configuration

        static func parse(_ args: ParsedArguments, _ context: CommandContext) throws(CLIError) -> Plan {
            // Every option is checked before the preset is read (the last step of `SegmentingOptions.parse`).
            let duration = try args.get(RecordCommand.duration)
            let fps = try args.get(RecordCommand.fps)
            let seed = try args.get(RecordCommand.seed)
            let sizeText = try args.get(RecordCommand.size)
            let size = sizeText.lowercased().split(separator: "x").compactMap { Int($0) }
            guard size.count == 2, (16...8192).contains(size[0]), (16...8192).contains(size[1]) else {
                throw .usage("--size expects WIDTHxHEIGHT (16…8192), got '\(sizeText)'")
            }
            let orientationText = try args.get(RecordCommand.orientation)
            guard let orientation = SimulatedCamera.Orientation(rawValue: orientationText) else {
                throw .usage("--orientation expects landscape or portrait, got '\(orientationText)'")
            }
            let live = try args.get(RecordCommand.live)
            var mode = PlaylistBuilder.Mode.vod
            if let window = try args.get(RecordCommand.window) {
                guard live else { throw .usage("--window needs --live") }
                guard let count = Int(window), count >= 1 else {
                    throw .usage("--window expects a whole number ≥ 1, got '\(window)'")
                }
                mode = .slidingWindow(segments: count)
            } else if live {
                mode = .event
            }
            let lowLatency = try RecordCommand.lowLatencySettings(args, live: live, fps: fps)

            var options = try SegmentingOptions.parse(args, context)
            options.mode = mode
            if let lowLatency {
                options.container = .fragmentedMP4
                options.segmentDuration = lowLatency.segmentDuration
            }
            return Plan(
                settings: options.recordingSettings(lowLatency: lowLatency?.settings),
                camera: SimulatedCamera.Configuration(
                    width: size[0], height: size[1], framesPerSecond: fps, durationSeconds: duration,
                    orientation: orientation, seed: UInt64(seed)),
                microphone: SimulatedMicrophone.Configuration(seed: UInt64(seed)))
        }
    }

    static func run(_ args: ParsedArguments, _ context: CommandContext) throws -> Int32 {
        try run(Plan.parse(args, context), context)
    }

    static func run(_ plan: Plan, _ context: CommandContext) throws -> Int32 {
        let source = CameraSource(
            camera: SimulatedCamera(plan.camera), microphone: SimulatedMicrophone(plan.microphone))
        return try RecordingRun.run(Recording(plan.settings, source: source), context)
    }

    /// `--low-latency`, `--part-duration`, `--timing-log`: fMP4 in 2 s segments unless `--segment-duration` is
    /// given, the part length checked against the frame rate and the segment. Nil without `--low-latency`.
    static func lowLatencySettings(
        _ args: ParsedArguments, live: Bool, fps: Int
    ) throws(CLIError) -> (settings: LowLatencySettings, segmentDuration: Double)? {
        guard try args.get(lowLatency) else {
            if args.isGiven(partDuration) { throw .usage("\(partDuration.name) needs --low-latency") }
            if args.isGiven(timingLog) { throw .usage("\(timingLog.name) needs --low-latency") }
            return nil
        }
        guard live else { throw .usage("--low-latency needs --live") }
        let format = try args.get(SegmentingOptions.format)
        if args.isGiven(SegmentingOptions.format), format != ContainerFormat.fragmentedMP4.rawValue {
            throw .usage("--low-latency writes fMP4 parts; --format \(format) cannot be used with it")
        }
        let segmentDuration =
            args.isGiven(SegmentingOptions.segmentDuration) ? try args.get(SegmentingOptions.segmentDuration) : 2
        var requested: Double?
        if let text = try args.get(partDuration) {
            guard let seconds = Double(text), seconds.isFinite else {
                throw .usage("--part-duration expects seconds (0.2–1.0), got '\(text)'")
            }
            requested = seconds
        }
        let frameDuration = Timestamp(1, timescale: Int32(fps))
        let framesPerSegment = max(1, Int((segmentDuration * Double(fps)).rounded()))
        switch PartDuration.frames(
            requestedSeconds: requested, frameDuration: frameDuration, framesPerSegment: framesPerSegment)
        {
        case .failure(let problem): throw .usage(problem.description)
        case .success(let frames):
            let settings = LowLatencySettings(
                partDuration: frameDuration * Int64(frames), timingLogPath: try args.get(timingLog))
            return (settings, segmentDuration)
        }
    }
}
