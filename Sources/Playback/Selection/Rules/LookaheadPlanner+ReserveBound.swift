/// The reserve bound of the look-ahead search: an exact upper bound on what the rest of a partial plan can
/// earn, from the buffer it has and the downloads its levels take (a Lagrangian relaxation of the stalls and
/// the terminal value; derived in docs/SIMULATION.md, "The reserve bound"). With a price p in
/// [0, min(terminal weight, rebuffer penalty)], the rest after a step at `depth` that leaves buffer b is worth at
/// most
///     Σ over its steps of (mbps − |Δ mbps| − p × (download − segment)) + p × b − p × max(target, segment)
/// (the pessimistic scenario only subtracts), whose best over the level sequences depends only on the level at
/// `depth`: a small dynamic programme over the levels, once per decision for each price.
extension LookaheadPlanner.Search {
    /// The largest price of a second of download: the terminal weight, capped at half the rebuffer penalty so
    /// that a stall always costs enough to cover its own rounding; 0 (no reserve bound) without a reserve.
    static func reservePrice(terminalTarget: Double, terminalWeight: Double, rebufferPenalty: Double) -> Double {
        terminalTarget > 0 ? max(min(terminalWeight, rebufferPenalty / 2), 0) : 0
    }

    /// The prices tabulated at once, as fractions of `reservePrice`: a plan with buffer to spare is bounded best
    /// by a low price, one that spends it by a high one; the search cuts by the lower of the two bounds.
    static let priceFactors = SIMD2<Double>(0.4, 1)

    /// Fills `restValues` (see above) and `restScale`. Each table holds the best priced rest plus its
    /// constant terms, price × (r × segment − max(target, segment)) with r steps after the depth; those terms
    /// grow by price × segment a depth back, so the programme carries them along: backwards from the last
    /// depth (no rest: only the constant), the rest after `level` at `depth` is the best over the next level m
    /// of gain(m) − |mbps[m] − mbps[level]|, gain(m) = mbps[m] − price × (download − segment) + the table at m.
    /// With ascending bitrates that is (gain(m) + mbps[m]) − mbps[level] for m up to `level` and
    /// (gain(m) − mbps[m]) + mbps[level] from it: a running maximum from each end.
    mutating func fillRestValues() {
        let lowest = allowed.lowerBound
        let highest = allowed.upperBound
        let target = max(terminalTarget, segmentSeconds)
        restScale =
            1 + Double(steps) * (2 * topGain + (rebufferPenalty + pessimisticPenalty + reservePrice) * longestDownload)
            + reservePrice * (capSeconds + Double(steps) * segmentSeconds + target)
        let gains = restValues + steps &* levels
        var depth = steps &- 1
        let lastRow = restValues + depth &* levels
        for level in lowest...highest { lastRow[level] = -prices * target }
        while depth > 0 {
            depth &-= 1
            let next = downloads + (depth &+ 1) &* levels
            let nextRest = restValues + (depth &+ 1) &* levels
            let rest = restValues + depth &* levels
            // (`replacing(with:where:)` with `.>`: a running maximum, one `maxpd` for both prices.)
            var below = SIMD2<Double>(repeating: -.infinity)
            var level = lowest
            while level <= highest {
                let gain = mbps[level] - prices * (next[level] - segmentSeconds) + nextRest[level]
                gains[level] = gain
                let candidate = gain + mbps[level]
                below = below.replacing(with: candidate, where: candidate .> below)
                rest[level] = below - mbps[level]
                level &+= 1
            }
            var above = SIMD2<Double>(repeating: -.infinity)
            level = highest
            while level >= lowest {
                let candidate = gains[level] - mbps[level]
                above = above.replacing(with: candidate, where: candidate .> above)
                let fromAbove = above + mbps[level]
                rest[level] = rest[level].replacing(with: fromAbove, where: fromAbove .> rest[level])
                level &-= 1
            }
        }
    }
}
