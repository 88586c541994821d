import HLS

/// A Playlist Delta Update (RFC 8216bis §6.2.5.1): the playlist with the media segments older than the Skip
/// Boundary replaced by `EXT-X-SKIP:SKIPPED-SEGMENTS=n`. A segment is skipped when everything from its end to the
/// end of the playlist lasts at least CAN-SKIP-UNTIL seconds; the tags written before a skipped segment go with
/// it, except EXT-X-DATERANGE, which moves to the first segment kept unless the request was `_HLS_skip=v2` on a
/// playlist that allows skipping date ranges (`RECENTLY-REMOVED-DATERANGES` is then empty: the server keeps no
/// history of removed ranges). The version is raised to what EXT-X-SKIP needs (9, or 10 with date ranges).
public enum DeltaUpdate {
    /// The delta update of `playlist`, or nil when it offers none (no CAN-SKIP-UNTIL, ended) or nothing is old
    /// enough to skip.
    public static func apply(_ skip: DeliveryDirectives.Skip, to playlist: MediaPlaylist) -> MediaPlaylist? {
        guard let until = playlist.serverControl?.canSkipUntil, until > 0, !playlist.endList, playlist.skip == nil
        else { return nil }
        var remaining = playlist.segments.reduce(0) { $0 + $1.duration }
        remaining += (playlist.incompleteSegment?.parts ?? []).reduce(0) { $0 + $1.duration }
        var count = 0
        for segment in playlist.segments {
            remaining -= segment.duration
            guard remaining >= until else { break }
            count += 1
        }
        // The last complete segment is never skipped: a delta update always lists at least one.
        count = min(count, playlist.segments.count - 1)
        guard count > 0 else { return nil }
        let skipsDateRanges = skip == .segmentsAndDateRanges && (playlist.serverControl?.canSkipDateRanges ?? false)
        var delta = playlist
        let carried = skipsDateRanges ? [] : playlist.segments.prefix(count).flatMap(\.dateRanges)
        delta.segments.removeFirst(count)
        if !carried.isEmpty { delta.segments[0].dateRanges = carried + delta.segments[0].dateRanges }
        delta.skip = Skip(skippedSegments: count, recentlyRemovedDateRanges: skipsDateRanges ? [] : nil)
        delta.version = max(playlist.version ?? 1, skipsDateRanges ? 10 : 9)
        return delta
    }
}
