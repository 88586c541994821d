/// An adaptive-bitrate rule: picks a variant from the input, within the range the selector allows
/// (the viewport cap). A rule may keep state between calls (BOLA's placeholder, MPC's error history).
public protocol ABRRule: Sendable {
    var name: String { get }
    mutating func choose(_ input: SelectionInput, allowed: ClosedRange<Int>) -> Selection
    /// False when `choose` never reads `SelectionInput.throughputBitsPerSecond` (the estimator's EWMAs): a
    /// simulator may then leave those averages out (`EstimatorConfiguration.throughputAverages`), two `pow` a
    /// sample. True unless a rule says otherwise.
    var readsThroughputEstimate: Bool { get }
    /// How often the rule wants to see a segment load in progress (`checkLoad`); nil when it never abandons one.
    var loadCheckIntervalSeconds: Double? { get }
    /// A segment load in progress, with the input of a selection made now: an emergency selection (a lower
    /// variant) abandons the load and loads that variant instead; nil lets the load go on.
    mutating func checkLoad(_ input: SelectionInput, progress: LoadProgress, allowed: ClosedRange<Int>) -> Selection?
    /// A segment arrived (as the player measured it); a rule with an estimator of its own samples it here.
    mutating func segmentLoaded(_ load: LoadProgress)
}

extension ABRRule {
    public var readsThroughputEstimate: Bool { true }
    public var loadCheckIntervalSeconds: Double? { nil }
    public mutating func checkLoad(_ input: SelectionInput, progress: LoadProgress, allowed: ClosedRange<Int>)
        -> Selection?
    { nil }
    public mutating func segmentLoaded(_ load: LoadProgress) {}
}
