/// A finished partial segment (LL-HLS part), as a muxer reports it: one file holding a run of whole samples
/// at the start, middle or end of its parent segment.
public struct PartRecord: Hashable, Sendable {
    /// Where the part lives, relative to its media playlist (e.g. `seg_00003.p2.m4s`).
    public var uri: String
    /// Presentation time of its first sample.
    public var startTime: Timestamp
    /// From its first sample to the next part's first sample (or the end of its last sample).
    public var duration: Timestamp
    /// True when it begins with a keyframe (EXT-X-PART INDEPENDENT=YES).
    public var isIndependent: Bool
    /// Size of the file in bytes.
    public var byteSize: Int

    public init(uri: String, startTime: Timestamp, duration: Timestamp, isIndependent: Bool, byteSize: Int) {
        self.uri = uri
        self.startTime = startTime
        self.duration = duration
        self.isIndependent = isIndependent
        self.byteSize = byteSize
    }

    /// The file name of part `part` of segment `segment` (`seg_00003.p2.m4s`), beside `seg_00003.m4s`.
    public static func name(segment: Int, part: Int, extension ext: String) -> String {
        SegmentRecord.fileName(segment, qualifier: ".p\(part)", extension: ext)
    }
}
