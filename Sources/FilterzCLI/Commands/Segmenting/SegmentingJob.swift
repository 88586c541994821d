import CLIKit
import FilterKit
import Foundation
import Media
import Packaging
import Platform

/// The loop `record` and `package` share: feed filtered frames to a `LadderSegmenter`, write
/// filter.json and poster.jpg, show progress, honour Ctrl-C, print the summary.
///
/// A VOD ladder is written into a hidden sibling of `--out` and swapped in whole once it is complete
/// (`AtomicFolder`): a damaged input, a failure or a kill leaves an earlier package as it was. A live recording
/// writes in place, since players read it while it grows.
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
    /// LL-HLS parts (`record --live --low-latency`), or nil.
    var lowLatency: LowLatencySettings? = nil

    /// Runs the job; `next(i)` gives input `i` or nil at the end.
    func run(totalFrames: Int?, next: (Int) throws -> Input?) throws -> Int32 {
        LibavLogging.setQuiet(true)
        let ladder = options.ladder.fitted(toSourceWidth: sourceWidth, height: sourceHeight)
        var staged: AtomicFolder?
        var committed = false
        defer { if !committed { staged?.discard() } }
        do {
            if live {
                try AtomicFile.makeFolder(options.outputFolder)
                // A master playlist from an earlier run must not pass for this recording's.
                AtomicFile.remove(options.outputFolder + "/master.m3u8")
            } else {
                try PackageFolder.checkReplaceable(options.outputFolder)
                staged = try AtomicFolder.begin(replacing: options.outputFolder)
            }
        } catch let error as CLIError {
            throw error
        } catch {
            throw CLIError.input("\(error)")
        }
        let keys = try options.encryption.map { options throws(CLIError) in
            try KeyOutput(options, outputFolder: self.options.outputFolder, live: live)
        }
        defer { if !committed { keys?.discard() } }
        let folder = staged?.stagingPath ?? options.outputFolder
        do {
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
            x264Preset: options.x264Preset, encryption: keys?.plan, encryptSegment: keys?.encryptor,
            lowLatency: lowLatency)
        let segmenter: LadderSegmenter
        do {
            segmenter = try LadderSegmenter(configuration)
        } catch {
            throw CLIError.failure(error.description)
        }
        StopSignal.install()
        defer { StopSignal.uninstall() }
        var progress = ProgressLine(totalFrames: totalFrames, frameDurationSeconds: frameDuration.seconds)
        var schedule = RecordingSchedule(
            frameDuration: frameDuration, framesPerSegment: configuration.framesPerSegment, live: live,
            framesPerPart: lowLatency.map { max(1, Int(($0.partDuration.seconds / frameDuration.seconds).rounded())) })
        var lastInput: Input?
        do {
            while let input = try next(schedule.framesPlaced), let due = schedule.dueSeconds(of: input.time) {
                var late = 0.0
                if live {
                    // Paced like a camera: a frame is not available before its capture time.
                    let wait = start.addingTimeInterval(due).timeIntervalSinceNow
                    if wait > 0 { Thread.sleep(forTimeInterval: wait) }
                    late = -wait
                }
                let placement = schedule.place(lateBySeconds: late)
                if placement.encodesVideo {
                    try segmenter.append(input.frame, at: input.time)
                } else if placement.isFirstDrop {
                    context.stderr.line(
                        "filterz record: encoding is behind real time; frames are dropped to keep the latency bounded")
                }
                try segmenter.append(audio: input.audio)
                if placement.isPoster { try writePoster(input.frame, into: folder) }
                lastInput = input
                progress.update(
                    frames: schedule.framesPlaced, elapsedSeconds: -start.timeIntervalSinceNow, output: context.stderr)
                if schedule.stopRequested(signals: StopSignal.received, after: input.time) { break }
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
        if !schedule.posterWritten {
            do {
                try writePoster(lastInput.frame, into: folder)
            } catch {
                segmenter.abandon()
                throw error
            }
        }
        var summary: LadderSegmenter.Summary
        do {
            summary = try segmenter.finish(endTime: lastInput.time + frameDuration)
        } catch {
            throw CLIError.failure(error.description)
        }
        do {
            try staged?.commit()
        } catch {
            throw CLIError.failure("cannot put the new ladder in place of \(options.outputFolder): \(error.reason)")
        }
        committed = true
        // Only now that no published ladder uses them.
        keys?.retireReplacedKeys()
        summary.masterPlaylistPath = options.outputFolder + "/master.m3u8"
        SegmentingSummary.print(
            summary, ladder: ladder, elapsedSeconds: -start.timeIntervalSinceNow, output: context.stdout)
        if schedule.framesDropped > 0 {
            let index = schedule.framesPlaced, droppedFrames = schedule.framesDropped
            let kept = Double(index - droppedFrames) / Double(max(index, 1)) / frameDuration.seconds
            context.stderr.line(
                "filterz record: dropped \(droppedFrames) of \(index) frames to keep real time "
                    + "(\(ProgressLine.format(kept, 1)) fps achieved)")
        }
        return ExitCode.success
    }

    private func writePoster(_ frame: Frame, into folder: String) throws {
        do {
            try AtomicFile.write(try PosterEncoder.jpeg(from: frame), to: folder + "/poster.jpg")
        } catch {
            throw CLIError.failure("poster.jpg: \(error)")
        }
    }
}

/// What `--out` may hold for a VOD ladder to replace it whole: nothing, or what a package writes
/// (`master.m3u8`, `poster.jpg`, `filter.json`, `audio/`, `subs/`, rendition folders such as `720p/`, hidden
/// temporary files). Anything else is refused, since the swap would delete it.
enum PackageFolder {
    static func checkReplaceable(_ path: String) throws(CLIError) {
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isFolder) else { return }
        guard isFolder.boolValue else { throw .usage("--out \(path) is a file, not a folder") }
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []
        let foreign = entries.filter { !isPackageEntry($0) }.sorted()
        guard foreign.isEmpty else {
            let names = foreign.prefix(3).joined(separator: ", ") + (foreign.count > 3 ? ", …" : "")
            throw .usage(
                "--out \(path) holds files that are not from a filterz package (\(names)); replacing it would delete "
                    + "them: give a new or empty folder")
        }
    }

    static func isPackageEntry(_ name: String) -> Bool {
        if name.hasPrefix(".") || ["master.m3u8", "poster.jpg", "filter.json", "audio", "subs"].contains(name) {
            return true
        }
        return name.count > 1 && name.hasSuffix("p") && name.dropLast().allSatisfy { $0.isASCII && $0.isNumber }
    }
}
