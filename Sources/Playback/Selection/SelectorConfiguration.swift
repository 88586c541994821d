/// Tunables of the quality selector and its rules. Defaults follow the published algorithms.
public struct SelectorConfiguration: Sendable, Hashable {
    /// Throughput rule: fraction of the estimate a variant may use (Sabre, dash.js: 0.9).
    public var safetyFactor: Double

    public init(safetyFactor: Double = 0.9) {
        self.safetyFactor = safetyFactor
    }
}
