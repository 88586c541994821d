import JSON

/// The Filterz default: RobustMPC's look-ahead with a value on the buffer it leaves behind.
///
/// - Prediction: the harmonic mean of the last five throughput samples divided by (1 + the largest recent
///   relative prediction error), as RobustMPC, but with that error bounded (`maxRelativeError`, 100 %: the
///   prediction is at most halved). RobustMPC's error is relative to the measured sample, so one sample in an
///   outage (or the first one after a jump up) counts for thousands of percent and floors the next five plans;
///   the buffer and the stall term of the plans already guard against over-prediction. Until three errors are
///   known (`unknownErrorSamples`) the error is taken at that bound: RobustMPC starts with no error at all, so
///   its second segment trusts a single sample completely, just when the buffer is thinnest.
/// - Plans: every level sequence over the next five segments, simulated with the real upcoming segment sizes,
///   the request latency, idling at the buffer cap and stalls, scored with QoE_lin
///   (bitrate − 4.3 × rebuffer − |Δ bitrate|, Mbps).
/// - A second, pessimistic scenario: each plan is also played at `pessimisticFactor` (65 %) of the predicted
///   rate, and every second it would stall there costs `pessimisticPenalty` (0.5) more: the plan is robust to a
///   drop of a third inside the window, at a price well under a real stall's 4.3 (in effect, a one-in-nine
///   chance of that drop). It starts once `unknownErrorSamples` errors are known (before that the prediction is
///   already at its largest discount). It keeps the plan from spending the buffer that a 3G dip would need.
/// - Terminal value: a plan that ends with less than `reserveSeconds` of buffer loses `terminalWeight` per
///   missing second. Plain MPC happily spends the buffer its five-segment window does not need, and then
///   stalls in the next dip; the reserve keeps a cushion against outages. The reserve shrinks to the media
///   still to come after the plan, so near the end of a stream the buffer is spent on quality (buffer left
///   at the end is worth nothing).
/// - A level shift up: when the last two throughput samples both exceed the window's harmonic mean by more
///   than `levelShiftFactor` (2×), the link has moved to a new level (a 3G spike is one sample): the prediction
///   starts from those two alone. The harmonic mean of five samples otherwise needs four or five downloads to
///   follow a jump (from 0.85 to 9 Mbit/s on the Sabre FCC traces), all at the old rate's quality. The error
///   discount still applies (the jump's own samples were under-predicted), so the step up stays cautious.
/// - The stream's end is taken from `remainingSegments`, else inferred when the look-ahead sizes stop short.
public struct FilterzRule: ABRRule {
    public let name = "filterz"
    /// The plans use the harmonic mean, not the EWMA estimate.
    public var readsThroughputEstimate: Bool { false }
    public var parameters: FilterzParameters
    /// The planner's memory, reused from one decision to the next.
    var scratch = LookaheadPlanner.Scratch()

    public init(parameters: FilterzParameters = .init()) {
        self.parameters = parameters
    }

    public mutating func choose(_ input: SelectionInput, allowed: ClosedRange<Int>) -> Selection {
        // Read in place: a copy of the estimator would retain its sample arrays.
        guard let windowMean = input.estimator.harmonicMeanBitsPerSecond else {
            return Selection(variantIndex: allowed.lowerBound, reason: "start: lowest")
        }
        let harmonic = levelShiftMean(input.estimator.recentBitsPerSecond, windowMean: windowMean) ?? windowMean
        var error = min(input.estimator.maxRecentRelativeError, parameters.maxRelativeError)
        if input.estimator.recentRelativeErrors.count < parameters.unknownErrorSamples {
            error = parameters.maxRelativeError
        }
        let predicted = max(harmonic / (1 + error), 1)
        let steps = min(parameters.horizon, max(input.upcomingSegmentBytes.count, 1))
        var planner = LookaheadPlanner(
            input: input, allowed: allowed, bitsPerSecond: predicted,
            latencySeconds: input.estimator.latencySeconds ?? 0, rebufferPenalty: parameters.rebufferPenalty)
        if input.estimator.recentRelativeErrors.count >= parameters.unknownErrorSamples {
            planner.pessimisticBitsPerSecond = predicted * parameters.pessimisticFactor
            planner.pessimisticPenalty = parameters.pessimisticPenalty
        }
        let remaining = knownRemaining(input)
        if remaining > steps {
            let after = Double(remaining - steps) * input.segmentDurationSeconds
            planner.terminalTarget = min(
                parameters.reserveSeconds, input.maxBufferSeconds - input.segmentDurationSeconds, after)
            planner.terminalWeight = parameters.terminalWeight
        }
        let level = planner.bestFirstLevel(steps: steps, scratch: &scratch)
        guard input.explains else { return Selection(variantIndex: level, reason: "plan") }
        return Selection(
            variantIndex: level,
            reason:
                "plan \(steps) at \(kbps(predicted)) kbps (hm/(1+\(fixedNumber(error * 100, digits: 1))%)), reserve \(fixedNumber(planner.terminalTarget, digits: 1)) s"
        )
    }

    /// The harmonic mean of the last two samples when both lie more than `levelShiftFactor` above the window's
    /// harmonic mean `windowMean` (nil otherwise): the link has moved up to a new level, not spiked once.
    func levelShiftMean(_ samples: [Double], windowMean: Double) -> Double? {
        guard samples.count >= 3 else { return nil }
        let last = samples[samples.count - 1]
        let before = samples[samples.count - 2]
        guard min(last, before) > parameters.levelShiftFactor * windowMean else { return nil }
        return 2 / (1 / last + 1 / before)
    }

    /// Segments left: given, or inferred when the look-ahead sizes stop short of a full window (the end).
    func knownRemaining(_ input: SelectionInput) -> Int {
        if let remaining = input.remainingSegments { return remaining }
        let known = input.upcomingSegmentBytes.count
        return known > 0 && known < parameters.lookaheadForEnd ? known : Int.max
    }
}

/// Tunables of `FilterzRule`; the defaults are the values the rule is evaluated with on the shared traces.
public struct FilterzParameters: Sendable, Hashable {
    /// Segments planned ahead exhaustively.
    public var horizon: Int
    /// Buffer a plan should leave behind, seconds.
    public var reserveSeconds: Double
    /// QoE cost per second of buffer short of the reserve at the plan's end.
    public var terminalWeight: Double
    /// QoE penalty per second of rebuffering.
    public var rebufferPenalty: Double
    /// When fewer upcoming sizes than this are given (and `remainingSegments` is nil), the stream ends there.
    public var lookaheadForEnd: Int
    /// Largest relative prediction error the throughput is discounted by (RobustMPC: unbounded).
    public var maxRelativeError: Double
    /// Until this many prediction errors are known, assume the largest (`maxRelativeError`) and plan without
    /// the pessimistic scenario.
    public var unknownErrorSamples: Int
    /// The pessimistic scenario's rate, as a fraction of the predicted one.
    public var pessimisticFactor: Double
    /// QoE cost per second of stall in the pessimistic scenario (0: no second scenario).
    public var pessimisticPenalty: Double
    /// When the last two samples both exceed the window's harmonic mean by more than this factor, the prediction
    /// starts from their harmonic mean alone (∞: never).
    public var levelShiftFactor: Double

    public init(
        horizon: Int = 5, reserveSeconds: Double = 20, terminalWeight: Double = 0.4, rebufferPenalty: Double = 4.3,
        lookaheadForEnd: Int = 24, maxRelativeError: Double = 1, unknownErrorSamples: Int = 3,
        pessimisticFactor: Double = 0.65, pessimisticPenalty: Double = 0.5, levelShiftFactor: Double = 2
    ) {
        self.levelShiftFactor = levelShiftFactor
        self.pessimisticFactor = pessimisticFactor
        self.pessimisticPenalty = pessimisticPenalty
        self.maxRelativeError = maxRelativeError
        self.unknownErrorSamples = unknownErrorSamples
        self.horizon = horizon
        self.reserveSeconds = reserveSeconds
        self.terminalWeight = terminalWeight
        self.rebufferPenalty = rebufferPenalty
        self.lookaheadForEnd = lookaheadForEnd
    }
}
