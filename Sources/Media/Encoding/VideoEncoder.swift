internal import CFFmpeg
import Packaging

/// H.264 through libx264, set up for HLS: capped VBR (maxrate = target, VBV buffer = 2 × target) so
/// the advertised BANDWIDTH holds, and keyframes only where the caller forces them (an IDR at every
/// segment boundary; no scene-cut keyframes that would break alignment across renditions).
final class VideoEncoder {
    struct Settings: Sendable {
        var width: Int
        var height: Int
        /// Frames per second as a fraction (e.g. 30/1, 30000/1001).
        var frameRate: (numerator: Int32, denominator: Int32)
        /// Time base of the presentation times given to `encode` (ticks per second = `timescale`).
        var timescale: Int32
        var bitsPerSecond: Int
        /// x264's keyframe interval, in frames: the segment length, so it never adds keyframes of its own.
        var keyframeInterval: Int
        /// True for fMP4 (parameter sets in the init segment); false for MPEG-TS (in band, at each IDR).
        var globalHeader: Bool
        /// libx264 speed preset.
        var preset: String = LadderSegmenter.Configuration.defaultX264Preset
        /// Encoder threads (0 = libx264's choice).
        var threads: Int = 0
        /// libx264's zero-latency tune: no B-frames, no look-ahead, so each frame's packet comes out as soon
        /// as the frame went in (for LL-HLS parts).
        var zeroLatency: Bool = false
    }

    let settings: Settings
    let codec: CodecContext
    private let packet: MediaPacket

    init(_ settings: Settings) throws(FFmpegError) {
        self.settings = settings
        codec = try CodecContext(encoderNamed: "libx264")
        packet = try MediaPacket()
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
    var timeBase: AVRational { codec.pointer.pointee.time_base }

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
    func finish(_ emit: (EncodedPacket) throws -> Void) throws {
        try codec.send(frame: nil)
        try drain(emit)
    }

    /// The `avc1.PPCCLL` string, from the global header (fMP4) or the first keyframe (MPEG-TS).
    func codecString(firstKeyframe: [UInt8]) -> String? {
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
