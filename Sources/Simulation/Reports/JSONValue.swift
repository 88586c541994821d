/// A minimal JSON document with keys kept in the order given, so reports are byte-for-byte deterministic.
public indirect enum JSONValue: Sendable, Hashable {
    case null
    case bool(Bool)
    case number(Double)
    case integer(Int)
    case string(String)
    case array([JSONValue])
    case object([(String, JSONValue)])

    public static func == (a: JSONValue, b: JSONValue) -> Bool { a.rendered() == b.rendered() }
    public func hash(into hasher: inout Hasher) { hasher.combine(rendered()) }

    /// Compact JSON text. Numbers are rounded to 6 decimals and printed in Swift's shortest form.
    public func rendered() -> String {
        var out = ""
        write(into: &out)
        return out
    }

    private func write(into out: inout String) {
        switch self {
        case .null: out += "null"
        case .bool(let value): out += value ? "true" : "false"
        case .integer(let value): out += String(value)
        case .number(let value):
            if !value.isFinite {
                out += "null"
            } else {
                let rounded = (value * 1_000_000).rounded() / 1_000_000
                if rounded == rounded.rounded(), abs(rounded) < 1e15 {
                    out += String(Int(rounded))
                } else {
                    out += "\(rounded)"
                }
            }
        case .string(let value): JSONValue.escape(value, into: &out)
        case .array(let values):
            out += "["
            for (i, value) in values.enumerated() {
                if i > 0 { out += "," }
                value.write(into: &out)
            }
            out += "]"
        case .object(let members):
            out += "{"
            for (i, (key, value)) in members.enumerated() {
                if i > 0 { out += "," }
                JSONValue.escape(key, into: &out)
                out += ":"
                value.write(into: &out)
            }
            out += "}"
        }
    }

    private static func escape(_ text: String, into out: inout String) {
        out += "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            default:
                if scalar.value < 0x20 {
                    let hex = String(scalar.value, radix: 16)
                    out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        out += "\""
    }
}

extension JSONValue {
    static func optionalNumber(_ value: Double?) -> JSONValue { value.map { .number($0) } ?? .null }
}
