import FilterKit
import Foundation
import Media
import Packaging

/// `filterz record`: filtered frames from the simulated camera (and microphone) → an HLS ladder.
enum RecordCommand {
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
                options: SegmentingOptions.specs + [
                    .value("--duration", placeholder: "seconds", help: "Length of the recording.", defaultValue: "20"),
                    .value("--fps", placeholder: "n", help: "Camera frames per second.", defaultValue: "30"),
                    .value("--size", placeholder: "WxH", help: "Camera picture size (long x short side).", defaultValue: "1280x720"),
                    .value("--orientation", placeholder: "landscape|portrait", help: "How the phone is held.", defaultValue: "landscape"),
                    .flag("--live", help: "Publish while recording, paced to real time: EVENT playlists rewritten after every segment."),
                    .value("--window", placeholder: "n", help: "With --live: a sliding window of the last n segments instead of EVENT."),
                    .value("--seed", placeholder: "n", help: "Seed of the simulated camera scene.", defaultValue: "1"),
                ],
                examples: [
                    "filterz record --preset warm-film --duration 20 --fps 30 --size 1280x720 --out out/warm-film",
                    "filterz record --preset noir --segment-duration 2 --format fmp4 --ladder 640x360@730k,320x180@250k --out out/noir",
                    "filterz record --preset dreamy --live --window 5 --duration 600 --out /srv/hls/live",
                ]),
            action: run)
    }

    static func run(_ args: ParsedArguments, _ context: CommandContext) throws -> Int32 {
        var options = try SegmentingOptions.parse(args)
        let duration = try args.decimal("--duration", default: 20, in: 0.1...86_400)
        let fps = try args.integer("--fps", default: 30, in: 1...120)
        let seed = try args.integer("--seed", default: 1, in: 0...Int.max)
        let sizeText = args.value("--size") ?? "1280x720"
        let size = sizeText.lowercased().split(separator: "x").compactMap { Int($0) }
        guard size.count == 2, (16...8192).contains(size[0]), (16...8192).contains(size[1]) else {
            throw CLIError.usage("--size expects WIDTHxHEIGHT (16…8192), got '\(sizeText)'")
        }
        let orientationText = args.value("--orientation") ?? "landscape"
        guard let orientation = SimulatedCamera.Orientation(rawValue: orientationText) else {
            throw CLIError.usage("--orientation expects landscape or portrait, got '\(orientationText)'")
        }
        let live = args.flag("--live")
        if let window = args.value("--window") {
            guard live else { throw CLIError.usage("--window needs --live") }
            guard let count = Int(window), count >= 1 else {
                throw CLIError.usage("--window expects a whole number ≥ 1, got '\(window)'")
            }
            options.mode = .slidingWindow(segments: count)
        } else if live {
            options.mode = .event
        }

        let camera = SimulatedCamera(SimulatedCamera.Configuration(
            width: size[0], height: size[1], framesPerSecond: fps, durationSeconds: duration,
            orientation: orientation, seed: UInt64(seed)))
        let microphone = SimulatedMicrophone(SimulatedMicrophone.Configuration(seed: UInt64(seed)))
        let job = SegmentingJob(
            options: options, sourceWidth: camera.width, sourceHeight: camera.height,
            frameDuration: Timestamp(camera.frameDuration.value, timescale: camera.frameDuration.timescale),
            timescale: SimulatedCamera.timescale, audio: LadderSegmenter.AudioFormat(
                sampleRate: microphone.configuration.sampleRate, channels: microphone.configuration.channelCount),
            live: live, context: context)
        let renderer = FilterRenderer(values: options.preset.values)
        let frameSeconds = camera.frameDuration.seconds
        // The camera draws the next frames on a thread of its own while this one is filtered (on every core)
        // and encoded; a 720p frame costs it under 2 ms, so one thread keeps well ahead.
        let pictures = Prefetcher(workers: 1, depth: 3, name: "camera") { index in
            index < camera.captures.count ? camera.frame(for: camera.captures[index]).image : nil
        }
        // Filtered frames go into a ring of reused buffers rather than a fresh 3.7 MB array each (page faults
        // and a copy); a buffer comes round again after the encoders' queues (≤ 5 frames) have let it go.
        var ring = Array(repeating: Frame(rgbaWidth: camera.width, height: camera.height), count: 8)
        return try job.run(totalFrames: camera.captures.count) { index in
            guard let picture = pictures.next() else { return nil }
            let capture = camera.captures[index]
            renderer.renderFrame(picture, into: &ring[index % ring.count])
            let filtered = ring[index % ring.count]
            let time = Timestamp(capture.timestamp.value, timescale: capture.timestamp.timescale)
            let rate = Double(microphone.configuration.sampleRate)
            let first = Int64((capture.timestamp.seconds * rate).rounded())
            let last = Int64(((capture.timestamp.seconds + frameSeconds) * rate).rounded())
            let audio = microphone.chunk(startingAt: first, frameCount: Int(last - first)).samples
            return SegmentingJob.Input(frame: filtered, time: time, audio: audio)
        }
    }
}
