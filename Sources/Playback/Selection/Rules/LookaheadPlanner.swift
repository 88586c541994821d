/// The look-ahead of `mpc` and `filterz`: the first level of the plan over the next segments with the best
/// QoE_lin, in both a planned and a pessimistic network scenario, with a terminal value for the buffer left.
///
/// This file is the model: the planner's inputs, one step of a plan (`play`), and `referenceFirstLevel`, the
/// plain definition that visits every level sequence. Everything below it — the search
/// (`LookaheadPlanner+Search.swift`, `+SearchSteps.swift`), its memory (`+Scratch.swift`) and the reserve
/// bound (`+ReserveBound.swift`) — must give the same answer as `referenceFirstLevel`, for every input;
/// `LookaheadPlannerTests` checks that on seeded random cases. The search and its bounds are derived in
/// docs/SIMULATION.md, "The look-ahead search".
struct LookaheadPlanner {
    let allowed: ClosedRange<Int>
    let bitsPerSecond: Double
    let latencySeconds: Double
    let rebufferPenalty: Double
    let segmentSeconds: Double
    let capSeconds: Double
    /// The upcoming sizes in bytes and the ladder, read in place (`bits(depth:level:)`, `mbps(_:)`): a decision
    /// copies nothing.
    let upcomingBytes: [[Int]]
    let variants: [VariantInfo]
    let levels: Int
    let previousLevel: Int?
    let startBuffer: Double
    /// Terminal value: `terminalWeight` per second of buffer short of `terminalTarget` at the plan's end.
    var terminalTarget = 0.0
    var terminalWeight = 0.0
    /// A second, pessimistic scenario: each plan is also played at this rate, and every second it would stall
    /// there costs `pessimisticPenalty` more (0: no second scenario).
    var pessimisticBitsPerSecond = 1.0
    var pessimisticPenalty = 0.0

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
        upcomingBytes = input.upcomingSegmentBytes
        variants = input.variants
        previousLevel = input.previousVariantIndex
        startBuffer = input.bufferSeconds
    }

    /// The pessimistic scenario's rate: the planned rate itself when there is no second scenario, so that the
    /// two buffers are equal and cost nothing to compare.
    var pessimisticRate: Double { pessimisticPenalty > 0 ? max(pessimisticBitsPerSecond, 1) : bitsPerSecond }

    /// The first level of the best plan over `steps` segments: the same answer as `referenceFirstLevel(steps:)`,
    /// found by an exact depth-first search that cuts branches which cannot beat the best plan so far
    /// (`LookaheadPlanner+Search.swift`).
    func bestFirstLevel(steps: Int) -> Int {
        var scratch = Scratch()
        return bestFirstLevel(steps: steps, scratch: &scratch)
    }

    /// The plain definition the search must match: every level sequence in lexicographic order, keeping the first
    /// one with a strictly better value. Exponential; for tests.
    func referenceFirstLevel(steps: Int) -> Int {
        var best = -Double.infinity
        var bestFirst = allowed.lowerBound
        func visit(
            depth: Int, level: Int, previous: Int?, buffer: Double, worse: Double, reward: Double, first: Int
        ) {
            var (buffer, worse, value) = (buffer, worse, reward)
            play(depth: depth, level: level, previous: previous, buffer: &buffer, worse: &worse, value: &value)
            if depth + 1 == steps {
                if buffer < terminalTarget { value -= terminalWeight * (terminalTarget - buffer) }
                if value > best {
                    best = value
                    bestFirst = first
                }
                return
            }
            for next in allowed {
                visit(
                    depth: depth + 1, level: next, previous: level, buffer: buffer, worse: worse, reward: value,
                    first: first)
            }
        }
        for first in allowed {
            visit(
                depth: 0, level: first, previous: previousLevel, buffer: startBuffer, worse: startBuffer, reward: 0,
                first: first)
        }
        return bestFirst
    }

    /// One step of a plan: `level` at `depth` after `previous`, from the buffers of both scenarios (the planned
    /// rate's, `buffer`, and the pessimistic one's, `worse`): idle to fit under the cap, download, stall if the
    /// buffer runs out, add the step's QoE to `value`. `Search.step` is the same arithmetic from its tables.
    func play(depth: Int, level: Int, previous: Int?, buffer: inout Double, worse: inout Double, value: inout Double) {
        if buffer + segmentSeconds > capSeconds { buffer = capSeconds - segmentSeconds }
        if worse + segmentSeconds > capSeconds { worse = capSeconds - segmentSeconds }
        let bits = bits(depth: depth, level: level)
        let download = latencySeconds + bits / bitsPerSecond
        let rebuffer = max(download - buffer, 0)
        buffer = max(buffer - download, 0) + segmentSeconds
        let slow = latencySeconds + bits / pessimisticRate
        let worseRebuffer = max(slow - worse, 0)
        worse = max(worse - slow, 0) + segmentSeconds
        value = value + mbps(level) - rebufferPenalty * rebuffer
        if let previous { value -= abs(mbps(level) - mbps(previous)) }
        value -= pessimisticPenalty * worseRebuffer
    }

    /// Bits of the segment `depth` ahead at `level`: `SelectionInput.segmentBytes(ahead:variant:)` × 8.
    @inline(__always)
    func bits(depth: Int, level: Int) -> Double {
        if depth < upcomingBytes.count {
            let row = upcomingBytes[depth]
            if level < row.count { return Double(row[level]) * 8 }
        }
        return Double(SelectionInput.nominalBytes(of: variants[level], seconds: segmentSeconds)) * 8
    }

    /// The nominal bitrate of `level`, Mbps: what QoE_lin counts.
    @inline(__always)
    func mbps(_ level: Int) -> Double { Self.mbps(of: variants[level]) }

    /// The nominal bitrate of `variant`, Mbps (one expression for `mbps(_:)` and the scratch's ladder, so both
    /// give the same doubles).
    @inline(__always)
    static func mbps(of variant: VariantInfo) -> Double { Double(variant.nominalBitsPerSecond) / 1_000_000 }
}
