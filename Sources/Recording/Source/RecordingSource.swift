import FilterKit
import Packaging
import Parallel

/// Where a recording's pictures and sound come from: the simulated camera and microphone (`CameraSource`) and a
/// decoded video file (`VideoFileSource`) today. The recording only pulls frames from it until the end of the
/// stream, so a live network source or a capture device is one more conformance, not a change to the pipeline.
///
///     let source = CameraSource(camera: camera, microphone: microphone)
///     source.format                       // size, frame rate, timescale, audio format, frames expected
///     let next = source.filtered(by: preset.values)
///     while let frame = try next() { … }  // frame.frame: RGBA at the format's size; frame.audio plays with it
///
/// A source is pulled from one thread (it may work ahead on threads of its own).
public protocol RecordingSource: AnyObject {
    /// What the source delivers: known before the first frame, fixed for the whole stream.
    var format: SourceFormat { get }

    /// The next frame (RGBA, upright, at `format`'s size) with the audio that plays with it; nil at the end of the
    /// stream. Throws when the source fails (a damaged file); the recording then fails.
    func next() throws -> SourceFrame?

    /// The frames of `next()` filtered with `values`, pulled the same way. The default filters each frame on the
    /// pulling thread (the renderer's row bands on every core); a source whose frames can be made out of order
    /// (the camera) may make and filter several at once instead.
    func filtered(by values: FilterValues) -> () throws -> SourceFrame?
}

/// What a source delivers.
public struct SourceFormat: Sendable, Equatable {
    public var width: Int
    public var height: Int
    /// Nominal time between frames (1/30 s at 30 fps).
    public var frameDuration: Timestamp
    /// Ticks per second of the frames' presentation times.
    public var timescale: Int32
    /// The audio's sample rate and channels (interleaved float), or nil for none.
    public var audio: LadderSegmenter.AudioFormat?
    /// How many frames the stream holds, when known (for the progress line).
    public var expectedFrames: Int?

    public init(
        width: Int, height: Int, frameDuration: Timestamp, timescale: Int32, audio: LadderSegmenter.AudioFormat?,
        expectedFrames: Int?
    ) {
        self.width = width
        self.height = height
        self.frameDuration = frameDuration
        self.timescale = timescale
        self.audio = audio
        self.expectedFrames = expectedFrames
    }
}

/// One frame of a source and the audio that plays with it.
public struct SourceFrame: Sendable {
    /// RGBA at the source's size.
    public var frame: Frame
    /// Presentation time, exact (the segmenter counts it in the source's timescale).
    public var time: Timestamp
    /// Interleaved float samples (−1…1) in the source's audio format; empty without audio.
    public var audio: [Float]

    public init(frame: Frame, time: Timestamp, audio: [Float]) {
        self.frame = frame
        self.time = time
        self.audio = audio
    }
}

extension RecordingSource {
    public func filtered(by values: FilterValues) -> () throws -> SourceFrame? {
        let renderer = FilterRenderer(values: values, threads: .allCores)
        return { [self] in
            guard var item = try next() else { return nil }
            item.frame = renderer.renderFrame(item.frame)
            return item
        }
    }
}
