/// Throughput-based rule (Sabre `throughput`, dash.js ThroughputRule): the highest variant whose segment
/// downloads within one segment duration at `safetyFactor` × the estimate; then the insufficient-buffer rule
/// steps down while a segment could not download within a fraction of the buffer (that fraction starts at
/// 0.9 and shrinks by 0.9 per decision to 0.5).
public struct ThroughputRule: ABRRule {
    public let name = "throughput"
    public var safetyFactor: Double
    public var insufficientBufferRule: Bool
    private var bufferSafety = 0.9

    public init(safetyFactor: Double = 0.9, insufficientBufferRule: Bool = true) {
        self.safetyFactor = safetyFactor
        self.insufficientBufferRule = insufficientBufferRule
    }

    public mutating func choose(_ input: SelectionInput, allowed: ClosedRange<Int>) -> Selection {
        guard let estimate = input.throughputBitsPerSecond else {
            return Selection(variantIndex: allowed.lowerBound, reason: "start: lowest")
        }
        var level = input.highestSustainable(bitsPerSecond: estimate * safetyFactor, allowed: allowed)
        var lowBuffer = false
        if insufficientBufferRule {
            let latency = input.estimator.latencySeconds ?? 0
            let safeBits = bufferSafety * (input.bufferSeconds - latency) * estimate
            bufferSafety = max(bufferSafety * 0.9, 0.5)
            for lower in allowed.lowerBound..<level
            where input.rate(lower + 1) * input.segmentDurationSeconds > safeBits {
                level = lower
                lowBuffer = true
                break
            }
        }
        // The reason only when it is shown: formatting it costs more than the decision.
        guard input.explains else { return Selection(variantIndex: level, reason: "tput") }
        return Selection(
            variantIndex: level,
            reason: "tput \(kbps(estimate)) kbps x \(safetyFactor)" + (lowBuffer ? ", low buffer" : ""))
    }
}
