import CLIKit
import FilterKit
import Foundation
import Media
import Packaging
import Parallel

/// `filterz package`: a video file → the same filtered HLS ladder `record` makes.
enum PackageCommand {
    static var command: Command {
        Command(
            CommandSpec(
                name: "package",
                abstract: "Filter a video file and package it as a multi-rendition HLS ladder.",
                discussion: """
                    Decodes any video libav can read (rotation metadata honoured, so portrait phone videos stay
                    upright), applies the preset once at the source size, scales to each rendition and encodes.
                    Audio is re-encoded to AAC-LC (a file without audio is fine). The ladder is written beside
                    --out and swapped in whole when complete: bad input is one error line naming the file, exit
                    code 1, and an earlier package in --out stays as it was.
                    """,
                arguments: [ArgumentSpec("input", help: "The video file.")],
                options: SegmentingOptions.specs,
                examples: [
                    "filterz package clip.mp4 --preset warm-film --out out/clip",
                    "filterz package phone.mov --preset noir --segment-duration 2 --format fmp4 --out out/phone",
                ]),
            action: run)
    }

    static func run(_ args: ParsedArguments, _ context: CommandContext) throws -> Int32 {
        let path = try args.positional(0, "input")
        let options = try SegmentingOptions.parse(args, context)
        LibavLogging.setQuiet(true)
        let reader: VideoFileReader
        do {
            reader = try VideoFileReader(path: path)
        } catch {
            throw CLIError.failure(error.description)
        }
        let info = reader.info
        let audio = info.audio.map { LadderSegmenter.AudioFormat(sampleRate: $0.sampleRate, channels: $0.channels) }
        let job = SegmentingJob(
            options: options, sourceWidth: info.width, sourceHeight: info.height, frameDuration: info.frameDuration,
            timescale: info.timescale, audio: audio, live: false, context: context)
        let renderer = FilterRenderer(
            values: options.preset.values, threads: .allCores)
        let totalFrames = info.durationSeconds.map { Int(($0 / info.frameDuration.seconds).rounded()) }
        var audioBacklog: [Float] = []
        // Decoding runs ahead on a thread of its own while this one filters.
        let items = reader.prefetched(depth: 8)
        return try job.run(totalFrames: totalFrames) { _ in
            while true {
                let item: VideoFileReader.Item?
                do { item = try items.next()?.get() } catch { throw CLIError.failure("\(error)") }
                switch item {
                case nil:
                    return nil
                case .audio(let samples)?:
                    audioBacklog += samples
                case .video(let frame, let time)?:
                    defer { audioBacklog = [] }
                    return SegmentingJob.Input(frame: renderer.renderFrame(frame), time: time, audio: audioBacklog)
                }
            }
        }
    }
}
