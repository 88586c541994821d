/// The decisions a recording makes frame by frame, as a value: when each frame is due (a live recording is paced
/// like a camera), which frames are not encoded when encoding falls behind (low latency), which frame becomes the
/// poster, and where a stop request ends the recording. Pure: the caller reads the clock and the signals and
/// passes them in; `Recording` (the Recording module) performs what it decides. Which key encrypts a segment, and
/// where a key period starts, is decided per segment by `SegmentEncryption`.
///
///     var schedule = RecordingSchedule(frameDuration: Timestamp(1, 30), framesPerSegment: 60, live: true,
///                                      framesPerPart: 10)
///     schedule.dueSeconds(of: time)      // nil: the recording ends before this frame; else seconds after the start
///     schedule.place(lateBySeconds: 0.1) // encode its video? write it as the poster?
///     schedule.stopRequested(signals: 1, after: time)  // true: end now
public struct RecordingSchedule: Sendable, Equatable {
    /// What becomes of one frame.
    public struct Placement: Sendable, Equatable {
        /// Its video is encoded (its sound always is).
        public var encodesVideo: Bool
        /// It is written as the poster.
        public var isPoster: Bool
        /// It is the first frame dropped: the moment to tell the user.
        public var isFirstDrop: Bool
    }

    public let frameDuration: Timestamp
    public let framesPerSegment: Int
    public let live: Bool
    /// Frames per LL-HLS part; nil without low latency. Only low latency drops frames that are late.
    public let framesPerPart: Int?

    /// Frames placed so far, and how many of them were dropped.
    public private(set) var framesPlaced = 0
    public private(set) var framesDropped = 0
    /// Whether a frame was written as the poster (if not, the caller writes the last one at the end).
    public private(set) var posterWritten = false
    /// The first frame's time: the recording's origin.
    private var origin: Timestamp?
    /// The first stop request ends the recording here, at the end of the segment in progress.
    public private(set) var stopAt: Timestamp?

    public init(frameDuration: Timestamp, framesPerSegment: Int, live: Bool, framesPerPart: Int? = nil) {
        self.frameDuration = frameDuration
        self.framesPerSegment = max(1, framesPerSegment)
        self.live = live
        self.framesPerPart = framesPerPart.map { max(1, $0) }
    }

    /// A frame a second in (or the last frame of a shorter input) becomes the poster.
    public var posterFrameIndex: Int { max(0, Int((1 / frameDuration.seconds).rounded())) }

    /// More than two frames behind the capture clock, a low-latency recording drops frames.
    public var lateThresholdSeconds: Double { 2 * frameDuration.seconds }

    /// When the frame captured at `time` is due, in seconds after the recording started (0 for the first; a VOD
    /// job does not wait, but the value is the same); nil when a stop request ended the recording before it.
    public mutating func dueSeconds(of time: Timestamp) -> Double? {
        if let stopAt, time >= stopAt { return nil }
        let origin = self.origin ?? time
        self.origin = origin
        return (time - origin).seconds
    }

    /// Places the next frame, handed over `lateBySeconds` after it was due (negative: early; 0 for VOD): a
    /// low-latency recording more than two frames behind keeps only the first frame of each part (parts keep
    /// their lengths, the timestamps of the frames kept stay true). The frame at `posterFrameIndex` is the poster
    /// whether or not its video is encoded.
    public mutating func place(lateBySeconds: Double) -> Placement {
        let index = framesPlaced
        framesPlaced += 1
        let isPoster = !posterWritten && index >= posterFrameIndex
        if isPoster { posterWritten = true }
        let late = live && framesPerPart != nil && lateBySeconds > lateThresholdSeconds
        guard late, let framesPerPart, index % framesPerPart != 0 else {
            return Placement(encodesVideo: true, isPoster: isPoster, isFirstDrop: false)
        }
        framesDropped += 1
        return Placement(encodesVideo: false, isPoster: isPoster, isFirstDrop: framesDropped == 1)
    }

    /// After the frame at `time`: `signals` stop requests so far (Ctrl-C, SIGTERM). The first ends the recording
    /// at the end of the segment in progress (so every segment is whole); a second ends it now (true).
    public mutating func stopRequested(signals: Int, after time: Timestamp) -> Bool {
        if signals >= 2 { return true }
        if signals == 1 && stopAt == nil, let origin {
            let segment = frameDuration * Int64(framesPerSegment)
            let segmentsDone = Int64(((time - origin).seconds / segment.seconds).rounded(.down)) + 1
            stopAt = origin + segment * segmentsDone
        }
        return false
    }
}
