/// The segments of one media playlist placed on the player's media-time axis: what the playback machine needs
/// from a media playlist, independent of the HLS model (build one with `init(_ playlist: HLS.MediaPlaylist)`).
///
/// Start times are cumulative segment durations. For a VOD playlist the first segment starts at 0; live
/// reloads and other variants are shifted onto the axis of the timeline already in use (see
/// `MediaTimeline+Alignment.swift`), so a media time means the same picture in every variant.
public struct MediaTimeline: Sendable, Hashable {
    /// The segments in playlist order, with strictly increasing media sequence numbers.
    public var segments: [TimelineSegment]
    /// EXT-X-TARGETDURATION, in seconds.
    public var targetDurationSeconds: Double
    /// True when the playlist has EXT-X-ENDLIST (VOD or a finished event): it will not change any more.
    public var hasEndList: Bool
    /// EXT-X-START TIME-OFFSET in seconds (negative: from the end), if present.
    public var startOffsetSeconds: Double?
    /// EXT-X-SERVER-CONTROL HOLD-BACK in seconds, if present (RFC 8216bis: defaults to three target durations).
    public var holdBackSeconds: Double?

    public init(
        segments: [TimelineSegment], targetDurationSeconds: Double, hasEndList: Bool,
        startOffsetSeconds: Double? = nil, holdBackSeconds: Double? = nil
    ) {
        self.segments = segments
        self.targetDurationSeconds = targetDurationSeconds
        self.hasEndList = hasEndList
        self.startOffsetSeconds = startOffsetSeconds
        self.holdBackSeconds = holdBackSeconds
    }

    /// Builds a timeline from durations alone, numbering segments from `firstMediaSequence` and starting at
    /// `startSeconds`; URIs are `segment<sequence>.ts`. Handy for tests and synthetic streams.
    public init(
        durations: [Double], firstMediaSequence: Int = 0, startSeconds: Double = 0, targetDurationSeconds: Double? = nil,
        hasEndList: Bool = true, sizesBytes: [Int]? = nil, uriPrefix: String = "segment"
    ) {
        var start = startSeconds
        var built: [TimelineSegment] = []
        for (offset, duration) in durations.enumerated() {
            let sequence = firstMediaSequence + offset
            built.append(
                TimelineSegment(
                    mediaSequence: sequence, startSeconds: start, durationSeconds: duration,
                    uri: "\(uriPrefix)\(sequence).ts", sizeBytes: sizesBytes?[offset]))
            start += duration
        }
        self.init(
            segments: built, targetDurationSeconds: targetDurationSeconds ?? (durations.max() ?? 0).rounded(.up),
            hasEndList: hasEndList)
    }

    /// True while the playlist can still change (no EXT-X-ENDLIST): the machine reloads it.
    public var isLive: Bool { !hasEndList }

    /// Media time where the first listed segment starts.
    public var startSeconds: Double { segments.first?.startSeconds ?? 0 }

    /// Media time where the last listed segment ends (the live edge of a live playlist).
    public var endSeconds: Double { segments.last.map { $0.startSeconds + $0.durationSeconds } ?? 0 }

    /// The sum of the segment durations.
    public var durationSeconds: Double { endSeconds - startSeconds }

    /// Index of the segment that holds `seconds`; a time on a boundary (within `tolerance`) belongs to the
    /// segment that starts there. Nil when the time lies outside the listed segments.
    ///
    /// - Complexity: O(log n).
    public func segmentIndex(containing seconds: Double, tolerance: Double = TimelineSegment.boundaryTolerance) -> Int? {
        guard let first = segments.first, seconds >= first.startSeconds - tolerance else { return nil }
        var low = 0
        var high = segments.count - 1
        // The last segment whose start is at or before the time.
        while low < high {
            let middle = (low + high + 1) / 2
            if segments[middle].startSeconds <= seconds + tolerance { low = middle } else { high = middle - 1 }
        }
        return seconds < segments[low].endSeconds - tolerance ? low : nil
    }

    /// Index of the first segment that ends after `seconds` (by more than `tolerance`): the segment to load
    /// next when the buffer ends at `seconds`. Nil when no listed segment reaches further.
    ///
    /// - Complexity: O(log n).
    public func nextSegmentIndex(after seconds: Double, tolerance: Double = TimelineSegment.boundaryTolerance) -> Int? {
        var low = 0
        var high = segments.count
        while low < high {
            let middle = (low + high) / 2
            if segments[middle].endSeconds > seconds + tolerance { high = middle } else { low = middle + 1 }
        }
        return low < segments.count ? low : nil
    }

    /// Index of the segment with this media sequence number, if listed.
    public func segmentIndex(mediaSequence: Int) -> Int? {
        guard let first = segments.first else { return nil }
        let guess = mediaSequence - first.mediaSequence
        if segments.indices.contains(guess), segments[guess].mediaSequence == mediaSequence { return guess }
        return segments.firstIndex { $0.mediaSequence == mediaSequence }
    }

    /// The same timeline moved by `offsetSeconds` on the media-time axis (program date times are unchanged).
    public func shifted(by offsetSeconds: Double) -> MediaTimeline {
        guard offsetSeconds != 0 else { return self }
        var copy = self
        for index in copy.segments.indices { copy.segments[index].startSeconds += offsetSeconds }
        return copy
    }
}

/// One media segment on the media-time axis.
public struct TimelineSegment: Sendable, Hashable {
    /// Boundaries closer than this (one millisecond, far below a frame) are treated as equal.
    public static let boundaryTolerance = 0.001

    /// The Media Sequence Number (EXT-X-MEDIA-SEQUENCE + position).
    public var mediaSequence: Int
    /// The Discontinuity Sequence Number (EXT-X-DISCONTINUITY-SEQUENCE + discontinuities so far).
    public var discontinuitySequence: Int
    /// True when an EXT-X-DISCONTINUITY precedes the segment.
    public var isDiscontinuity: Bool
    /// Where the segment starts on the media-time axis, in seconds.
    public var startSeconds: Double
    /// EXTINF duration, in seconds.
    public var durationSeconds: Double
    /// EXT-X-PROGRAM-DATE-TIME of the first sample (explicit or carried forward), seconds since 1970.
    public var programDateTimeSeconds: Double?
    /// EXT-X-BYTERANGE, resolved to an absolute offset.
    public var byteRange: SegmentByteRange?
    /// The segment URI as written in the playlist.
    public var uri: String
    /// The size in bytes when known (a byte range's length, or supplied by a simulator).
    public var sizeBytes: Int?

    public init(
        mediaSequence: Int, discontinuitySequence: Int = 0, isDiscontinuity: Bool = false, startSeconds: Double,
        durationSeconds: Double, programDateTimeSeconds: Double? = nil, byteRange: SegmentByteRange? = nil,
        uri: String, sizeBytes: Int? = nil
    ) {
        self.mediaSequence = mediaSequence
        self.discontinuitySequence = discontinuitySequence
        self.isDiscontinuity = isDiscontinuity
        self.startSeconds = startSeconds
        self.durationSeconds = durationSeconds
        self.programDateTimeSeconds = programDateTimeSeconds
        self.byteRange = byteRange
        self.uri = uri
        self.sizeBytes = sizeBytes ?? byteRange?.lengthBytes
    }

    /// Where the segment ends on the media-time axis, in seconds.
    public var endSeconds: Double { startSeconds + durationSeconds }
}

/// A byte range inside a resource: `lengthBytes` bytes from `offsetBytes`.
public struct SegmentByteRange: Sendable, Hashable {
    public var offsetBytes: Int
    public var lengthBytes: Int

    public init(offsetBytes: Int, lengthBytes: Int) {
        self.offsetBytes = offsetBytes
        self.lengthBytes = lengthBytes
    }

    /// The HTTP Range header value: `bytes=first-last` (inclusive).
    public var httpRangeHeader: String { "bytes=\(offsetBytes)-\(offsetBytes + lengthBytes - 1)" }
}
