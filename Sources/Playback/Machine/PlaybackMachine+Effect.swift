extension PlaybackMachine {
    /// A command for the runner, to be performed in order. Each load and timer carries a `RequestID`; the runner
    /// answers with an event carrying the same id (each case says which), and sends nothing for a cancelled
    /// load; the machine ignores an answer whose id it no longer waits for.
    public enum Effect: Sendable, Hashable {
        /// Fetch a playlist; answer `playlistLoaded(id, …)` or `playlistLoadFailed(id, statusCode:)`.
        case loadPlaylist(PlaylistRequest)
        /// Fetch a segment (or its byte range); answer `segmentLoaded(id, …)` or `segmentLoadFailed(id, …)`.
        case loadSegment(SegmentRequest)
        /// Abandon a load in flight; send nothing for it (a late answer is ignored anyway).
        case cancelLoad(RequestID)
        /// While the segment load of this id is in flight, send `segmentProgress(id, …)` every `everySeconds`
        /// (the rule watches it and may abandon it); stop when it ends or is cancelled.
        case reportLoadProgress(RequestID, everySeconds: Double)
        /// Reload a live playlist later: send `timerFired(id)` after `afterSeconds`.
        case scheduleReload(TimerRequest)
        /// Retry a failed load later: send `timerFired(id)` after `afterSeconds`.
        case scheduleRetry(TimerRequest)
        /// The phone turned to landscape: show the player full screen.
        case presentFullScreen
        /// The phone turned back to portrait: return to the inline player.
        case exitFullScreen
        /// Something worth logging or counting (the simulator's report is built from these).
        case report(PlaybackMetric)
    }

    /// A playlist to fetch.
    public struct PlaylistRequest: Sendable, Hashable {
        public var id: RequestID
        /// The URI as written (a variant URI is relative to the multivariant playlist's URL, `parentURL`).
        public var url: String
        /// The multivariant playlist this variant came from (nil for the URL given to `load`).
        public var parentURL: String?
        /// The ladder position of the variant, nil for the URL given to `load`.
        public var variantIndex: Int?

        public init(id: RequestID, url: String, parentURL: String? = nil, variantIndex: Int? = nil) {
            self.id = id
            self.url = url
            self.parentURL = parentURL
            self.variantIndex = variantIndex
        }
    }

    /// A segment to fetch.
    public struct SegmentRequest: Sendable, Hashable {
        public var id: RequestID
        public var variantIndex: Int
        public var mediaSequence: Int
        /// The segment URI as written in the media playlist at `playlistURL`.
        public var uri: String
        public var playlistURL: String
        /// Fetch only these bytes (EXT-X-BYTERANGE), or the whole resource when nil.
        public var byteRange: SegmentByteRange?
        /// Where the segment lies on the media-time axis.
        public var startSeconds: Double
        public var durationSeconds: Double

        public init(
            id: RequestID, variantIndex: Int, mediaSequence: Int, uri: String, playlistURL: String,
            byteRange: SegmentByteRange?, startSeconds: Double, durationSeconds: Double
        ) {
            self.id = id
            self.variantIndex = variantIndex
            self.mediaSequence = mediaSequence
            self.uri = uri
            self.playlistURL = playlistURL
            self.byteRange = byteRange
            self.startSeconds = startSeconds
            self.durationSeconds = durationSeconds
        }

        public var endSeconds: Double { startSeconds + durationSeconds }
    }

    /// A timer to start; when it goes off, send `timerFired(id)`.
    public struct TimerRequest: Sendable, Hashable {
        public var id: RequestID
        public var afterSeconds: Double

        public init(id: RequestID, afterSeconds: Double) {
            self.id = id
            self.afterSeconds = afterSeconds
        }
    }
}

/// A fact worth reporting, carried by `PlaybackMachine.Effect.report`. Times are media seconds unless named
/// `…Seconds` of waiting.
public enum PlaybackMetric: Sendable, Hashable {
    /// The first frame can be shown: playback (or the paused first frame) begins at `atSeconds`, after
    /// `startupSeconds` of wall time since `load`.
    case playbackStarted(atSeconds: Double, startupSeconds: Double)
    /// Segments now come from variant `to` (`from` is nil for the first segment).
    case variantSwitched(from: Int?, to: Int, atSeconds: Double, kind: SwitchKind, reason: String)
    /// Playback stopped for want of media.
    case stallStarted(atSeconds: Double, cause: StallCause)
    /// Playback resumed (or the user paused) after `durationSeconds` of stall.
    case stallEnded(atSeconds: Double, durationSeconds: Double)
    /// The media at the seek target is buffered.
    case seekCompleted(atSeconds: Double)
    /// A failed segment load will be retried (`attempt` counts from 1).
    case segmentRetried(variantIndex: Int, mediaSequence: Int, attempt: Int, statusCode: Int?)
    /// A failed playlist load will be retried (`attempt` counts from 1).
    case playlistRetried(url: String, attempt: Int, statusCode: Int?)
    /// The rule abandoned the load of a segment that would not arrive before the buffer ran out (`reason`),
    /// after `bytesLoaded` bytes; a lower variant's segment is loaded instead.
    case segmentAbandoned(variantIndex: Int, mediaSequence: Int, bytesLoaded: Int, reason: String)
    /// Segments of `variantIndex` kept failing: variants above `capIndex` are no longer used.
    case steppedDown(variantIndex: Int, capIndex: Int, statusCode: Int?)
    /// The position had to move without a seek: the live window slid past it, or the media had a gap.
    case positionResynced(fromSeconds: Double, toSeconds: Double)
    /// The last segment of a VOD (or finished live) stream has played.
    case ended(atSeconds: Double)
    /// Playback cannot go on.
    case failed(PlaybackFailure)

    public enum SwitchKind: String, Sendable, Hashable {
        /// The first variant of the session.
        case initial
        /// Automatic: what is buffered stays, the next segment comes from the new variant.
        case seamless
        /// The user's pick: the buffer was flushed and reloaded at the current position.
        case manual
        /// A variant kept failing and the selector stepped down.
        case stepDown
        /// The rule abandoned a load that would not arrive before the buffer ran out, and switched down.
        case emergency
    }

    public enum StallCause: String, Sendable, Hashable {
        /// The buffer ran dry.
        case bufferEmpty
        /// The user picked a quality and the buffer was flushed.
        case qualityFlush
        /// Play was pressed with nothing buffered.
        case resumeWithoutBuffer
    }
}

/// Why playback failed, with what a person needs to look into it.
public enum PlaybackFailure: Error, Sendable, Hashable, CustomStringConvertible {
    /// A playlist could not be loaded after `attempts` tries.
    case playlistUnavailable(url: String, statusCode: Int?, attempts: Int)
    /// Segments of the lowest variant could not be loaded after `attempts` tries.
    case segmentUnavailable(url: String, statusCode: Int?, attempts: Int)
    /// The playlist loaded but cannot be played (no variants, no segments, or the wrong kind).
    case unplayablePlaylist(url: String, reason: String)

    public var description: String {
        switch self {
        case .playlistUnavailable(let url, let status, let attempts):
            "playlist \(url) could not be loaded (\(Self.describe(status)), \(attempts) attempt(s))"
        case .segmentUnavailable(let url, let status, let attempts):
            "segment \(url) could not be loaded (\(Self.describe(status)), \(attempts) attempt(s))"
        case .unplayablePlaylist(let url, let reason):
            "playlist \(url) cannot be played: \(reason)"
        }
    }

    private static func describe(_ status: Int?) -> String { status.map { "HTTP \($0)" } ?? "network error" }
}
