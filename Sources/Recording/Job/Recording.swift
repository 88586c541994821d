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
        let format = source.format
        let out = settings.outputFolder
        let ladder = settings.ladder.fitted(toSourceWidth: format.width, height: format.height)
        var staged: AtomicFolder?
        var committed = false
        defer { if !committed { staged?.discard() } }
        if settings.isLive {
            do {
                try AtomicFile.makeFolder(out)
            } catch {
                throw .outputUnwritable(error.description)
            }
            // A master playlist from an earlier run must not pass for this recording's.
            AtomicFile.remove(out + "/master.m3u8")
        } else {
            try PackageFolder.checkReplaceable(out)
            do {
                staged = try AtomicFolder.begin(replacing: out)
            } catch {
                throw .outputUnwritable(error.description)
            }
        }
        let keys = try settings.keys.map { keys throws(RecordingError) in
            try KeyOutput(keys, outputFolder: out, live: settings.isLive)
        }
        defer { if !committed { keys?.discard() } }
        let folder = staged?.stagingPath ?? out
        do {
            try AtomicFile.write(settings.preset.jsonBytes(), to: folder + "/filter.json")
        } catch {
            throw .outputUnwritable(error.description)
        }
        let start = Date()
        let frameDuration = format.frameDuration
        let configuration = LadderSegmenter.Configuration(
            outputFolder: folder, ladder: ladder, sourceWidth: format.width, sourceHeight: format.height,
            frameDuration: frameDuration, videoTimescale: format.timescale, segmentDuration: settings.segmentDuration,
            container: settings.container, mode: settings.mode, audio: format.audio,
            captions: RecordingCaptions(presetName: settings.preset.name),
            wallClockOrigin: settings.isLive ? Int64(start.timeIntervalSince1970 * 1000) : nil,
            x264Preset: settings.x264Preset, encryption: keys?.plan, encryptSegment: keys?.encryptor,
            lowLatency: settings.lowLatency)
        let segmenter: LadderSegmenter
        do {
            segmenter = try LadderSegmenter(configuration)
        } catch {
            throw .failed(error.description)
        }
        StopSignal.install()
        defer { StopSignal.uninstall() }
        var schedule = RecordingSchedule(
            frameDuration: frameDuration, framesPerSegment: configuration.framesPerSegment, live: settings.isLive,
            framesPerPart: settings.lowLatency.map {
                max(1, Int(($0.partDuration.seconds / frameDuration.seconds).rounded()))
            })
        let next = source.filtered(by: settings.preset.values)
        var lastInput: SourceFrame?
        do {
            while let input = try next(), let due = schedule.dueSeconds(of: input.time) {
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
                lastInput = input
                report(.progress(frames: schedule.framesPlaced, elapsedSeconds: -start.timeIntervalSinceNow))
                if schedule.stopRequested(signals: StopSignal.received, after: input.time) { break }
            }
        } catch {
            segmenter.abandon()
            throw (error as? RecordingError) ?? .failed("\(error)")
        }
        guard let lastInput else {
            segmenter.abandon()
            throw .failed("no frames to encode")
        }
        if !schedule.posterWritten {
            do {
                try Self.writePoster(lastInput.frame, into: folder)
            } catch {
                segmenter.abandon()
                throw error
            }
        }
        var summary: LadderSegmenter.Summary
        do {
            summary = try segmenter.finish(endTime: lastInput.time + frameDuration)
        } catch {
            throw .failed(error.description)
        }
        do {
            try staged?.commit()
        } catch {
            throw .failed("cannot put the new ladder in place of \(out): \(error.reason)")
        }
        committed = true
        // Only now that no published ladder uses them.
        keys?.retireReplacedKeys()
        summary.masterPlaylistPath = out + "/master.m3u8"
        return Summary(
            ladder: summary, renditions: ladder, elapsedSeconds: -start.timeIntervalSinceNow,
            framesPlaced: schedule.framesPlaced, framesDropped: schedule.framesDropped)
    }

    private static func writePoster(_ frame: Frame, into folder: String) throws(RecordingError) {
        do {
            try AtomicFile.write(try PosterEncoder.jpeg(from: frame), to: folder + "/poster.jpg")
        } catch {
            throw .failed("poster.jpg: \(error)")
        }
    }
}
