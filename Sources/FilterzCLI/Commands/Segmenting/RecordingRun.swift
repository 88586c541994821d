import CLIKit
import JSON
import Recording

/// Runs a recording for `record` and `package`: the progress line and the drop warning on stderr while it
/// runs, its errors as the command's (exit 2 when `--out` cannot take it, else 1), the summary on stdout.
enum RecordingRun {
    static func run(_ recording: Recording, _ context: CommandContext) throws(CLIError) -> Int32 {
        let format = recording.source.format
        var progress = ProgressLine(
            totalFrames: format.expectedFrames, frameDurationSeconds: format.frameDuration.seconds)
        let summary: Recording.Summary
        do {
            summary = try recording.run { event in
                switch event {
                case .progress(let frames, let elapsedSeconds):
                    progress.update(frames: frames, elapsedSeconds: elapsedSeconds, output: context.stderr)
                case .droppingFrames:
                    context.stderr.line(
                        "filterz record: encoding is behind real time; frames are dropped to keep the latency bounded")
                }
            }
        } catch {
            progress.clear(output: context.stderr)
            switch error {
            case .outputNotReplaceable(let message): throw .usage(message)
            case .outputUnwritable(let message): throw .input(message)
            case .failed(let message): throw .failure(message)
            }
        }
        progress.clear(output: context.stderr)
        printSummary(summary, output: context.stdout)
        if summary.framesDropped > 0 {
            let placed = summary.framesPlaced, dropped = summary.framesDropped
            let kept = Double(placed - dropped) / Double(max(placed, 1)) / format.frameDuration.seconds
            context.stderr.line(
                "filterz record: dropped \(dropped) of \(placed) frames to keep real time "
                    + "(\(fixedNumber(kept, digits: 1)) fps achieved)")
        }
        return ExitCode.success
    }

    /// The closing summary: what was written, how fast, and each rendition's measured BANDWIDTH.
    static func printSummary(_ summary: Recording.Summary, output: TextOutput) {
        let ladder = summary.ladder
        let seconds = ladder.duration.seconds
        let elapsedSeconds = summary.elapsedSeconds
        let speed = elapsedSeconds > 0 ? seconds / elapsedSeconds : 0
        output.line(
            "wrote \(ladder.masterPlaylistPath): \(summary.renditions.renditions.count) renditions, "
                + "\(ladder.segmentCount) segments, "
                + "\(fixedNumber(seconds, digits: 2)) s of video in \(fixedNumber(elapsedSeconds, digits: 2)) s "
                + "(\(fixedNumber(speed, digits: 2))× real time)")
        for (rung, bandwidth) in zip(summary.renditions.renditions, ladder.bandwidths) {
            output.line("  \(rung.width)x\(rung.height)  target \(rung.bitsPerSecond / 1000)k  BANDWIDTH \(bandwidth)")
        }
    }
}
