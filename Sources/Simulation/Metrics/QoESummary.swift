/// The quality of experience of one session.
///
/// `qoeLin = Σ bitrate_Mbps − 4.3 · rebuffer_s − Σ |Δ bitrate_Mbps|` over the played segments, with the
/// ladder's nominal bitrates (MPC, Pensieve); start-up delay is not rebuffering.
public struct QoESummary: Sendable, Hashable {
    /// Penalty per second of rebuffering (MPC/Pensieve QoE_lin: 4.3, the top Pensieve bitrate in Mbps).
    public static let rebufferPenaltyPerSecond = 4.3

    public var qoeLin: Double
    /// Mean nominal bitrate of the played segments, kbit/s.
    public var averageBitrateKilobitsPerSecond: Double
    public var rebufferSeconds: Double
    public var rebufferEvents: Int
    /// Rebuffering over (played media + rebuffering).
    public var rebufferRatio: Double
    public var startupSeconds: Double
    /// Number of k with level[k] ≠ level[k−1].
    public var switches: Int
    /// Σ |Δ bitrate|, kbit/s.
    public var switchMagnitudeKilobitsPerSecond: Double
    public var playedSegments: Int
    /// Best achievable QoE_lin on the same trace (when computed), free of the viewer's actions.
    public var offlineOptimalQoeLin: Double?
    /// Best achievable QoE_lin on the same trace under the same viewer actions (``ViewerConstraints``): computed
    /// for a session with actions, the one to compare its QoE with.
    public var constrainedOptimalQoeLin: Double?
    /// Seconds behind the live edge while playing (live sessions only).
    public var latency: LatencySummary?

    /// Score as a fraction of the offline optimum (nil when unknown or the optimum is not positive).
    public var fractionOfOptimum: Double? { Self.fraction(qoeLin, of: offlineOptimalQoeLin) }

    /// Score as a fraction of the optimum under the viewer's actions (nil when unknown or not positive).
    public var fractionOfConstrainedOptimum: Double? { Self.fraction(qoeLin, of: constrainedOptimalQoeLin) }

    private static func fraction(_ value: Double, of optimum: Double?) -> Double? {
        guard let optimum, optimum > 0 else { return nil }
        return value / optimum
    }

    /// Computes the summary of a played sequence of levels.
    public init(
        playedLevels: [Int], bitratesKilobitsPerSecond: [Double], segmentDurationSeconds: Double,
        rebufferSeconds: Double, rebufferEvents: Int, startupSeconds: Double
    ) {
        var utility = 0.0
        var change = 0.0
        var switches = 0
        var previous: Int?
        for level in playedLevels {
            let kbps = bitratesKilobitsPerSecond[level]
            utility += kbps
            if let previous, previous != level {
                switches += 1
                change += abs(kbps - bitratesKilobitsPerSecond[previous])
            }
            previous = level
        }
        qoeLin = utility / 1000 - QoESummary.rebufferPenaltyPerSecond * rebufferSeconds - change / 1000
        averageBitrateKilobitsPerSecond = playedLevels.isEmpty ? 0 : utility / Double(playedLevels.count)
        self.rebufferSeconds = rebufferSeconds
        self.rebufferEvents = rebufferEvents
        let played = Double(playedLevels.count) * segmentDurationSeconds
        rebufferRatio = played + rebufferSeconds > 0 ? rebufferSeconds / (played + rebufferSeconds) : 0
        self.startupSeconds = startupSeconds
        self.switches = switches
        switchMagnitudeKilobitsPerSecond = change
        playedSegments = playedLevels.count
    }
}
