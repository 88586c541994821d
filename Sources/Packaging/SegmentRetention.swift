/// Which segment files of a live sliding-window presentation may be deleted from disk.
///
/// RFC 8216bis §6.2.2: a segment removed from the playlist must stay available for its own duration plus
/// the duration of the longest playlist that contained it, so a player that loaded the previous playlist
/// can still fetch it. With a window of `w` equal segments: segment `i` leaves the window when segment
/// `i + w` is published (count `i + w + 1`), and is kept while `w + 1` more segments are published (its
/// own length plus a whole window); from count `i + 2w + 2` it may go.
///
///     let retention = SegmentRetention(mode: .slidingWindow(segments: 3))
///     retention.deletableSegments(publishedCount: 10)   // 0..<2: segments 0 and 1
///
/// EVENT and VOD playlists keep every segment, so nothing is ever deletable there.
public struct SegmentRetention: Hashable, Sendable {
    public var mode: PlaylistBuilder.Mode

    public init(mode: PlaylistBuilder.Mode) { self.mode = mode }

    /// Indices of the segments no playlist names any more and whose grace period has passed, once
    /// `publishedCount` segments (0…count−1) have been published.
    public func deletableSegments(publishedCount: Int) -> Range<Int> {
        guard case .slidingWindow(let segments) = mode else { return 0..<0 }
        let window = max(segments, 1)
        return 0..<max(0, publishedCount - 2 * window - 1)
    }
}
