import Playback

/// A live stream as its origin publishes it: the ladder and the size of every segment (a manifest, cycled when
/// the stream runs longer than it), the segment and part durations, the sliding window and the hold-backs its
/// playlists announce. Media time 0 is the start of segment 0; at virtual time 0 the stream has been running
/// for `historySeconds`.
public struct LiveStream: Sendable, Hashable {
    /// The ladder and the segment sizes per level; segment n has the sizes of row n modulo the row count.
    public var manifest: StreamManifest
    /// EXT-X-PART-INF PART-TARGET (each part lasts this, the last of a segment what remains); nil: no parts.
    public var partSeconds: Double?
    /// Segments listed (a sliding window); nil: every segment stays listed (EVENT).
    public var windowSegments: Int?
    /// EXT-X-SERVER-CONTROL HOLD-BACK and PART-HOLD-BACK as the playlists say them; nil when absent.
    public var holdBackSeconds: Double?
    public var partHoldBackSeconds: Double?
    /// Media already published when the session starts (virtual time 0).
    public var historySeconds: Double

    /// A stream as `filterz record --live` publishes it: with parts, HOLD-BACK three target durations and
    /// PART-HOLD-BACK three part targets (docs/LIVE.md); without, no SERVER-CONTROL. The history is the window,
    /// or four target durations more than the hold-back for an EVENT stream.
    public init(manifest: StreamManifest, partSeconds: Double?, windowSegments: Int?) {
        self.manifest = manifest
        self.partSeconds = partSeconds
        self.windowSegments = windowSegments
        let segment = manifest.segmentDurationSeconds
        let target = segment.rounded(.up)
        holdBackSeconds = partSeconds == nil ? nil : 3 * target
        partHoldBackSeconds = partSeconds.map { 3 * $0 }
        historySeconds = Double(windowSegments ?? Int((7 * target / segment).rounded(.up))) * segment
    }

    public var segmentSeconds: Double { manifest.segmentDurationSeconds }
    /// EXT-X-TARGETDURATION: the segment duration rounded up to whole seconds.
    public var targetDurationSeconds: Double { segmentSeconds.rounded(.up) }
    public var levelCount: Int { manifest.levelCount }

    /// Parts per segment (the last may be shorter); 1 without parts.
    public var partsPerSegment: Int {
        guard let partSeconds else { return 1 }
        return max(1, Int((segmentSeconds / partSeconds - 1e-9).rounded(.up)))
    }

    /// Media seconds [start, end) of part `part` of segment `msn` (the whole segment when `part` is nil).
    public func span(msn: Int, part: Int?) -> (start: Double, end: Double) {
        let segmentStart = Double(msn) * segmentSeconds
        guard let part, let partSeconds else { return (segmentStart, segmentStart + segmentSeconds) }
        let start = segmentStart + Double(part) * partSeconds
        return (start, min(start + partSeconds, segmentStart + segmentSeconds))
    }

    /// Bits of segment `msn` at `level`, or of one of its parts (its share of the segment by duration).
    public func bits(msn: Int, part: Int?, level: Int) -> Double {
        let rows = manifest.segmentSizesBits
        let whole = rows[msn % rows.count][level]
        guard part != nil else { return whole }
        let span = span(msn: msn, part: part)
        return whole * (span.end - span.start) / segmentSeconds
    }

    /// What the latency controller reads from this stream's media playlists.
    public var syncPlaylist: LiveSync.Playlist {
        LiveSync.Playlist(
            targetDurationSeconds: targetDurationSeconds, partTargetSeconds: partSeconds,
            holdBackSeconds: holdBackSeconds, partHoldBackSeconds: partHoldBackSeconds)
    }
}
