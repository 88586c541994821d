/// The best achievable QoE_lin on a trace with the whole future known: a forward dynamic program over the
/// same model as `SessionSimulator` (segment 0 at the lowest level, idle while full, stalls).
///
/// States before each request are (time, buffer, previous level). Paths are bucketed by (previous level,
/// request time on a grid, default 100 ms) and each bucket keeps the best path reaching it, with its exact time
/// and buffer; so the value found is the QoE of a real level sequence (`levels`), never above what can be
/// achieved, and it approaches the true optimum as the grid shrinks. (Along paths without stalls the buffer is
/// fixed by the time — buffer + time = start-up + k × segment + rebuffering — so one grid axis suffices.)
public struct OfflineOptimum: Sendable {
    public var qoeLin: Double
    /// The level of every segment on the best path.
    public var levels: [Int]
    /// Number of states explored (for reports and tuning the grid).
    public var stateCount: Int

    public static func compute(
        manifest: StreamManifest, trace: NetworkTrace, bufferCapSeconds: Double,
        startupThresholdSeconds: Double? = nil, highestLevel: Int? = nil, gridMilliseconds: Double = 100
    ) -> OfflineOptimum {
        let walker = TraceWalker(trace: trace)
        let segment = manifest.segmentDurationMilliseconds
        let cap = max(bufferCapSeconds * 1000, segment)
        let startup = min(max((startupThresholdSeconds ?? 0) * 1000, segment), cap)
        let top = min(highestLevel ?? manifest.levelCount - 1, manifest.levelCount - 1)
        let mbps = manifest.bitratesKilobitsPerSecond.map { $0 / 1000 }
        let penalty = QoESummary.rebufferPenaltyPerSecond / 1000  // per millisecond
        let grid = gridMilliseconds
        let levels = top + 1

        // Stage 1 after the forced first segment.
        let first = walker.downloadMilliseconds(at: 0, bits: manifest.segmentSizesBits[0][0])
        var times = [first]
        var buffers = [segment]
        var values = [mbps[0]]
        var previous = [0]
        var parents: [[Int32]] = [[-1]]
        var choices: [[UInt8]] = [[0]]
        var explored = 1

        // Scratch space for one stage's transitions, reused.
        var candidateTimes: [Double] = []
        var candidateBuffers: [Double] = []
        var candidateValues: [Double] = []
        var candidateParents: [Int32] = []
        var candidateLevels: [UInt8] = []
        var candidateKeys: [Int] = []
        var buckets: [Int32] = []

        for k in 1..<manifest.segmentCount {
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
                    let d = walker.downloadMilliseconds(at: t, bits: sizes[level])
                    var stall = 0.0
                    var nb = b
                    if playing {
                        stall = max(d - b, 0)
                        nb = max(b - d, 0)
                    }
                    nb += segment
                    let nt = t + d
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
            // Keep the best candidate per (time bucket, level), in order of first arrival (deterministic).
            let span = (highKey - lowKey + 1) * levels
            buckets.removeAll(keepingCapacity: true)
            buckets.append(contentsOf: repeatElement(-1, count: span))
            var nextTimes: [Double] = []
            var nextBuffers: [Double] = []
            var nextValues: [Double] = []
            var nextPrevious: [Int] = []
            var stageParents: [Int32] = []
            var stageChoices: [UInt8] = []
            for c in 0..<candidateTimes.count {
                let slot = (candidateKeys[c] - lowKey) * levels + Int(candidateLevels[c])
                let existing = buckets[slot]
                if existing >= 0 {
                    let e = Int(existing)
                    if candidateValues[c] > nextValues[e] {
                        nextTimes[e] = candidateTimes[c]
                        nextBuffers[e] = candidateBuffers[c]
                        nextValues[e] = candidateValues[c]
                        stageParents[e] = candidateParents[c]
                    }
                } else {
                    buckets[slot] = Int32(nextTimes.count)
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
}
