internal import CFFmpeg
import FilterKit
import Packaging

/// H.264 through libx264, set up for HLS: capped VBR (maxrate = target, VBV buffer = 2 × target) so
/// the advertised BANDWIDTH holds, and keyframes only where the caller forces them (an IDR at every
/// segment boundary; no scene-cut keyframes that would break alignment across renditions).
///
///     let encoder = try VideoEncoder(settings)
///     try encoder.encode(picture, time: ticks, forceKeyframe: true) { packet in try segmenter.handle(packet) }
///     try encoder.finish { packet in … }
///
/// Pictures (FilterKit frames, RGBA or YUV 4:2:0, any size) are scaled to the encoder's size first. Confined to
/// one thread.
public final class VideoEncoder {
    public struct Settings: Sendable {
        public var width: Int
        public var height: Int
        /// Frames per second as a fraction (e.g. 30/1, 30000/1001).
        public var frameRate: (numerator: Int32, denominator: Int32)
        /// Time base of the presentation times given to `encode` (ticks per second = `timescale`).
        public var timescale: Int32
        public var bitsPerSecond: Int
        /// x264's keyframe interval, in frames: the segment length, so it never adds keyframes of its own.
        public var keyframeInterval: Int
        /// True for fMP4 (parameter sets in the init segment); false for MPEG-TS (in band, at each IDR).
        public var globalHeader: Bool
        /// libx264 speed preset.
        public var preset: String
        /// Encoder threads (0 = libx264's choice).
        public var threads: Int
        /// libx264's zero-latency tune: no B-frames, no look-ahead, so each frame's packet comes out as soon
        /// as the frame went in (for LL-HLS parts).
        public var zeroLatency: Bool

        public init(
            width: Int, height: Int, frameRate: (numerator: Int32, denominator: Int32), timescale: Int32,
            bitsPerSecond: Int, keyframeInterval: Int, globalHeader: Bool, preset: String, threads: Int = 0,
            zeroLatency: Bool = false
        ) {
            self.width = width
            self.height = height
            self.frameRate = frameRate
            self.timescale = timescale
            self.bitsPerSecond = bitsPerSecond
            self.keyframeInterval = keyframeInterval
            self.globalHeader = globalHeader
            self.preset = preset
            self.threads = threads
            self.zeroLatency = zeroLatency
        }
    }

    public let settings: Settings
    /// The opened libx264 context (what a `SegmentMuxer` takes its stream parameters from).
    public let codec: CodecContext
    private let packet: MediaPacket
    /// The scaler of the pictures' size and format (made for the first picture) and the one YUV picture it fills.
    private var scaler: Scaler?
    private let scaled: MediaFrame

    public init(_ settings: Settings) throws(FFmpegError) {
        self.settings = settings
        codec = try CodecContext(encoderNamed: "libx264")
        packet = try MediaPacket()
        scaled = try MediaFrame()
        let context = codec.pointer
        context.pointee.width = Int32(settings.width)
        context.pointee.height = Int32(settings.height)
        context.pointee.pix_fmt = AV_PIX_FMT_YUV420P
        context.pointee.time_base = AVRational(num: 1, den: settings.timescale)
        context.pointee.framerate = AVRational(num: settings.frameRate.numerator, den: settings.frameRate.denominator)
        context.pointee.sample_aspect_ratio = AVRational(num: 1, den: 1)
        context.pointee.bit_rate = Int64(settings.bitsPerSecond)
        context.pointee.rc_max_rate = Int64(settings.bitsPerSecond)
        context.pointee.rc_buffer_size = Int32(clamping: settings.bitsPerSecond * 2)
        context.pointee.gop_size = Int32(settings.keyframeInterval)
        context.pointee.keyint_min = Int32(settings.keyframeInterval)
        context.pointee.thread_count = Int32(settings.threads)
        context.pointee.color_primaries = AVCOL_PRI_BT709
        context.pointee.color_trc = AVCOL_TRC_BT709
        context.pointee.colorspace = AVCOL_SPC_BT709
        context.pointee.color_range = AVCOL_RANGE_MPEG
        if settings.globalHeader {
            context.pointee.flags |= Int32(AV_CODEC_FLAG_GLOBAL_HEADER)
        }
        var options = [
            "preset": settings.preset,
            "profile": "high",
            "forced-idr": "1",
            "x264-params":
                "scenecut=0:open-gop=0:keyint=\(settings.keyframeInterval):min-keyint=\(settings.keyframeInterval)",
        ]
        if settings.zeroLatency { options["tune"] = "zerolatency" }
        try codec.open(options: options)
    }

    /// One frame period in the encoder's time base.
    private var frameTicks: Int64 {
        Int64(settings.timescale) * Int64(settings.frameRate.denominator) / Int64(max(settings.frameRate.numerator, 1))
    }

    /// The time base of every timestamp going in and coming out.
    public var timeBase: (numerator: Int32, denominator: Int32) {
        (codec.pointer.pointee.time_base.num, codec.pointer.pointee.time_base.den)
    }

    /// Scales `picture` to the encoder's size (BT.709) and encodes it at `time` (encoder ticks), passing on every
    /// packet that is ready. `forceKeyframe` makes it an IDR (a segment starts here).
    public func encode(
        _ picture: Frame, time: Int64, forceKeyframe: Bool, _ emit: (EncodedPacket) throws -> Void
    ) throws {
        if scaler == nil {
            scaler = try Scaler(
                from: picture.width, picture.height, picture.pixelFormat,
                to: settings.width, settings.height, AV_PIX_FMT_YUV420P)
        }
        // One picture buffer for the whole run: the encoder copies what it keeps, and make-writable only copies
        // if it still holds a reference.
        if scaled.width == 0 {
            try scaled.allocatePicture(width: settings.width, height: settings.height, pixelFormat: AV_PIX_FMT_YUV420P)
        } else {
            try scaled.makeWritable()
        }
        try scaler?.scale(picture, into: scaled)
        scaled.presentationTime = time
        try encode(scaled, forceKeyframe: forceKeyframe, emit)
    }

    /// Encodes one picture (YUV 4:2:0 at the encoder's size) and passes on every packet that is ready.
    /// `forceKeyframe` makes this picture an IDR (a segment starts here).
    func encode(_ frame: MediaFrame, forceKeyframe: Bool, _ emit: (EncodedPacket) throws -> Void) throws {
        frame.pointer.pointee.pict_type = forceKeyframe ? AV_PICTURE_TYPE_I : AV_PICTURE_TYPE_NONE
        while try !codec.send(frame: frame) {
            try drain(emit)
        }
        try drain(emit)
    }

    /// Flushes the encoder: every delayed packet is passed on.
    public func finish(_ emit: (EncodedPacket) throws -> Void) throws {
        try codec.send(frame: nil)
        try drain(emit)
    }

    /// The `avc1.PPCCLL` string, from the global header (fMP4) or the first keyframe (MPEG-TS).
    public func codecString(firstKeyframe: [UInt8]) -> String? {
        CodecString.avc(parameterSets: codec.extradata) ?? CodecString.avc(parameterSets: firstKeyframe)
    }

    private func drain(_ emit: (EncodedPacket) throws -> Void) throws {
        while try codec.receivePacket(into: packet) == .produced {
            defer { packet.unreference() }
            let pts = packet.presentationTime ?? 0
            // libx264 leaves the duration out; every frame lasts one frame period.
            let duration = packet.duration > 0 ? packet.duration : frameTicks
            try emit(
                EncodedPacket(
                    bytes: packet.bytes, presentationTime: pts, decodingTime: packet.decodingTime ?? pts,
                    duration: duration, isKeyframe: packet.isKeyframe))
        }
    }
}
