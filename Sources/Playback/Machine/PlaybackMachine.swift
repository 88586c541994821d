/// The player's logic as a pure reducer: events in, effects out, no clock and no I/O.
///
/// A runner (the simulator, or a real client) owns one machine, sends it every event and performs the effects
/// it returns; time reaches the machine only through `tick(elapsedSeconds:)` and the answers to its requests.
///
/// ```swift
/// var machine = PlaybackMachine(viewport: Viewport(widthPixels: 1170, heightPixels: 658, orientation: .portrait))
/// var effects = machine.handle(.load(url: "https://example.com/master.m3u8"))
/// // effects == [.loadPlaylist(PlaylistRequest(id: #1, url: "https://example.com/master.m3u8"))]
/// ```
///
/// The rules it follows:
/// - the next segment is the one, in the variant the selector picks, that holds the media time where the
///   buffer ends, so an automatic switch keeps the buffer; a variant's playlist is loaded first when unknown;
/// - a manual pick (`qualityRequested(.fixed(i))`) cancels the load in flight, drops the buffer ahead and loads
///   variant i from the current position (a `qualityFlush` stall while playing); `.auto` flushes nothing;
/// - a rotation only records the viewport (and enters or leaves full screen when so configured); the next
///   selection sees the new cap;
/// - a failed segment is retried with exponential backoff up to `segmentRetryLimit` times, then that variant
///   and those above it are capped off; a playlist up to `playlistRetryLimit` times, then playback fails;
/// - a live playlist is reloaded one target duration after a change, half of one otherwise, and the position
///   moves (`positionResynced`) only when the window has slid past the buffer or the media has a gap.
/// docs/PLAYBACK.md gives the states, events and effects in full.
public struct PlaybackMachine: Sendable {
    public let configuration: PlaybackConfiguration
    public internal(set) var state: State = .idle
    /// What the user asked for; survives every state change, switch and rotation.
    public internal(set) var preferences: Preferences
    /// Picks the variant of each segment; holds the rule's own state.
    public internal(set) var selector: QualitySelector
    /// Fed with every finished segment download.
    public internal(set) var estimator: BandwidthEstimator
    public internal(set) var isNetworkAvailable = true
    private var lastRequestNumber = 0

    public init(
        configuration: PlaybackConfiguration = .init(), selector: QualitySelector = QualitySelector(rule: .filterz),
        estimator: BandwidthEstimator = BandwidthEstimator(), viewport: Viewport? = nil
    ) {
        self.configuration = configuration
        self.selector = selector
        self.estimator = estimator
        self.preferences = Preferences(wantsToPlay: configuration.autoplay, viewport: viewport)
    }

    /// The playhead on the media-time axis, once a media playlist has loaded.
    public var positionSeconds: Double? {
        if case .failed(let failure) = state { return failure.positionSeconds }
        return state.session?.positionSeconds
    }

    /// Seconds buffered ahead of the position (0 before start-up).
    public var bufferSeconds: Double { state.session?.bufferSeconds ?? 0 }

    /// Applies one event and returns the effects the runner must perform, in order.
    public mutating func handle(_ event: Event) -> [Effect] {
        var effects: [Effect] = []
        if case .load(let url) = event {
            startLoading(url, &effects)
            return effects
        }
        rememberPreferences(event, &effects)
        if case .networkLost = event { isNetworkAvailable = false }
        if case .networkRestored = event { isNetworkAvailable = true }
        switch state {
        case .idle, .failed:
            break
        case .loading(var loading):
            state = .idle
            state = handleLoading(&loading, event, &effects)
        case .startupBuffering(let session), .playing(let session), .paused(let session), .rebuffering(let session),
            .seeking(let session), .ended(let session):
            var active = Active(phase: state.phase, session: session)
            state = .idle
            handleActive(&active, event, &effects)
            state = conclude(active, &effects)
        }
        return effects
    }

    /// Hands out the next request or timer id.
    mutating func makeID() -> RequestID {
        lastRequestNumber += 1
        return RequestID(lastRequestNumber)
    }

    /// The phase and session being worked on during one event, and the failure it may end in.
    struct Active {
        var phase: Phase
        var session: Session
        var failure: PlaybackFailure?
    }

    mutating func conclude(_ active: Active, _ effects: inout [Effect]) -> State {
        guard let failure = active.failure else { return State(active.phase, active.session) }
        var session = active.session
        cancelLoads(&session, &effects)
        effects.append(.report(.failed(failure)))
        return .failed(Failure(reason: failure, positionSeconds: session.positionSeconds))
    }
}
