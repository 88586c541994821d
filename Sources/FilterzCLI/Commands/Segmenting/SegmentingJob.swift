import FilterKit
import Foundation
import Media
import Packaging

/// The loop `record` and `package` share: feed filtered frames to a `LadderSegmenter`, write
/// filter.json and poster.jpg, show progress, honour Ctrl-C, print the summary.
struct SegmentingJob {
    /// One filtered frame and the audio that plays with it.
    struct Input {
        var frame: Frame
        var time: Timestamp
        var audio: [Float]
    }

    var options: SegmentingOptions
    var sourceWidth: Int
    var sourceHeight: Int
    var frameDuration: Timestamp
    var timescale: Int32
    var audio: LadderSegmenter.AudioFormat?
    var live: Bool
    var context: CommandContext

    /// Which frame becomes the poster: one second in (or the last frame of a shorter input).
    var posterFrameIndex: Int { max(0, Int((1 / frameDuration.seconds).rounded())) }

    /// Runs the job; `next(i)` gives input `i` or nil at the end.
    func run(totalFrames: Int?, next: (Int) throws -> Input?) throws -> Int32 {
        LibavLogging.setQuiet(true)
        let ladder = options.ladder.fitted(toSourceWidth: sourceWidth, height: sourceHeight)
        let folder = options.outputFolder
        do {
            try AtomicFile.makeFolder(folder)
            // A master playlist from an earlier run must not outlive a failed one.
            AtomicFile.remove(folder + "/master.m3u8")
            try AtomicFile.write(options.preset.jsonBytes(), to: folder + "/filter.json")
        } catch {
            throw CLIError.input(error.description)
        }
        let start = Date()
        let configuration = LadderSegmenter.Configuration(
            outputFolder: folder, ladder: ladder, sourceWidth: sourceWidth, sourceHeight: sourceHeight,
            frameDuration: frameDuration, videoTimescale: timescale, segmentDuration: options.segmentTimestamp,
            container: options.container, mode: options.mode, audio: audio,
            captions: RecordingCaptions(presetName: options.preset.name),
            wallClockOrigin: options.mode == .vod ? nil : Int64(start.timeIntervalSince1970 * 1000),
            x264Preset: options.x264Preset)
        let segmenter: LadderSegmenter
        do {
            segmenter = try LadderSegmenter(configuration)
        } catch {
            throw CLIError.failure(error.description)
        }
        StopSignal.install()
        defer { StopSignal.uninstall() }
        var progress = ProgressLine(totalFrames: totalFrames, frameDurationSeconds: frameDuration.seconds)
        var index = 0
        var lastInput: Input?
        var firstTime: Timestamp?
        var wrotePoster = false
        var stopAt: Timestamp?
        let framesPerSegment = configuration.framesPerSegment
        do {
            while let input = try next(index) {
                if let stopAt, input.time >= stopAt { break }
                let origin = firstTime ?? input.time
                firstTime = origin
                if live {
                    // Paced like a camera: a frame is not available before its capture time.
                    let wait = start.addingTimeInterval((input.time - origin).seconds).timeIntervalSinceNow
                    if wait > 0 { Thread.sleep(forTimeInterval: wait) }
                }
                try segmenter.append(input.frame, at: input.time)
                try segmenter.append(audio: input.audio)
                if !wrotePoster && index >= posterFrameIndex {
                    try writePoster(input.frame)
                    wrotePoster = true
                }
                lastInput = input
                index += 1
                progress.update(frames: index, elapsedSeconds: -start.timeIntervalSinceNow, output: context.stderr)
                let signals = StopSignal.received
                if signals >= 2 { break }
                if signals == 1 && stopAt == nil {
                    // Finish the segment in progress: stop at the next segment boundary.
                    let segment = frameDuration * Int64(framesPerSegment)
                    let elapsed = input.time - origin
                    let segmentsDone = Int64((elapsed.seconds / segment.seconds).rounded(.down)) + 1
                    stopAt = origin + segment * segmentsDone
                }
            }
        } catch let error as CLIError {
            segmenter.abandon()
            progress.clear(output: context.stderr)
            throw error
        } catch {
            segmenter.abandon()
            progress.clear(output: context.stderr)
            throw CLIError.failure("\(error)")
        }
        progress.clear(output: context.stderr)
        guard let lastInput else {
            segmenter.abandon()
            throw CLIError.failure("no frames to encode")
        }
        if !wrotePoster { try writePoster(lastInput.frame) }
        let summary: LadderSegmenter.Summary
        do {
            summary = try segmenter.finish(endTime: lastInput.time + frameDuration)
        } catch {
            throw CLIError.failure(error.description)
        }
        SegmentingSummary.print(summary, ladder: ladder, elapsedSeconds: -start.timeIntervalSinceNow, output: context.stdout)
        return ExitCode.success
    }

    private func writePoster(_ frame: Frame) throws {
        do {
            try AtomicFile.write(try PosterEncoder.jpeg(from: frame), to: options.outputFolder + "/poster.jpg")
        } catch {
            throw CLIError.failure("poster.jpg: \(error)")
        }
    }
}
