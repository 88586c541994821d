/// Summary numbers of a media playlist's segments, for `inspect` and for comparing variants.
public struct SegmentStatistics: Hashable, Sendable {
    public var segmentCount: Int
    /// Sum of EXTINF durations, seconds.
    public var totalSeconds: Double
    public var minimumSeconds: Double
    public var maximumSeconds: Double
    /// Number of EXT-X-DISCONTINUITY tags on complete segments.
    public var discontinuityCount: Int
    /// Segments carrying EXT-X-BYTERANGE.
    public var byteRangeCount: Int
    /// Sum of byte-range lengths (segments and EXT-X-MAP byte ranges); nil when no segment has a byte range.
    public var totalBytes: Int?
    /// EXT-X-KEY tags written, and the distinct METHODs among them (in first-use order).
    public var keyCount: Int
    public var keyMethods: [String]
    /// EXT-X-PART tags, including those of the segment still being produced.
    public var partCount: Int
    /// EXT-X-MAP tags written.
    public var mapCount: Int
    public var gapCount: Int

    public var averageSeconds: Double { segmentCount == 0 ? 0 : totalSeconds / Double(segmentCount) }
}

extension MediaPlaylist {
    /// Counts and duration statistics over the complete segments.
    public var statistics: SegmentStatistics {
        var stats = SegmentStatistics(
            segmentCount: segments.count, totalSeconds: 0, minimumSeconds: segments.isEmpty ? 0 : .infinity,
            maximumSeconds: 0, discontinuityCount: 0, byteRangeCount: 0, totalBytes: nil, keyCount: 0,
            keyMethods: [], partCount: incompleteSegment?.parts.count ?? 0, mapCount: 0, gapCount: 0)
        var bytes = 0
        // Fields are read in place (`segments[index].duration`): copying each segment out would retain and
        // release its storage, which costs more than the sums.
        for index in segments.indices {
            let duration = segments[index].duration
            stats.totalSeconds += duration
            stats.minimumSeconds = min(stats.minimumSeconds, duration)
            stats.maximumSeconds = max(stats.maximumSeconds, duration)
            if segments[index].discontinuity { stats.discontinuityCount += 1 }
            if let range = segments[index].byteRange {
                stats.byteRangeCount += 1
                bytes = Self.saturatingSum(bytes, range.length)
            }
            if segments[index].gap { stats.gapCount += 1 }
            guard segments[index].hasRareTags else { continue }
            let segment = segments[index]
            if let map = segment.map {
                stats.mapCount += 1
                if let range = map.byteRange { bytes = Self.saturatingSum(bytes, range.length) }
            }
            for key in segment.keys {
                stats.keyCount += 1
                if !stats.keyMethods.contains(key.method.rawValue) { stats.keyMethods.append(key.method.rawValue) }
            }
            stats.partCount += segment.parts.count
        }
        if stats.byteRangeCount > 0 { stats.totalBytes = bytes }
        return stats
    }

    /// `a + b`, or `Int.max` when that overflows (lengths come from untrusted text).
    private static func saturatingSum(_ a: Int, _ b: Int) -> Int {
        let (sum, overflow) = a.addingReportingOverflow(b)
        return overflow ? Int.max : sum
    }
}
