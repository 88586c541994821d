import JSON

/// Why a simulation could not run, with what a person needs to fix the input.
public enum SimulationError: Error, Sendable, Hashable, CustomStringConvertible {
    /// A manifest, trace or schedule that cannot be read.
    case invalidInput(what: String, reason: String)
    /// A number outside the range `SimulationLimits` allows: `field` of `what` is `value`, `allowed` says what fits.
    case outOfRange(what: String, field: String, value: Double, allowed: String)
    /// The session had not played the stream after `SimulationLimits.maximumSessionSeconds` of virtual time.
    case sessionTooLong(trace: String, segment: Int, segmentCount: Int)
    /// The offline optimum would need more memory or time than `SimulationLimits` grants (`what` says which).
    case beyondOptimumLimits(what: String)

    public var description: String {
        switch self {
        case .invalidInput(let what, let reason): return "\(what): \(reason)"
        case .outOfRange(let what, let field, let value, let allowed):
            return "\(what): \(field) is \(plainNumber(value)), outside \(allowed)"
        case .sessionTooLong(let trace, let segment, let segmentCount):
            let days = Int(SimulationLimits.maximumSessionSeconds / 86_400)
            return "trace \(trace): the session did not finish within \(days) days of virtual time (it had reached "
                + "segment \(segment + 1) of \(segmentCount)); the network is too slow for this stream"
        case .beyondOptimumLimits(let what):
            return "beyond the offline optimum's limits: \(what)"
        }
    }
}
