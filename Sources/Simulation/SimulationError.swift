/// Why a simulation could not run, with what a person needs to fix the input.
public enum SimulationError: Error, Sendable, Hashable, CustomStringConvertible {
    /// A trace that can never deliver a byte or holds impossible values.
    case unusableTrace(name: String, reason: String)
    /// A manifest, trace or schedule that cannot be read.
    case invalidInput(what: String, reason: String)

    public var description: String {
        switch self {
        case .unusableTrace(let name, let reason): return "trace \(name): \(reason)"
        case .invalidInput(let what, let reason): return "\(what): \(reason)"
        }
    }
}
