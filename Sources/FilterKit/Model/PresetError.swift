import JSON  // JSONReadError

/// Why a preset file could not be parsed.
public enum PresetError: Error, Equatable, CustomStringConvertible, Sendable {
    /// Not JSON: what the reader expected, with line and column.
    case invalidJSON(String)
    /// JSON a preset cannot hold faithfully: a duplicate key, a lone surrogate, a number beyond a Double.
    case unrepresentable(JSONReadError)
    case notAnObject
    case badValue(key: String, message: String)

    public var description: String {
        switch self {
        case .invalidJSON(let detail): "not valid JSON: \(detail)"
        case .unrepresentable(let error): error.description
        case .notAnObject: "a preset must be a JSON object with \"name\", \"description\" and \"values\""
        case .badValue(let key, let message): "\"\(key)\": \(message)"
        }
    }
}
