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

    /// `seg_00003.ts`: the file name of segment `index`; with a `qualifier`, of a file that belongs to it and lies
    /// beside it (`seg_00003.p2.m4s`, `seg_00003.iframe.ts`).
    public static func fileName(_ index: Int, qualifier: String = "", extension ext: String) -> String {
        let digits = String(index)
        return "seg_" + String(repeating: "0", count: max(0, 5 - digits.count)) + digits + qualifier + "." + ext
    }

    /// Every file this record names: the segment and the I-frame resources of its own (not its LL-HLS parts,
    /// which leave the disk on a schedule of their own).
    public var fileURIs: [String] { [uri] + keyframes.compactMap(\.resourceURI) }

    /// The segment's bit rate in bits per second: all bytes over its duration.
    public var bitsPerSecond: Double {
        duration.seconds > 0 ? Double(byteSize) * 8 / duration.seconds : 0
    }
}

/// Where one keyframe's bytes are: enough to decode it alone, either a byte range of the segment file or, for
/// an encrypted segment, a resource of its own (a CBC ciphertext cannot be decrypted from the middle, so an
/// encrypted segment's keyframe is written beside it, encrypted whole with the segment's key and IV).
public struct KeyframeRange: Hashable, Sendable {
    /// Presentation time of the keyframe.
    public var presentationTime: Timestamp
    /// Offset of its first byte in the segment file (0 in a resource of its own).
    public var offset: Int
    /// Number of bytes from `offset` that hold the keyframe (container headers included); the size of the whole
    /// resource when it has one of its own.
    public var length: Int
    /// The keyframe's own resource, relative to the media playlist like the segment (`seg_00003.iframe.ts`), or
    /// nil when it is a byte range of the segment file.
    public var resourceURI: String?

    public init(presentationTime: Timestamp, offset: Int, length: Int, resourceURI: String? = nil) {
        self.presentationTime = presentationTime
        self.offset = offset
        self.length = length
        self.resourceURI = resourceURI
    }

    /// `seg_00003.iframe.ts`, beside `seg_00003.ts`: the file name of keyframe `keyframe` (0 for the first) of
    /// segment `segment` when it is a resource of its own (`seg_00003.iframe1.ts` for a second one).
    public static func resourceName(segment: Int, keyframe: Int, extension ext: String) -> String {
        SegmentRecord.fileName(segment, qualifier: ".iframe" + (keyframe == 0 ? "" : String(keyframe)), extension: ext)
    }
}
