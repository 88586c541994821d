/// The origin of a `LiveStream` in virtual time: what its media playlists list at any moment, when each part
/// and segment comes to exist, and when a blocking reload is answered. Parts and segments appear the moment
/// their media is complete (publication takes no time); every level publishes together.
public struct LiveOrigin: Sendable, Hashable {
    public let stream: LiveStream

    public init(stream: LiveStream) {
        self.stream = stream
    }

    /// The live edge at virtual time `t`, in media seconds: the end of the media captured so far.
    public func liveEdge(at t: Double) -> Double { stream.historySeconds + t }

    /// A media playlist as the origin serves it at one moment.
    public struct Playlist: Sendable, Hashable {
        /// EXT-X-MEDIA-SEQUENCE: the first segment listed.
        public var firstSegment: Int
        /// Segments before this are complete and listed; this one is in progress.
        public var segmentInProgress: Int
        /// Parts of the segment in progress already listed (0 without parts).
        public var partsInProgress: Int
        /// The first segment whose parts are listed (segments ending less than three target durations before the
        /// live edge, as `filterz record` keeps them); `segmentInProgress` without parts.
        public var firstSegmentWithParts: Int
        /// Media seconds where the listed media starts and ends (the end of the last whole part or segment).
        public var startSeconds: Double
        public var endSeconds: Double

        /// The part after the last one listed (the preload hint): what a blocking reload asks for.
        public var nextPart: (msn: Int, part: Int) { (segmentInProgress, partsInProgress) }

        /// True when part `part` of segment `msn` (the whole segment when nil) is listed.
        public func lists(msn: Int, part: Int?) -> Bool {
            guard msn >= firstSegment else { return false }
            guard let part else { return msn < segmentInProgress }
            return msn >= firstSegmentWithParts && (msn < segmentInProgress || part < partsInProgress)
        }
    }

    /// The media playlist at virtual time `t` (every level's looks the same).
    public func playlist(at t: Double) -> Playlist {
        let edge = liveEdge(at: t) + 1e-9
        let segment = stream.segmentSeconds
        let inProgress = Int((edge / segment).rounded(.down))
        var parts = 0
        if let partSeconds = stream.partSeconds {
            parts = min(
                Int(((edge - Double(inProgress) * segment) / partSeconds).rounded(.down)), stream.partsPerSegment)
        }
        let first = stream.windowSegments.map { max(0, inProgress - $0) } ?? 0
        var withParts = inProgress
        if stream.partSeconds != nil {
            let keep = 3 * stream.targetDurationSeconds
            while withParts > first, Double(withParts) * segment > liveEdge(at: t) - keep { withParts -= 1 }
        }
        let end = Double(inProgress) * segment + Double(parts) * (stream.partSeconds ?? 0)
        return Playlist(
            firstSegment: first, segmentInProgress: inProgress, partsInProgress: parts,
            firstSegmentWithParts: withParts,
            startSeconds: Double(first) * segment, endSeconds: min(end, liveEdge(at: t)))
    }

    /// The virtual time at which part `part` of segment `msn` (the whole segment when nil) exists.
    public func existsAt(msn: Int, part: Int?) -> Double {
        stream.span(msn: msn, part: part).end - stream.historySeconds
    }

    /// How long the server holds a blocking reload before answering it anyway: three target durations (RFC
    /// 8216bis §6.2.5.2; `filterz serve` answers 503 then, docs/SERVER.md).
    public var holdSeconds: Double { 3 * stream.targetDurationSeconds }

    /// When a blocking reload for part `part` of segment `msn` (`_HLS_msn`, `_HLS_part`; the whole segment when
    /// `part` is nil) reaching the server at `t` is answered, and whether it timed out.
    public func blockingAnswer(msn: Int, part: Int?, arrivingAt t: Double) -> (at: Double, timedOut: Bool) {
        let ready = existsAt(msn: msn, part: part)
        if ready <= t { return (t, false) }
        if ready <= t + holdSeconds { return (ready, false) }
        return (t + holdSeconds, true)
    }
}
