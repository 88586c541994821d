extension SelectionInput {
    /// Nominal rate of a variant, bits per second.
    func rate(_ variant: Int) -> Double { Double(variants[variant].nominalBitsPerSecond) }

    /// The highest variant in `allowed` whose segment, at `bitsPerSecond`, downloads within one segment
    /// duration including the request latency (Sabre's `quality_from_throughput`).
    func highestSustainable(bitsPerSecond: Double, allowed: ClosedRange<Int>) -> Int {
        let latency = estimator.latencySeconds ?? 0
        let p = segmentDurationSeconds
        var level = allowed.lowerBound
        while level + 1 <= allowed.upperBound, latency + p * rate(level + 1) / bitsPerSecond <= p {
            level += 1
        }
        return level
    }
}

/// Whole kbit/s, for reasons.
func kbps(_ bitsPerSecond: Double) -> Int {
    bitsPerSecond.isFinite ? Int((bitsPerSecond / 1000).rounded()) : 0
}
