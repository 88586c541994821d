internal import CFFmpeg

/// An owned `AVPacket`: one compressed frame (or audio packet), freed in `deinit`.
///
/// A packet is reused across `receive` calls; `unreference()` drops its payload between uses.
/// Confined to one task (not `Sendable`).
public final class MediaPacket {
    private var packet: UnsafeMutablePointer<AVPacket>?

    /// The owned pointer, valid for the life of this object.
    let pointer: UnsafeMutablePointer<AVPacket>

    public init() throws(FFmpegError) {
        guard let packet = av_packet_alloc() else { throw .allocationFailed("av_packet_alloc") }
        self.packet = packet
        self.pointer = packet
    }

    deinit { av_packet_free(&packet) }

    /// Drops the payload (the packet itself stays allocated for reuse).
    public func unreference() { av_packet_unref(pointer) }

    /// The payload bytes (a copy).
    public var bytes: [UInt8] {
        let size = Int(pointer.pointee.size)
        guard size > 0, let data = pointer.pointee.data else { return [] }
        return Array(UnsafeBufferPointer(start: data, count: size))
    }

    /// Payload size in bytes.
    public var size: Int { Int(pointer.pointee.size) }

    /// True when the packet holds a keyframe (`AV_PKT_FLAG_KEY`).
    public var isKeyframe: Bool { pointer.pointee.flags & AV_PKT_FLAG_KEY != 0 }

    /// The demuxer found the packet incomplete or damaged (an MPEG-TS PES shorter than its declared length,
    /// as at the end of a cut-off file).
    public var isCorrupt: Bool { pointer.pointee.flags & AV_PKT_FLAG_CORRUPT != 0 }

    /// Presentation time in `timeBase` units, nil for "no timestamp".
    public var presentationTime: Int64? {
        let pts = pointer.pointee.pts
        return pts == fz_AV_NOPTS_VALUE() ? nil : pts
    }

    /// Decoding time in `timeBase` units, nil for "no timestamp".
    public var decodingTime: Int64? {
        let dts = pointer.pointee.dts
        return dts == fz_AV_NOPTS_VALUE() ? nil : dts
    }

    /// Duration in time-base units (0 when unknown).
    public var duration: Int64 { pointer.pointee.duration }

    /// Index of the stream this packet belongs to (for demuxed or muxed packets).
    public var streamIndex: Int {
        get { Int(pointer.pointee.stream_index) }
        set { pointer.pointee.stream_index = Int32(newValue) }
    }
}
