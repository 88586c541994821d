internal import CFFmpeg
import Packaging

/// The container of the media segments.
public enum ContainerFormat: String, Sendable, CaseIterable {
    /// MPEG-2 transport stream segments (`.ts`), each starting with PAT/PMT and a keyframe.
    case mpegTS = "ts"
    /// CMAF-style fragmented MP4: one `init.mp4` (EXT-X-MAP) and `.m4s` fragments.
    case fragmentedMP4 = "fmp4"

    /// File extension of a media segment.
    public var segmentExtension: String { self == .mpegTS ? "ts" : "m4s" }
}

/// Muxes one elementary stream into a sequence of segment files' bytes (the hls muxer's one inner
/// context per variant). The caller cuts: `beginSegment()`, `write(_:)`…, `endSegment()`. It only
/// produces bytes and keyframe positions; it never writes playlists (or files).
public final class SegmentMuxer {
    /// What one finished segment holds.
    public struct Segment {
        public var bytes: [UInt8]
        public var keyframes: [KeyframeRange]
    }

    public let container: ContainerFormat
    private let output: OutputFormatContext
    private let encoderTimeBase: AVRational
    private var streamTimeBase = AVRational(num: 1, den: 90_000)
    private let packet: MediaPacket
    private var keyframes: [KeyframeRange] = []
    private var keyframePacketSizes: [Int] = []
    private var isInSegment = false
    /// The parts of the segment in progress already handed out by `endPart()`.
    private var partBytes: [UInt8] = []

    /// A muxer for the stream `encoder` produces (opened, with its parameters final).
    public init(container: ContainerFormat, encoder: CodecContext) throws(FFmpegError) {
        self.container = container
        output = try OutputFormatContext(formatName: container == .mpegTS ? "mpegts" : "mp4")
        encoderTimeBase = encoder.pointer.pointee.time_base
        packet = try MediaPacket()
        _ = try output.addStream(from: encoder)
    }

    /// Writes the container header; returns the init segment (`init.mp4`) for fMP4, empty for MPEG-TS.
    public func start() throws(FFmpegError) -> [UInt8] {
        if container == .fragmentedMP4 {
            // frag_discont without edit lists: tfdt carries the absolute decoding time, so audio and video
            // share the container timeline (otherwise each track is shifted to start at zero).
            // negative_cts_offsets (trun version 1, as CMAF asks): libav moves every decoding time later by the
            // encoder's delay (the first packet's PTS - DTS), so a fragment's tfdt is the presentation time of
            // its keyframe; presentation times stay the encoder's, equal to the TS output's and the audio's.
            try output.setOption(
                "movflags", "frag_custom+empty_moov+default_base_moof+skip_trailer+frag_discont+negative_cts_offsets")
            try output.setOption("use_editlist", "0")
            output.pointer.pointee.avoid_negative_ts = AVFMT_AVOID_NEG_TS_DISABLED
        }
        try output.beginBuffer()
        try output.writeHeader()
        streamTimeBase = output.timeBase(ofStream: 0)
        if container == .fragmentedMP4 { try output.flush() }
        let header = try output.endBuffer()
        return container == .fragmentedMP4 ? header : []
    }

    public func beginSegment() throws(FFmpegError) {
        try output.beginBuffer()
        keyframes = []
        keyframePacketSizes = []
        partBytes = []
        isInSegment = true
        if container == .mpegTS {
            // PAT and PMT again at the start of every segment, so each can be decoded on its own.
            try output.setOption("mpegts_flags", "resend_headers")
        }
    }

    /// Writes one packet (timestamps in the encoder's time base) into the current segment;
    /// `recordedTime` is the packet's presentation time as the playlists count it.
    public func write(_ encoded: EncodedPacket, recordedTime: Timestamp) throws(FFmpegError) {
        packet.unreference()
        try check(av_new_packet(packet.pointer, Int32(encoded.bytes.count)), "av_new_packet")
        defer { packet.unreference() }
        if let data = packet.pointer.pointee.data {
            encoded.bytes.withUnsafeBufferPointer { source in
                if let base = source.baseAddress { data.update(from: base, count: encoded.bytes.count) }
            }
        }
        packet.pointer.pointee.pts = av_rescale_q(encoded.presentationTime, encoderTimeBase, streamTimeBase)
        packet.pointer.pointee.dts = av_rescale_q(encoded.decodingTime, encoderTimeBase, streamTimeBase)
        packet.pointer.pointee.duration = av_rescale_q(encoded.duration, encoderTimeBase, streamTimeBase)
        packet.pointer.pointee.stream_index = 0
        if encoded.isKeyframe { packet.pointer.pointee.flags |= AV_PKT_FLAG_KEY }
        let before = output.bufferPosition
        try output.write(packet)
        if encoded.isKeyframe {
            keyframes.append(
                KeyframeRange(
                    presentationTime: recordedTime, offset: before, length: output.bufferPosition - before))
            keyframePacketSizes.append(encoded.bytes.count)
        }
    }

    /// Flushes the samples written since the last part as one fragment (fMP4: `moof` + `mdat`) and returns
    /// its bytes, an LL-HLS part; the segment stays open and its bytes will be the concatenation of its parts.
    public func endPart() throws(FFmpegError) -> [UInt8] {
        guard isInSegment else { return [] }
        try output.flush()
        let bytes = try output.endBuffer()
        try output.beginBuffer()
        partBytes += bytes
        return bytes
    }

    /// Flushes and returns the segment's bytes with the byte ranges of its keyframes.
    public func endSegment() throws(FFmpegError) -> Segment {
        guard isInSegment else { return Segment(bytes: [], keyframes: []) }
        isInSegment = false
        try output.flush()
        let bytes = partBytes + (try output.endBuffer())
        partBytes = []
        if container == .fragmentedMP4 {
            // Fragments are written at the flush: the first sample of the fragment is the keyframe;
            // its range runs from the start of the file (moof) to the end of that sample in mdat.
            let length = MP4FragmentLayout.endOfFirstSample(in: bytes) ?? bytes.count
            keyframes = keyframes.prefix(1).map {
                KeyframeRange(presentationTime: $0.presentationTime, offset: 0, length: length)
            }
        }
        return Segment(bytes: bytes, keyframes: keyframes)
    }

    /// Writes the trailer (into a discarded buffer): nothing a player needs follows the last segment.
    public func finish() throws(FFmpegError) {
        try output.beginBuffer()
        try output.writeTrailer()
        try output.endBuffer()
    }
}
