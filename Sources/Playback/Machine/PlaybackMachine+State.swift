extension PlaybackMachine {
    /// Where the machine is. The cases that hold a `Session` have loaded a media playlist.
    public enum State: Sendable {
        /// Nothing loaded yet.
        case idle
        /// Waiting for the multivariant playlist and the first media playlist.
        case loading(Loading)
        /// The first segments are loading; nothing shown yet.
        case startupBuffering(Session)
        /// The position advances with each tick.
        case playing(Session)
        /// The user paused after start-up; loading goes on up to the buffer limit.
        case paused(Session)
        /// Playback stalled (or was flushed) and waits for the buffer to refill.
        case rebuffering(Session)
        /// The buffer was flushed for a seek; waits for the segment holding the target.
        case seeking(Session)
        /// The last segment has played. Only `load` leaves this state.
        case ended(Session)
        /// Playback cannot go on. Only `load` leaves this state.
        case failed(Failure)

        /// The name of the state, for tests and logs.
        public var phase: Phase {
            switch self {
            case .idle: .idle
            case .loading: .loading
            case .startupBuffering: .startupBuffering
            case .playing: .playing
            case .paused: .paused
            case .rebuffering: .rebuffering
            case .seeking: .seeking
            case .ended: .ended
            case .failed: .failed
            }
        }

        /// The session of every state after the first media playlist.
        public var session: Session? {
            switch self {
            case .startupBuffering(let session), .playing(let session), .paused(let session),
                .rebuffering(let session), .seeking(let session), .ended(let session):
                session
            case .idle, .loading, .failed: nil
            }
        }

        init(_ phase: Phase, _ session: Session) {
            switch phase {
            case .startupBuffering: self = .startupBuffering(session)
            case .playing: self = .playing(session)
            case .paused: self = .paused(session)
            case .rebuffering: self = .rebuffering(session)
            case .seeking: self = .seeking(session)
            case .ended: self = .ended(session)
            case .idle, .loading, .failed: preconditionFailure("Invalid state: \(phase) has no session")
            }
        }
    }

    /// The names of the states.
    public enum Phase: String, Sendable, Hashable, CaseIterable {
        case idle, loading, startupBuffering, playing, paused, rebuffering, seeking, ended, failed
    }

    /// The payload of `loading`: the URL, the ladder once known, and the playlist request in flight.
    public struct Loading: Sendable {
        public var url: String
        public var stream: StreamDescription?
        public var playlist: PlaylistSlot
        /// Wall seconds since `load`.
        public var waitedSeconds: Double = 0
        /// A seek made before the media playlist arrived: playback starts there.
        public var requestedStartSeconds: Double?
    }

    /// The payload of `failed`.
    public struct Failure: Sendable, Hashable {
        public var reason: PlaybackFailure
        /// Where playback was, if it had started.
        public var positionSeconds: Double?
    }

    /// Everything known about a stream once its first media playlist has loaded.
    public struct Session: Sendable {
        /// The URL given to `load`.
        public var url: String
        public var stream: StreamDescription
        /// Media playlists loaded so far, by variant index, all on one media-time axis.
        public var timelines: [Int: MediaTimeline]
        /// The variant the latest segment request came from (or is about to come from).
        public var variantIndex: Int
        /// The playhead on the media-time axis, in seconds.
        public var positionSeconds: Double
        /// Media is buffered from the position up to here.
        public var bufferedUntilSeconds: Double
        /// Variants whose segments are in the buffer (for deciding whether a manual pick must flush).
        public var bufferedVariants: Set<Int> = []
        public var segment: SegmentSlot = .idle
        public var playlist: PlaylistSlot = .idle
        /// After repeated segment failures, the highest variant still used.
        public var failureCapIndex: Int?
        /// Wall seconds of the current start-up, stall or seek wait.
        public var waitedSeconds: Double
        /// The variant of the previous segment request, nil before the first.
        public var lastRequestedVariant: Int?
        /// Why the next switch happens, when it is not the selector's own decision.
        public var pendingSwitchKind: PlaybackMetric.SwitchKind?

        /// Seconds buffered ahead of the position (never negative).
        public var bufferSeconds: Double { max(0, bufferedUntilSeconds - positionSeconds) }

        /// The timeline of the current variant.
        public var timeline: MediaTimeline? { timelines[variantIndex] }
    }

    /// What the segment loader is doing.
    public enum SegmentSlot: Sendable, Hashable {
        case idle
        case loading(SegmentRequest, attempt: Int)
        /// A failed request waits for its retry timer.
        case retryScheduled(timer: RequestID, SegmentRequest, attempt: Int)
        /// A switch waits for the new variant's media playlist.
        case awaitingPlaylist(variantIndex: Int)
    }

    /// What the playlist loader is doing.
    public enum PlaylistSlot: Sendable, Hashable {
        case idle
        case loading(PlaylistRequest, attempt: Int)
        /// A failed request waits for its retry timer.
        case retryScheduled(timer: RequestID, PlaylistRequest, attempt: Int)
        /// A live playlist waits for its reload timer; the request is sent again (with a new id) when it fires.
        case reloadScheduled(timer: RequestID, PlaylistRequest)
        /// The network is down; the request goes out when it is back.
        case waitingForNetwork(PlaylistRequest, attempt: Int)
    }

    /// What the user asked for; kept through every state and every switch.
    public struct Preferences: Sendable, Hashable {
        public var wantsToPlay: Bool
        public var viewport: Viewport?
        public var quality: QualityChoice = .auto
        public var subtitles: SubtitleChoice = .off
        public var audioLanguage: String?
        public var rate: Double = 1

        public init(wantsToPlay: Bool = true, viewport: Viewport? = nil) {
            self.wantsToPlay = wantsToPlay
            self.viewport = viewport
        }
    }
}
