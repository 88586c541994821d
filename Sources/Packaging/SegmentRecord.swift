/// A finished media segment, as a muxer reports it (shaka-packager's `OnNewSegment`): everything a
/// playlist needs, nothing about how it was made.
public struct SegmentRecord: Hashable, Sendable {
    /// Where the segment lives, relative to its media playlist (e.g. `seg_00003.ts`).
    public var uri: String
    /// Presentation time of the first sample.
    public var startTime: Timestamp
    /// Real duration: the next segment's start minus this one's (or the end of the last sample).
    public var duration: Timestamp
    /// Size of the file in bytes (container overhead included).
    public var byteSize: Int
    /// Byte ranges of the keyframes inside the file, for I-frame (trick-play) playlists.
    public var keyframes: [KeyframeRange]
    /// Wall-clock time of the first sample, in milliseconds since 1970 (UTC), for
    /// `EXT-X-PROGRAM-DATE-TIME`; nil when not known.
    public var programDateTimeMilliseconds: Int64?
    /// Its LL-HLS parts, in order (empty when the recording is not low-latency).
    public var parts: [PartRecord]

    public init(
        uri: String, startTime: Timestamp, duration: Timestamp, byteSize: Int, keyframes: [KeyframeRange] = [],
        programDateTimeMilliseconds: Int64? = nil, parts: [PartRecord] = []
    ) {
        self.uri = uri
        self.startTime = startTime
        self.duration = duration
        self.byteSize = byteSize
        self.keyframes = keyframes
        self.programDateTimeMilliseconds = programDateTimeMilliseconds
        self.parts = parts
    }

    /// The segment's bit rate in bits per second: all bytes over its duration.
    public var bitsPerSecond: Double {
        duration.seconds > 0 ? Double(byteSize) * 8 / duration.seconds : 0
    }
}

/// Where one keyframe sits in a segment file: enough bytes to decode it alone.
public struct KeyframeRange: Hashable, Sendable {
    /// Presentation time of the keyframe.
    public var presentationTime: Timestamp
    /// Offset of its first byte in the segment file.
    public var offset: Int
    /// Number of bytes from `offset` that hold the keyframe (container headers included).
    public var length: Int

    public init(presentationTime: Timestamp, offset: Int, length: Int) {
        self.presentationTime = presentationTime
        self.offset = offset
        self.length = length
    }
}
