import JSON

/// RobustMPC (Yin et al., SIGCOMM 2015; as in Pensieve's `mpc.py`): predicts throughput as the harmonic mean
/// of the last five samples divided by (1 + the largest relative error of recent predictions), enumerates
/// every level sequence over the next `horizon` segments, simulates the buffer for each (latency + size /
/// throughput per download, idle while full) and takes the first level of the sequence with the best
/// QoE_lin (Σ bitrate − penalty · rebuffer − Σ |Δ bitrate|, Mbps).
public struct MPCRule: ABRRule {
    public let name = "mpc"
    /// The plans use the harmonic mean, not the EWMA estimate.
    public var readsThroughputEstimate: Bool { false }
    public var horizon: Int
    public var rebufferPenaltyPerSecond: Double
    /// The planner's memory, reused from one decision to the next.
    var scratch = LookaheadPlanner.Scratch()

    public init(horizon: Int = 5, rebufferPenaltyPerSecond: Double = 4.3) {
        self.horizon = horizon
        self.rebufferPenaltyPerSecond = rebufferPenaltyPerSecond
    }

    public mutating func choose(_ input: SelectionInput, allowed: ClosedRange<Int>) -> Selection {
        guard let harmonic = input.estimator.harmonicMeanBitsPerSecond else {
            return Selection(variantIndex: allowed.lowerBound, reason: "start: lowest")
        }
        let error = input.estimator.maxRecentRelativeError
        let predicted = harmonic / (1 + error)
        let steps = min(horizon, max(input.upcomingSegmentBytes.count, 1))
        let planner = LookaheadPlanner(
            input: input, allowed: allowed, bitsPerSecond: predicted,
            latencySeconds: input.estimator.latencySeconds ?? 0, rebufferPenalty: rebufferPenaltyPerSecond)
        let level = planner.bestFirstLevel(steps: steps, scratch: &scratch)
        guard input.explains else { return Selection(variantIndex: level, reason: "plan") }
        return Selection(
            variantIndex: level, reason: "hm \(kbps(harmonic)) kbps / (1+\(fixedNumber(error * 100, digits: 1))%)")
    }
}
