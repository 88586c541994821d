/// The Filterz default: a long look-ahead planner over a robust throughput prediction.
///
/// - Prediction: the smaller of the dual-EWMA estimate and the harmonic mean of recent samples, divided by
///   (1 + the largest recent relative prediction error) as RobustMPC does; while the buffer is deep, the
///   discount is relaxed (a deep buffer absorbs a bad guess), while it is shallow it is kept in full.
/// - Plans: "level a for the next segment, then level b for every later segment in the horizon" — 36 plans on
///   a six-level ladder, each simulated with the real upcoming segment sizes, request latency, the buffer cap
///   and stalls, and scored with QoE_lin (bitrate − 4.3 × rebuffer − |Δ bitrate|, Mbps).
/// - The horizon reaches to the end of the stream when it is near (buffer left at the end is worth nothing);
///   otherwise a plan must end with at least the buffer it started with (up to a reserve), so it cannot buy
///   quality now by spending the safety margin that later segments need.
public struct FilterzRule: ABRRule {
    public let name = "filterz"
    public var parameters: FilterzParameters

    public init(parameters: FilterzParameters = .init()) {
        self.parameters = parameters
    }

    public mutating func choose(_ input: SelectionInput, allowed: ClosedRange<Int>) -> Selection {
        let estimator = input.estimator
        guard let ewma = estimator.estimateBitsPerSecond, let harmonic = estimator.harmonicMeanBitsPerSecond else {
            return Selection(variantIndex: allowed.lowerBound, reason: "start: lowest")
        }
        let base = parameters.useEWMA ? min(ewma, harmonic) : harmonic
        let error = estimator.maxRecentRelativeError
        let depth = min(max(input.bufferSeconds / max(input.maxBufferSeconds, 1), 0), 1)
        let discount = 1 + error * (1 - parameters.errorRelief * depth)
        let predicted = max(base / discount * parameters.safety, 1)
        let latency = estimator.latencySeconds ?? 0

        // Insufficient-buffer guard: a segment must download within the buffer even at a fraction of the
        // prediction, so one bad estimate cannot stall playback.
        var top = allowed.upperBound
        if parameters.bufferGuard > 0 {
            while top > allowed.lowerBound,
                latency + Double(input.segmentBytes(ahead: 0, variant: top)) * 8 / (predicted * parameters.bufferGuard)
                    > input.bufferSeconds
            {
                top -= 1
            }
        }
        let allowed = allowed.lowerBound...top
        if parameters.exhaustive {
            let remaining = max(knownRemaining(input), 1)
            var planner = LookaheadPlanner(
                input: input, allowed: allowed, bitsPerSecond: predicted, latencySeconds: latency,
                rebufferPenalty: parameters.rebufferPenalty)
            let steps = min(parameters.exhaustiveHorizon, max(input.upcomingSegmentBytes.count, 1))
            if remaining > steps {
                // Buffer is worth keeping only for media still to come after the plan.
                let after = Double(remaining - steps) * input.segmentDurationSeconds
                planner.terminalTarget = min(
                    parameters.reserveSeconds, input.maxBufferSeconds - input.segmentDurationSeconds,
                    after * parameters.tailFraction)
                planner.terminalWeight = parameters.terminalWeight
            }
            let level = planner.bestFirstLevel(steps: steps)
            return Selection(
                variantIndex: level, reason: "plan \(steps) seg at \(kbps(predicted)) kbps (err \(format1(error * 100))%)")
        }
        let remaining = max(knownRemaining(input), 1)
        let reachesEnd = remaining <= parameters.horizon
        let steps = min(remaining, parameters.horizon)
        let reserve = reachesEnd ? 0 : min(input.bufferSeconds, parameters.reserveSeconds)

        let segment = input.segmentDurationSeconds
        let cap = input.maxBufferSeconds
        let mbps = input.variants.map { Double($0.nominalBitsPerSecond) / 1_000_000 }
        let previous = input.previousVariantIndex
        var bestValue = -Double.infinity
        var bestLevel = allowed.lowerBound
        for a in allowed {
            for b in allowed where !parameters.constantPlans || b == a {
                var buffer = input.bufferSeconds
                var value = 0.0
                var last = previous
                for k in 0..<steps {
                    let level = k == 0 ? a : b
                    if buffer + segment > cap { buffer = cap - segment }
                    let bits = Double(input.segmentBytes(ahead: k, variant: level)) * 8
                    let download = latency + bits / predicted
                    let stall = max(download - buffer, 0)
                    buffer = max(buffer - download, 0) + segment
                    value += mbps[level] - parameters.rebufferPenalty * stall
                    if let last { value -= abs(mbps[level] - mbps[last]) }
                    last = level
                }
                if buffer < reserve { value -= parameters.rebufferPenalty * (reserve - buffer) }
                if value > bestValue + 1e-9 {
                    bestValue = value
                    bestLevel = a
                }
            }
        }
        return Selection(
            variantIndex: bestLevel,
            reason: "plan \(steps) seg at \(kbps(predicted)) kbps (err \(format1(error * 100))%)")
    }
}

extension FilterzRule {
    /// Segments left: given, or inferred when the look-ahead sizes stop short of the horizon (the stream's end).
    func knownRemaining(_ input: SelectionInput) -> Int {
        if let remaining = input.remainingSegments { return remaining }
        let known = input.upcomingSegmentBytes.count
        return known > 0 && known < parameters.horizon ? known : Int.max
    }
}

/// Tunables of `FilterzRule`.
public struct FilterzParameters: Sendable, Hashable {
    /// Segments planned ahead.
    public var horizon: Int
    /// Buffer a plan must keep at its end (seconds, at most the current buffer) when it does not reach the end.
    public var reserveSeconds: Double
    /// How much of the error discount a full buffer removes (0…1).
    public var errorRelief: Double
    /// Extra multiplier on the prediction.
    public var safety: Double
    /// QoE penalty per second of rebuffering.
    public var rebufferPenalty: Double
    /// Take the smaller of the EWMA and the harmonic mean (else the harmonic mean alone).
    public var useEWMA: Bool = false
    /// Plans hold one level over the whole horizon (else: one level first, then another).
    public var constantPlans: Bool = true
    public var exhaustive: Bool = true
    public var bufferGuard: Double = 0.5
    public var tailFraction: Double = 0.5
    public var exhaustiveHorizon: Int = 5
    public var terminalWeight: Double = 0.1

    public init(
        horizon: Int = 24, reserveSeconds: Double = 20, errorRelief: Double = 0.5, safety: Double = 1,
        rebufferPenalty: Double = 4.3
    ) {
        self.horizon = horizon
        self.reserveSeconds = reserveSeconds
        self.errorRelief = errorRelief
        self.safety = safety
        self.rebufferPenalty = rebufferPenalty
    }
}
