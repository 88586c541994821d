/// How long LL-HLS parts stay in a playlist and on disk (RFC 8216bis §4.4.4.9, §6.2.2).
///
/// A segment's EXT-X-PART tags are listed while the segment ends less than three target durations before the
/// live edge; once dropped, its part files are kept three target durations more for players that loaded an
/// earlier playlist, then may be deleted (the whole segment file stays as long as the playlist lists it).
///
///     let retention = PartRetention(targetDuration: 2)
///     retention.listsParts(ofSegmentEndingAt: .seconds(10), edge: .seconds(15))      // true
///     retention.mayDeleteParts(ofSegmentEndingAt: .seconds(2), edge: .seconds(15))   // true
public struct PartRetention: Hashable, Sendable {
    /// EXT-X-TARGETDURATION, seconds.
    public var targetDuration: Int

    public init(targetDuration: Int) { self.targetDuration = targetDuration }

    /// True while the parts of a segment ending at `end` belong in a playlist whose last part ends at `edge`.
    public func listsParts(ofSegmentEndingAt end: Timestamp, edge: Timestamp) -> Bool {
        edge - end < .seconds(Int64(3 * targetDuration))
    }

    /// True once no playlist lists those parts and the grace period (three target durations) has passed.
    public func mayDeleteParts(ofSegmentEndingAt end: Timestamp, edge: Timestamp) -> Bool {
        edge - end >= .seconds(Int64(6 * targetDuration))
    }
}
