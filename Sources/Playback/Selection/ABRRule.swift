/// An adaptive-bitrate rule: picks a variant from the input, within the range the selector allows
/// (the viewport cap). A rule may keep state between calls (BOLA's placeholder, MPC's error history).
public protocol ABRRule: Sendable {
    var name: String { get }
    mutating func choose(_ input: SelectionInput, allowed: ClosedRange<Int>) -> Selection
    /// False when `choose` never reads `SelectionInput.throughputBitsPerSecond` (the estimator's EWMAs): a
    /// simulator may then leave those averages out (`EstimatorConfiguration.throughputAverages`), two `pow` a
    /// sample. True unless a rule says otherwise.
    var readsThroughputEstimate: Bool { get }
}

extension ABRRule {
    public var readsThroughputEstimate: Bool { true }
}
