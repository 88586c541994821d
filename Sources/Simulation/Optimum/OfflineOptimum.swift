/// The best achievable QoE_lin on a trace with the whole future known: a forward dynamic program over the
/// same model as `SessionSimulator` (segment 0 at the lowest level, or at `firstLevel` for a player that starts
/// elsewhere — hls.js at the first variant listed —, idle while full, stalls).
///
/// States before each request are (time, buffer, previous level). Paths are bucketed by (previous level,
/// request time on a grid, default 100 ms) and each bucket keeps the best path reaching it, with its exact time
/// and buffer; so the value found is the QoE of a real level sequence (`levels`), never above what can be
/// achieved, and it approaches the true optimum as the grid shrinks. (Along paths without stalls the buffer is
/// fixed by the time — buffer + time = start-up + k × segment + rebuffering — so one grid axis suffices.)
///
/// With `constraints` (a session's viewer actions, ``ViewerConstraints``) each request may only use the levels
/// the viewer left the player at its time: a manual pick fixes the level until Auto, the viewport in effect caps
/// Auto. That is the optimum to compare a session with actions against; without them the optimum may ignore what
/// the viewer asked for.
///
/// Memory and time are bounded by `SimulationLimits`: the states kept over the stream, the transitions of one
/// segment, the work in all, and paths longer than the session bound are dropped. A case beyond them throws
/// `SimulationError.beyondOptimumLimits` saying which, instead of allocating or running without end.
public struct OfflineOptimum: Sendable {
    public var qoeLin: Double
    /// The level of every segment on the best path.
    public var levels: [Int]
    /// Number of states explored (for reports and tuning the grid).
    public var stateCount: Int

    /// The bounds of one computation (`SimulationLimits` by default; tests use small ones).
    public struct Limits: Sendable {
        public var states = SimulationLimits.maximumOptimumStates
        public var transitionsPerSegment = SimulationLimits.maximumOptimumTransitionsPerSegment
        public var work = SimulationLimits.maximumOptimumWork
        public init() {}
    }

    public static func compute(
        manifest: StreamManifest, trace: NetworkTrace, bufferCapSeconds: Double,
        startupThresholdSeconds: Double? = nil, highestLevel: Int? = nil, constraints: ViewerConstraints? = nil,
        firstLevel: Int = 0, gridMilliseconds: Double = 100, limits: Limits = Limits()
    ) throws(SimulationError) -> OfflineOptimum {
        let walker = TraceWalker(trace: trace)
        let segment = manifest.segmentDurationMilliseconds
        let cap = max(bufferCapSeconds * 1000, segment)
        let startup = min(max((startupThresholdSeconds ?? 0) * 1000, segment), cap)
        let top = min(highestLevel ?? manifest.levelCount - 1, manifest.levelCount - 1)
        let mbps = manifest.bitratesKilobitsPerSecond.map { $0 / 1000 }
        let penalty = QoESummary.rebufferPenaltyPerSecond / 1000  // per millisecond
        guard gridMilliseconds >= 1, gridMilliseconds <= 10_000 else {
            throw .outOfRange(what: "offline optimum", field: "grid", value: gridMilliseconds, allowed: "1…10000 ms")
        }
        let grid = gridMilliseconds
        let levels = top + 1
        let horizon = SimulationLimits.maximumSessionSeconds * 1000
        var work = 0

        // Stage 1 after the forced first segment.
        let start = min(max(firstLevel, 0), top)
        let first = walker.downloadMilliseconds(at: 0, bits: manifest.segmentSizesBits[0][start], crossings: &work)
        guard first <= horizon else { throw Self.tooLong }
        var times = [first]
        var buffers = [segment]
        var values = [mbps[start]]
        var previous = [start]
        var parents: [[Int32]] = [[-1]]
        var choices: [[UInt8]] = [[UInt8(start)]]
        var explored = 1

        // Scratch space for one stage's transitions, reused.
        var candidateTimes: [Double] = []
        var candidateBuffers: [Double] = []
        var candidateValues: [Double] = []
        var candidateParents: [Int32] = []
        var candidateLevels: [UInt8] = []
        var candidateKeys: [Int] = []
        var buckets: [Int32] = []
        var sparseBuckets: [Int: Int32] = [:]

        for k in 1..<manifest.segmentCount {
            let transitions = times.count * levels
            guard transitions <= limits.transitionsPerSegment else {
                throw .beyondOptimumLimits(
                    what:
                        "segment \(k + 1) needs \(transitions) transitions, more than \(limits.transitionsPerSegment); "
                        + "try a coarser --grid, or --no-optimum")
            }
            work += transitions
            guard work <= limits.work else { throw Self.tooMuchWork(limits.work, k, manifest.segmentCount) }
            let playing = Double(k) * segment >= startup
            let sizes = manifest.segmentSizesBits[k]
            candidateTimes.removeAll(keepingCapacity: true)
            candidateBuffers.removeAll(keepingCapacity: true)
            candidateValues.removeAll(keepingCapacity: true)
            candidateParents.removeAll(keepingCapacity: true)
            candidateLevels.removeAll(keepingCapacity: true)
            candidateKeys.removeAll(keepingCapacity: true)
            var lowKey = Int.max
            var highKey = Int.min
            for s in 0..<times.count {
                var t = times[s]
                var b = buffers[s]
                if playing {
                    let full = b + segment - cap
                    if full > 0 {
                        t += full
                        b -= full
                    }
                }
                let from = mbps[previous[s]]
                for level in 0...top {
                    let d = walker.downloadMilliseconds(at: t, bits: sizes[level], crossings: &work)
                    if let constraints {
                        // It plays once the buffer ahead of it has (or, before start-up, once it has arrived).
                        let plays = t + (playing ? max(b, d) : d)
                        let allowed = constraints.levels(requestedAt: t, playingFrom: plays).clamped(to: 0...top)
                        if !allowed.contains(level) { continue }
                    }
                    if work > limits.work { throw Self.tooMuchWork(limits.work, k, manifest.segmentCount) }
                    var stall = 0.0
                    var nb = b
                    if playing {
                        stall = max(d - b, 0)
                        nb = max(b - d, 0)
                    }
                    nb += segment
                    let nt = t + d
                    if nt > horizon { continue }  // longer than any session may take
                    let key = Int((nt / grid).rounded())
                    lowKey = min(lowKey, key)
                    highKey = max(highKey, key)
                    candidateTimes.append(nt)
                    candidateBuffers.append(nb)
                    candidateValues.append(values[s] + mbps[level] - abs(mbps[level] - from) - penalty * stall)
                    candidateParents.append(Int32(s))
                    candidateLevels.append(UInt8(level))
                    candidateKeys.append(key)
                }
            }
            guard !candidateTimes.isEmpty else { throw Self.tooLong }
            // Keep the best candidate per (time bucket, level), in order of first arrival (deterministic). The
            // buckets are an array over the span of keys, or a dictionary when the times are too spread out for
            // one (a span far larger than the candidates would be memory spent on empty buckets).
            let span = (highKey - lowKey + 1) * levels
            let dense = span <= 4 * candidateTimes.count + 4096
            if dense {
                buckets.removeAll(keepingCapacity: true)
                buckets.append(contentsOf: repeatElement(-1, count: span))
            } else {
                sparseBuckets.removeAll(keepingCapacity: true)
            }
            var nextTimes: [Double] = []
            var nextBuffers: [Double] = []
            var nextValues: [Double] = []
            var nextPrevious: [Int] = []
            var stageParents: [Int32] = []
            var stageChoices: [UInt8] = []
            for c in 0..<candidateTimes.count {
                let slot = (candidateKeys[c] - lowKey) * levels + Int(candidateLevels[c])
                let existing = dense ? buckets[slot] : sparseBuckets[slot] ?? -1
                if existing >= 0 {
                    let e = Int(existing)
                    if candidateValues[c] > nextValues[e] {
                        nextTimes[e] = candidateTimes[c]
                        nextBuffers[e] = candidateBuffers[c]
                        nextValues[e] = candidateValues[c]
                        stageParents[e] = candidateParents[c]
                    }
                } else {
                    if dense {
                        buckets[slot] = Int32(nextTimes.count)
                    } else {
                        sparseBuckets[slot] = Int32(nextTimes.count)
                    }
                    nextTimes.append(candidateTimes[c])
                    nextBuffers.append(candidateBuffers[c])
                    nextValues.append(candidateValues[c])
                    nextPrevious.append(Int(candidateLevels[c]))
                    stageParents.append(candidateParents[c])
                    stageChoices.append(candidateLevels[c])
                }
            }
            times = nextTimes
            buffers = nextBuffers
            values = nextValues
            previous = nextPrevious
            parents.append(stageParents)
            choices.append(stageChoices)
            explored += times.count
            guard explored <= limits.states else {
                throw .beyondOptimumLimits(
                    what: "more than \(limits.states) states by segment \(k + 1) of "
                        + "\(manifest.segmentCount); try a coarser --grid, or --no-optimum")
            }
        }

        var best = 0
        for s in 1..<values.count where values[s] > values[best] { best = s }
        var path = [Int](repeating: 0, count: manifest.segmentCount)
        var state = best
        for k in stride(from: manifest.segmentCount - 1, through: 1, by: -1) {
            path[k] = Int(choices[k][state])
            state = Int(parents[k][state])
        }
        return OfflineOptimum(qoeLin: values[best], levels: path, stateCount: explored)
    }

    private static func tooMuchWork(_ limit: Int, _ k: Int, _ count: Int) -> SimulationError {
        .beyondOptimumLimits(
            what: "more than \(limit) steps of work by segment \(k + 1) of \(count); "
                + "try a coarser --grid, or --no-optimum")
    }

    private static var tooLong: SimulationError {
        let days = Int(SimulationLimits.maximumSessionSeconds / 86_400)
        return .beyondOptimumLimits(
            what: "every plan takes longer than the session bound of \(days) days of virtual time")
    }
}
