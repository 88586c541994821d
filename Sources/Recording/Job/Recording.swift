import FilterKit
import Foundation
import Media
import Packaging
import Platform

/// One recording, from a source to an HLS ladder on disk: pulls filtered frames from a `RecordingSource`, feeds
/// them to a `LadderSegmenter`, writes filter.json and poster.jpg, makes the keys, paces a live recording like a
/// camera, drops late frames and stops on a segment boundary after Ctrl-C (the decisions of `RecordingSchedule`),
/// and tells its caller how it goes. `record` and `package` build one and run it.
///
///     let recording = Recording(settings, source: CameraSource(camera: camera, microphone: microphone))
///     let summary = try recording.run { event in … }   // progress, frames dropped
///
/// A VOD ladder is written into a hidden sibling of the output folder and swapped in whole once it is complete
/// (`AtomicFolder`): a damaged input, a failure or a kill leaves an earlier package as it was. A live recording
/// writes in place, since players read it while it grows.
public struct Recording {
    /// What to record and how.
    public struct Settings: Sendable {
        /// The filter: its values are applied to every frame; filter.json and the subtitles name it.
        public var preset: Preset
        public var outputFolder: String
        /// The renditions wanted (fitted to the source when the recording starts).
        public var ladder: Ladder
        public var segmentDuration: Timestamp
        public var container: ContainerFormat
        /// VOD (swapped in whole at the end), or a live mode (written in place, paced to real time).
        public var mode: PlaylistBuilder.Mode
        public var x264Preset: String
        /// `--encrypt`: where the keys go and how often they change; nil for clear segments.
        public var keys: KeySettings?
        /// LL-HLS parts (live only), or nil.
        public var lowLatency: LowLatencySettings?

        public init(
            preset: Preset, outputFolder: String, ladder: Ladder, segmentDuration: Timestamp,
            container: ContainerFormat, mode: PlaylistBuilder.Mode, x264Preset: String, keys: KeySettings?,
            lowLatency: LowLatencySettings? = nil
        ) {
            self.preset = preset
            self.outputFolder = outputFolder
            self.ladder = ladder
            self.segmentDuration = segmentDuration
            self.container = container
            self.mode = mode
            self.x264Preset = x264Preset
            self.keys = keys
            self.lowLatency = lowLatency
        }

        /// A live recording is paced to real time and written in place.
        public var isLive: Bool { mode != .vod }
    }

    /// What the recording tells its caller while it runs.
    public enum Event: Sendable {
        /// `frames` placed (encoded or dropped) after `elapsedSeconds`.
        case progress(frames: Int, elapsedSeconds: Double)
        /// Encoding fell behind real time and the first frame was dropped (low latency).
        case droppingFrames
    }

    /// What was written.
    public struct Summary: Sendable {
        /// The segmenter's summary (segments, duration, master playlist in the output folder, bandwidths).
        public var ladder: LadderSegmenter.Summary
        /// The renditions as recorded (fitted to the source).
        public var renditions: Ladder
        public var elapsedSeconds: Double
        public var framesPlaced: Int
        public var framesDropped: Int
    }

    public var settings: Settings
    public var source: any RecordingSource

    public init(_ settings: Settings, source: any RecordingSource) {
        self.settings = settings
        self.source = source
    }

    /// Runs the recording to the end of the source (or the stop point after Ctrl-C).
    public func run(report: (Event) -> Void = { _ in }) throws(RecordingError) -> Summary {
        LibavLogging.setQuiet(true)
        // The source starts working ahead while the output is prepared.
        let frames = source.filtered(by: settings.preset.values)
        let format = source.format
        let ladder = settings.ladder.fitted(toSourceWidth: format.width, height: format.height)
        let output = try RecordingOutput.prepare(settings)
        var published = false
        defer { if !published { output.discard() } }
        let start = Date()
        let segmenter: LadderSegmenter
        do {
            segmenter = try LadderSegmenter(configuration(ladder: ladder, output: output, start: start))
        } catch {
            throw .failed(error.description)
        }
        StopSignal.install()
        defer { StopSignal.uninstall() }
        var schedule = RecordingSchedule(
            frameDuration: format.frameDuration, framesPerSegment: segmenter.configuration.framesPerSegment,
            live: settings.isLive,
            framesPerPart: settings.lowLatency.map {
                max(1, Int(($0.partDuration.seconds / format.frameDuration.seconds).rounded()))
            })
        let last: SourceFrame
        do {
            last = try feed(segmenter, from: frames, &schedule, start: start, folder: output.folder, report)
            if !schedule.posterWritten { try Self.writePoster(last.frame, into: output.folder) }
        } catch {
            segmenter.abandon()
            throw error
        }
        var summary: LadderSegmenter.Summary
        do {
            summary = try segmenter.finish(endTime: last.time + format.frameDuration)
        } catch {
            throw .failed(error.description)
        }
        try output.publish()
        published = true
        summary.masterPlaylistPath = settings.outputFolder + "/master.m3u8"
        return Summary(
            ladder: summary, renditions: ladder, elapsedSeconds: -start.timeIntervalSinceNow,
            framesPlaced: schedule.framesPlaced, framesDropped: schedule.framesDropped)
    }

    private func configuration(ladder: Ladder, output: RecordingOutput, start: Date) -> LadderSegmenter.Configuration {
        let format = source.format
        return LadderSegmenter.Configuration(
            outputFolder: output.folder, ladder: ladder, sourceWidth: format.width, sourceHeight: format.height,
            frameDuration: format.frameDuration, videoTimescale: format.timescale,
            segmentDuration: settings.segmentDuration, container: settings.container, mode: settings.mode,
            audio: format.audio, captions: RecordingCaptions(presetName: settings.preset.name),
            wallClockOrigin: settings.isLive ? Int64(start.timeIntervalSince1970 * 1000) : nil,
            x264Preset: settings.x264Preset, encryption: output.keys?.plan, encryptSegment: output.keys?.encryptor,
            lowLatency: settings.lowLatency)
    }

    /// Feeds the source's frames to the segmenter as `schedule` decides: paced like a camera when live, late
    /// frames left out, the poster written, ended at the stop point. Returns the last frame placed.
    private func feed(
        _ segmenter: LadderSegmenter, from frames: () throws -> SourceFrame?, _ schedule: inout RecordingSchedule,
        start: Date, folder: String, _ report: (Event) -> Void
    ) throws(RecordingError) -> SourceFrame {
        var last: SourceFrame?
        do {
            while let input = try frames(), let due = schedule.dueSeconds(of: input.time) {
                var late = 0.0
                if settings.isLive {
                    // Paced like a camera: a frame is not available before its capture time.
                    let wait = start.addingTimeInterval(due).timeIntervalSinceNow
                    if wait > 0 { Thread.sleep(forTimeInterval: wait) }
                    late = -wait
                }
                let placement = schedule.place(lateBySeconds: late)
                if placement.encodesVideo {
                    try segmenter.append(input.frame, at: input.time)
                } else if placement.isFirstDrop {
                    report(.droppingFrames)
                }
                try segmenter.append(audio: input.audio)
                if placement.isPoster { try Self.writePoster(input.frame, into: folder) }
                last = input
                report(.progress(frames: schedule.framesPlaced, elapsedSeconds: -start.timeIntervalSinceNow))
                if schedule.stopRequested(signals: StopSignal.received, after: input.time) { break }
            }
        } catch {
            throw (error as? RecordingError) ?? .failed("\(error)")
        }
        guard let last else { throw .failed("no frames to encode") }
        return last
    }

    private static func writePoster(_ frame: Frame, into folder: String) throws(RecordingError) {
        do {
            try AtomicFile.write(try PosterEncoder.jpeg(from: frame), to: folder + "/poster.jpg")
        } catch {
            throw .failed("poster.jpg: \(error)")
        }
    }
}
