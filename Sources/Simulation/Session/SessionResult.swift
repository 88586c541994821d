/// What a simulated viewer saw: the QoE summary, the per-segment log and the viewer-action/stall events.
public struct SessionResult: Sendable {
    public var traceName: String
    public var rule: String
    public var summary: QoESummary
    /// Level of every played segment, in play order.
    public var playedLevels: [Int]
    /// Per-segment log (empty when the run was asked not to keep it).
    public var segments: [SegmentLogEntry]
    /// Viewer actions and stalls, in time order.
    public var events: [SessionEvent]
    /// Buffer level over time, (seconds, seconds of media), for plots.
    public var bufferTimeline: [(time: Double, level: Double)]
    /// When playback first started, seconds.
    public var startupSeconds: Double
    /// The buffer cap of the run, seconds (for plots).
    public var bufferCapSeconds: Double?
    /// Virtual time when the last segment had played, seconds.
    public var endSeconds: Double
    /// Set when the session hit the bound of virtual time before the stream had played: the numbers above
    /// then cover only what played, and the run is an error.
    public var unfinished: SimulationError?
    /// Segment loads the rule abandoned for a lower variant (`hlsjs`'s emergency switch).
    public var abandonedLoads = 0
    /// Why the offline optimum asked for is missing (a case beyond its limits); the rest of the report stands.
    public var offlineOptimumError: SimulationError?
    /// Why the optimum under the viewer's actions is missing (a seek, or a case beyond the limits).
    public var constrainedOptimumError: SimulationError?

    public init(
        traceName: String, rule: String, summary: QoESummary, playedLevels: [Int], segments: [SegmentLogEntry],
        events: [SessionEvent], bufferTimeline: [(time: Double, level: Double)], startupSeconds: Double,
        endSeconds: Double
    ) {
        self.traceName = traceName
        self.rule = rule
        self.summary = summary
        self.playedLevels = playedLevels
        self.segments = segments
        self.events = events
        self.bufferTimeline = bufferTimeline
        self.startupSeconds = startupSeconds
        self.endSeconds = endSeconds
    }
}

/// A viewer action or a stall, with the playback position and play state around it.
public struct SessionEvent: Sendable, Hashable, Codable {
    public enum Kind: String, Sendable, Hashable, Codable { case rotate, select, seek, subtitles, stall }

    /// Virtual time, seconds.
    public var time: Double
    public var kind: Kind
    /// e.g. "landscape", "540p", "auto", "to 10 s", "ko", "1.32 s".
    public var detail: String
    public var positionBeforeSeconds: Double
    public var positionAfterSeconds: Double
    public var playingBefore: Bool
    public var playingAfter: Bool
    /// Stall length, seconds (stalls only).
    public var durationSeconds: Double?

    public init(
        time: Double, kind: Kind, detail: String, positionBeforeSeconds: Double, positionAfterSeconds: Double,
        playingBefore: Bool, playingAfter: Bool, durationSeconds: Double? = nil
    ) {
        self.time = time
        self.kind = kind
        self.detail = detail
        self.positionBeforeSeconds = positionBeforeSeconds
        self.positionAfterSeconds = positionAfterSeconds
        self.playingBefore = playingBefore
        self.playingAfter = playingAfter
        self.durationSeconds = durationSeconds
    }
}
