/// RobustMPC (Yin et al., SIGCOMM 2015; as in Pensieve's `mpc.py`): predicts throughput as the harmonic mean
/// of the last five samples divided by (1 + the largest relative error of recent predictions), enumerates
/// every level sequence over the next `horizon` segments, simulates the buffer for each (latency + size /
/// throughput per download, idle while full) and takes the first level of the sequence with the best
/// QoE_lin (Σ bitrate − penalty · rebuffer − Σ |Δ bitrate|, Mbps).
public struct MPCRule: ABRRule {
    public let name = "mpc"
    public var horizon: Int
    public var rebufferPenaltyPerSecond: Double

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
        var planner = LookaheadPlanner(
            input: input, allowed: allowed, bitsPerSecond: predicted,
            latencySeconds: input.estimator.latencySeconds ?? 0, rebufferPenalty: rebufferPenaltyPerSecond)
        let steps = min(horizon, max(input.upcomingSegmentBytes.count, 1))
        let level = planner.bestFirstLevel(steps: steps)
        return Selection(
            variantIndex: level, reason: "hm \(kbps(harmonic)) kbps / (1+\(format1(error * 100))%)")
    }
}

/// Exhaustive QoE_lin look-ahead over level sequences (depth-first, incremental), shared by MPC and Filterz.
/// Branches that cannot beat the best plan found so far even at the top bitrate with no penalty are cut,
/// which finds the same plan (ties keep the first found) at a fraction of the cost.
struct LookaheadPlanner {
    let allowed: ClosedRange<Int>
    let bitsPerSecond: Double
    let latencySeconds: Double
    let rebufferPenalty: Double
    let segmentSeconds: Double
    let capSeconds: Double
    /// sizes[k * levels + v] in bits.
    let sizes: [Double]
    let levels: Int
    /// Mbps of each level.
    let mbps: [Double]
    let previousLevel: Int?
    let startBuffer: Double
    /// Terminal value: `terminalWeight` per second of buffer short of `terminalTarget` at the plan's end.
    var terminalTarget = 0.0
    var terminalWeight = 0.0
    private var best = -Double.infinity
    private var bestFirst: Int
    private var bestGainPerStep = 0.0

    init(
        input: SelectionInput, allowed: ClosedRange<Int>, bitsPerSecond: Double, latencySeconds: Double,
        rebufferPenalty: Double
    ) {
        self.allowed = allowed
        self.bitsPerSecond = max(bitsPerSecond, 1)
        self.latencySeconds = latencySeconds
        self.rebufferPenalty = rebufferPenalty
        segmentSeconds = input.segmentDurationSeconds
        capSeconds = input.maxBufferSeconds
        levels = input.variants.count
        let ahead = max(input.upcomingSegmentBytes.count, 1)
        var sizes: [Double] = []
        sizes.reserveCapacity(ahead * levels)
        for k in 0..<ahead {
            for v in 0..<levels { sizes.append(Double(input.segmentBytes(ahead: k, variant: v)) * 8) }
        }
        self.sizes = sizes
        mbps = input.variants.map { Double($0.nominalBitsPerSecond) / 1_000_000 }
        previousLevel = input.previousVariantIndex
        startBuffer = input.bufferSeconds
        bestFirst = allowed.lowerBound
    }

    mutating func bestFirstLevel(steps: Int) -> Int {
        bestGainPerStep = mbps[allowed.upperBound]
        // Start the bound just below the plan that holds the previous level: every plan at least as good is
        // still visited in order, so the choice (and its tie-breaking) is unchanged, but far more is cut.
        if let hold = previousLevel, allowed.contains(hold) {
            best = holdValue(level: hold, steps: steps) - 1e-9
        }
        for first in allowed {
            search(depth: 0, steps: steps, level: first, previous: previousLevel, buffer: startBuffer, reward: 0,
                   first: first)
        }
        return bestFirst
    }

    /// QoE of holding `level` for every step (same arithmetic as `search`).
    private func holdValue(level: Int, steps: Int) -> Double {
        var buffer = startBuffer
        var value = 0.0
        var previous = previousLevel
        for depth in 0..<steps {
            if buffer + segmentSeconds > capSeconds { buffer = capSeconds - segmentSeconds }
            let download = latencySeconds + sizes[depth * levels + level] / bitsPerSecond
            let rebuffer = max(download - buffer, 0)
            buffer = max(buffer - download, 0) + segmentSeconds
            value += mbps[level] - rebufferPenalty * rebuffer
            if let previous { value -= abs(mbps[level] - mbps[previous]) }
            previous = level
        }
        if buffer < terminalTarget { value -= terminalWeight * (terminalTarget - buffer) }
        return value
    }

    private mutating func search(
        depth: Int, steps: Int, level: Int, previous: Int?, buffer: Double, reward: Double, first: Int
    ) {
        var buffer = buffer
        if buffer + segmentSeconds > capSeconds { buffer = capSeconds - segmentSeconds }
        let download = latencySeconds + sizes[depth * levels + level] / bitsPerSecond
        let rebuffer = max(download - buffer, 0)
        buffer = max(buffer - download, 0) + segmentSeconds
        var value = reward + mbps[level] - rebufferPenalty * rebuffer
        if let previous { value -= abs(mbps[level] - mbps[previous]) }
        if depth + 1 == steps {
            if buffer < terminalTarget { value -= terminalWeight * (terminalTarget - buffer) }
            if value > best {
                best = value
                bestFirst = first
            }
            return
        }
        // Even the top bitrate with no penalty on every remaining step cannot beat the best: cut.
        if value + Double(steps - depth - 1) * bestGainPerStep <= best { return }
        for next in allowed {
            search(depth: depth + 1, steps: steps, level: next, previous: level, buffer: buffer, reward: value,
                   first: first)
        }
    }
}
