import Foundation
import HLS
import JSON

/// A JSON document read with Foundation's decoder, for comparing our facts with the corpus's expected files.
/// Numbers compare numerically (`10` equals `10.0`), objects by key.
indirect enum ExpectedJSON: Decodable, Equatable, CustomStringConvertible {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    case array([ExpectedJSON])
    case object([String: ExpectedJSON])

    init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
        } else if let value = try? container.decode(Bool.self) {
            self = .bool(value)
        } else if let value = try? container.decode(Double.self) {
            self = .number(value)
        } else if let value = try? container.decode(String.self) {
            self = .string(value)
        } else if let value = try? container.decode([ExpectedJSON].self) {
            self = .array(value)
        } else {
            self = .object(try container.decode([String: ExpectedJSON].self))
        }
    }

    init(_ value: JSONValue) {
        switch value {
        case .null: self = .null
        case .bool(let b): self = .bool(b)
        case .integer(let i): self = .number(Double(i))
        case .number(let d): self = .number(d)
        case .string(let s): self = .string(s)
        case .array(let items): self = .array(items.map(ExpectedJSON.init))
        case .object(let members): self = .object(Dictionary(members.map { ($0.0, ExpectedJSON($0.1)) }) { a, _ in a })
        }
    }

    static func read(_ url: URL) throws -> ExpectedJSON {
        try JSONDecoder().decode(ExpectedJSON.self, from: Data(contentsOf: url))
    }

    var description: String {
        switch self {
        case .null: "null"
        case .bool(let b): String(b)
        case .number(let d): String(d)
        case .string(let s): "\"\(s)\""
        case .array(let items): "[" + items.map(\.description).joined(separator: ", ") + "]"
        case .object(let members):
            "{" + members.keys.sorted().map { "\($0): \(members[$0]!)" }.joined(separator: ", ") + "}"
        }
    }

    /// Replaces the value at `path` (`variants.0.uri`, `kind`).
    mutating func set(_ path: String, to value: ExpectedJSON) {
        let parts = path.split(separator: ".", maxSplits: 1).map(String.init)
        switch self {
        case .object(var members):
            if parts.count == 1 {
                members[parts[0]] = value
            } else {
                members[parts[0]]?.set(parts[1], to: value)
            }
            self = .object(members)
        case .array(var items):
            guard let index = Int(parts[0]), items.indices.contains(index) else { return }
            if parts.count == 1 { items[index] = value } else { items[index].set(parts[1], to: value) }
            self = .array(items)
        default:
            break
        }
    }

    /// Every difference between `self` (expected) and `ours`, as `path: expected vs ours`; keys of `self`
    /// starting with `_` (metadata) and keys only in `ours` are ignored.
    func differences(from ours: ExpectedJSON, path: String = "") -> [String] {
        switch (self, ours) {
        case (.object(let expected), .object(let actual)):
            return expected.keys.sorted().filter { !$0.hasPrefix("_") }.flatMap { key -> [String] in
                let keyPath = path.isEmpty ? key : "\(path).\(key)"
                guard let value = actual[key] else { return ["\(keyPath): missing"] }
                return expected[key]!.differences(from: value, path: keyPath)
            }
        case (.array(let expected), .array(let actual)):
            var found =
                expected.count == actual.count
                ? [] : ["\(path): \(expected.count) elements vs ours \(actual.count)"]
            for (index, pair) in zip(expected, actual).enumerated() {
                found += pair.0.differences(from: pair.1, path: "\(path).\(index)")
            }
            return found
        case (.number(let a), .number(let b)):
            return abs(a - b) <= 1e-9 ? [] : ["\(path): \(a) vs ours \(b)"]
        default:
            return self == ours ? [] : ["\(path): \(self) vs ours \(ours)"]
        }
    }
}
