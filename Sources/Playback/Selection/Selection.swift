/// The selector's answer: a variant and a short reason for logs and the simulator's report.
public struct Selection: Sendable, Hashable {
    public var variantIndex: Int
    public var reason: String

    public init(variantIndex: Int, reason: String) {
        self.variantIndex = variantIndex
        self.reason = reason
    }
}
