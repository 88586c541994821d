import Foundation
import Media
import Packaging

// The value types a `LadderSegmenter` is made from and reports with.
extension LadderSegmenter {
    /// How to segment.
    public struct Configuration: Sendable {
        public var outputFolder: String
        /// The renditions, already fitted to the source (`Ladder.fitted`).
        public var ladder: Ladder
        public var sourceWidth: Int
        public var sourceHeight: Int
        /// Time between frames (1/30 s for 30 fps); FRAME-RATE is its inverse.
        public var frameDuration: Timestamp
        /// Ticks per second of the presentation times given to `append` (e.g. 30, or a file's time base).
        public var videoTimescale: Int32
        /// Intended segment length; rounded to whole frames.
        public var segmentDuration: Timestamp
        public var container: ContainerFormat
        public var mode: PlaylistBuilder.Mode
        /// Microphone audio (sample rate, channels), or nil for none.
        public var audio: AudioFormat?
        /// Subtitle cues to generate, or nil for none.
        public var captions: RecordingCaptions?
        /// Wall-clock milliseconds since 1970 of presentation time zero: adds EXT-X-PROGRAM-DATE-TIME.
        public var wallClockOrigin: Int64?
        /// libx264 speed preset.
        public var x264Preset: String
        /// The speed preset when none is asked for: `superfast` keeps a live 720p ladder in real time on 2 cores.
        public static let defaultX264Preset = "superfast"
        /// The speed presets libx264 accepts, fastest first.
        public static let x264Presets = [
            "ultrafast", "superfast", "veryfast", "faster", "fast", "medium", "slow", "slower", "veryslow",
        ]
        /// Threads per libx264 encoder (0 = its own choice). The renditions already encode in parallel,
        /// one worker thread each, so one thread per encoder avoids oversubscribing the cores.
        public var encoderThreads: Int
        /// Which key encrypts which segment (the EXT-X-KEY tags); with `encryptSegment`, video and audio
        /// segments are encrypted in their writer threads, subtitles stay clear.
        public var encryption: SegmentEncryption?
        public var encryptSegment: SegmentEncryptor?
        /// LL-HLS parts (fMP4 only, live only), or nil for whole segments.
        public var lowLatency: LowLatencySettings?

        public init(
            outputFolder: String, ladder: Ladder, sourceWidth: Int, sourceHeight: Int, frameDuration: Timestamp,
            videoTimescale: Int32, segmentDuration: Timestamp, container: ContainerFormat = .mpegTS,
            mode: PlaylistBuilder.Mode = .vod, audio: AudioFormat? = AudioFormat(), captions: RecordingCaptions? = nil,
            wallClockOrigin: Int64? = nil, x264Preset: String = Configuration.defaultX264Preset,
            encoderThreads: Int = 1,
            encryption: SegmentEncryption? = nil, encryptSegment: SegmentEncryptor? = nil,
            lowLatency: LowLatencySettings? = nil
        ) {
            self.encryption = encryption
            self.encryptSegment = encryptSegment
            self.outputFolder = outputFolder
            self.ladder = ladder
            self.sourceWidth = sourceWidth
            self.sourceHeight = sourceHeight
            self.frameDuration = frameDuration
            self.videoTimescale = videoTimescale
            self.segmentDuration = segmentDuration
            self.container = container
            self.mode = mode
            self.audio = audio
            self.captions = captions
            self.wallClockOrigin = wallClockOrigin
            self.x264Preset = x264Preset
            self.encoderThreads = encoderThreads
            self.lowLatency = lowLatency
        }

        /// Whole frames per segment (at least one).
        public var framesPerSegment: Int {
            max(1, Int((segmentDuration.seconds / frameDuration.seconds).rounded()))
        }
    }

    /// Interleaved float PCM from the microphone.
    public struct AudioFormat: Hashable, Sendable {
        public var sampleRate: Int
        public var channels: Int
        public init(sampleRate: Int = 48_000, channels: Int = 2) {
            self.sampleRate = sampleRate
            self.channels = channels
        }
    }

    /// What was written.
    public struct Summary: Sendable {
        public var segmentCount: Int
        public var duration: Timestamp
        public var masterPlaylistPath: String
        /// Measured peak BANDWIDTH per rendition, highest first.
        public var bandwidths: [Int]
    }
}
