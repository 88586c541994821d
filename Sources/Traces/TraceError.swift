import JSON

/// Why a trace cannot be used, with what a person needs to fix it.
public enum TraceError: Error, Sendable, Hashable, CustomStringConvertible {
    /// A trace that can never deliver a byte, or has too many periods.
    case unusable(name: String, reason: String)
    /// A file that is not a trace.
    case invalid(what: String, reason: String)
    /// A number outside the range `TraceLimits` allows: `field` of `what` is `value`, `allowed` says what fits.
    case outOfRange(what: String, field: String, value: Double, allowed: String)

    public var description: String {
        switch self {
        case .unusable(let name, let reason): "trace \(name): \(reason)"
        case .invalid(let what, let reason): "\(what): \(reason)"
        case .outOfRange(let what, let field, let value, let allowed):
            "\(what): \(field) is \(plainNumber(value)), outside \(allowed)"
        }
    }
}
