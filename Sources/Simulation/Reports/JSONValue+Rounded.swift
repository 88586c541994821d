import HLS
import JSON

extension JSONValue {
    /// A number rounded to 6 decimals, so reports read `0.3` rather than `0.30000000000000004` and stay
    /// byte-identical across runs and platforms.
    static func rounded(_ value: Double) -> JSONValue {
        .number((value * 1_000_000).rounded() / 1_000_000)
    }

    /// `rounded(value)`, or null when there is no value.
    static func optionalNumber(_ value: Double?) -> JSONValue { value.map { .rounded($0) } ?? .null }
}
