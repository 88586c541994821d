/// Throughput-based rule: the highest variant whose rate fits within a safety fraction of the estimate.
public struct ThroughputRule: ABRRule {
    public let name = "throughput"
    public var safetyFactor: Double

    public init(safetyFactor: Double = 0.9) {
        self.safetyFactor = safetyFactor
    }

    public mutating func choose(_ input: SelectionInput, allowed: ClosedRange<Int>) -> Selection {
        guard let estimate = input.throughputBitsPerSecond else {
            return Selection(variantIndex: allowed.lowerBound, reason: "no estimate yet")
        }
        let budget = estimate * safetyFactor
        var pick = allowed.lowerBound
        for v in allowed where Double(input.variants[v].nominalBitsPerSecond) <= budget { pick = v }
        return Selection(variantIndex: pick, reason: "tput \(Int(estimate / 1000)) kbps")
    }
}
