import Playback

/// How a simulated session is set up: the player's buffer, start-up rule, quality rule and viewport.
public struct SessionConfiguration: Sendable {
    /// The rule the quality selector runs (`--abr`).
    public var rule: ABRRuleKind
    /// Buffer cap: the next request waits while buffer + one segment would exceed it (`--buffer`, seconds).
    public var bufferCapSeconds: Double
    /// Playback starts once this much media is buffered (`--startup`, seconds); nil = the first segment.
    public var startupThresholdSeconds: Double?
    /// The player's drawing area at start; nil = no viewport cap.
    public var viewport: Viewport?
    /// How many upcoming segment sizes the selector is told.
    public var lookaheadSegments: Int
    public var selector: SelectorConfiguration
    public var estimator: EstimatorConfiguration
    /// How the player buffers when the rule is `hlsjs` (`bufferCapSeconds` is then not used by the session).
    public var hlsjs = HLSJSPlayerProfile()

    public init(
        rule: ABRRuleKind = .filterz, bufferCapSeconds: Double = 60, startupThresholdSeconds: Double? = nil,
        viewport: Viewport? = nil, lookaheadSegments: Int = 24, selector: SelectorConfiguration = .init(),
        estimator: EstimatorConfiguration = .init()
    ) {
        self.rule = rule
        self.bufferCapSeconds = bufferCapSeconds
        self.startupThresholdSeconds = startupThresholdSeconds
        self.viewport = viewport
        self.lookaheadSegments = lookaheadSegments
        self.selector = selector
        self.estimator = estimator
    }
}
