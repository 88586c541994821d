import Foundation
import JSON

/// Validates a preset file key by key, so `filterz preset check` can name every bad key at once.
///
/// The file is read by the HLS module's strict JSON reader (`JSONValue(parsing:)`). Errors: invalid JSON
/// (with line and column), JSON a preset cannot hold faithfully (a duplicate key, a lone surrogate escape, a
/// number beyond ±1.8e308, each naming the key and its line), a top level that is not an object, `values` that
/// is not an object, a value that is not a number (e.g. `"contrast": "high"`), `name`/`description` that are
/// not strings.
/// Warnings: unknown keys (ignored by the app), out-of-range numbers (clamped). Notes: the legacy rules
/// (all 12 values 0 → neutral; temperature ≤ 0 → 6500 K).
public struct PresetCheck: Sendable {
    public enum Severity: String, Sendable { case error, warning, note }

    public struct Problem: Sendable, Equatable, CustomStringConvertible {
        public var severity: Severity
        /// The key at fault (`values.contrast`), or empty for the whole file.
        public var key: String
        public var message: String
        /// For a file that could not be read as a preset at all: the error `Preset.parse` throws.
        var fileError: PresetError?

        init(severity: Severity, key: String, message: String, fileError: PresetError? = nil) {
            self.severity = severity
            self.key = key
            self.message = message
            self.fileError = fileError
        }

        /// The problem of a file the JSON reader refused.
        init(reading error: JSONReadError) {
            if error.isSyntaxError {
                self.init(
                    severity: .error, key: "", message: PresetCheck.invalidJSONPrefix + error.description,
                    fileError: .invalidJSON(error.description))
            } else {
                self.init(
                    severity: .error, key: error.path, message: error.detail, fileError: .unrepresentable(error))
            }
        }

        public var description: String {
            key.isEmpty ? "\(severity.rawValue): \(message)" : "\(severity.rawValue): \(key): \(message)"
        }

        var asError: PresetError { fileError ?? .badValue(key: key, message: message) }
    }

    /// Everything found, in file order of keys (sorted by key name within `values`).
    public var problems: [Problem] = []
    /// The numbers found under `values`, by key, before clamping and legacy rules.
    public var numbers: [FilterValues.Key: Double] = [:]
    var object: [String: JSONValue]?

    /// True when no problem is an error.
    public var isValid: Bool { !problems.contains { $0.severity == .error } }

    static let invalidJSONPrefix = "not valid JSON: "

    public static func check(_ bytes: [UInt8]) -> PresetCheck {
        var report = PresetCheck()
        let root: JSONValue
        do {
            root = try JSONValue(parsing: bytes)
        } catch {
            report.problems.append(Problem(reading: error))
            return report
        }
        guard case .object(let members) = root else {
            report.problems.append(
                Problem(
                    severity: .error, key: "", message: "the top level must be a JSON object", fileError: .notAnObject))
            return report
        }
        // The reader refuses duplicate keys, so every object is a dictionary.
        let object = Dictionary(uniqueKeysWithValues: members)
        report.object = object
        for field in ["name", "description"] {
            if let value = object[field], case .string = value {
            } else if let value = object[field] {
                report.problems.append(
                    Problem(severity: .error, key: field, message: "expected a string, found \(value.kindName)"))
            }
        }
        let values: [String: JSONValue]
        if let inner = object["values"] {
            guard case .object(let innerMembers) = inner else {
                report.problems.append(
                    Problem(severity: .error, key: "values", message: "expected an object, found \(inner.kindName)"))
                return report
            }
            values = Dictionary(uniqueKeysWithValues: innerMembers)
            for key in object.keys.sorted() where !["name", "description", "values"].contains(key) {
                report.problems.append(Problem(severity: .warning, key: key, message: "unknown key, ignored"))
            }
        } else {
            values = object.filter { !["name", "description"].contains($0.key) }
        }
        let prefix = object["values"] == nil ? "" : "values."
        for name in values.keys.sorted() {
            let value = values[name]!
            guard let key = FilterValues.Key(rawValue: name) else {
                let hint = FilterValues.Key.allCases.first {
                    $0.rawValue.replacingOccurrences(of: "_", with: "")
                        == name.lowercased().replacingOccurrences(of: "_", with: "")
                }
                let suffix = hint.map { " (did you mean \"\($0.rawValue)\"?)" } ?? ""
                report.problems.append(
                    Problem(severity: .warning, key: prefix + name, message: "unknown key, ignored\(suffix)"))
                continue
            }
            guard let number = value.presetNumber else {
                report.problems.append(
                    Problem(
                        severity: .error, key: prefix + name,
                        message: "expected a number in \(Self.format(key.range)), found \(value.kindName)"))
                continue
            }
            report.numbers[key] = number
        }
        let allZero = report.numbers.values.allSatisfy { $0 == 0 }
        if allZero {
            report.problems.append(
                Problem(
                    severity: .note, key: "", message: "legacy preset: all values are 0 or missing, read as neutral"))
            return report
        }
        for key in FilterValues.Key.allCases {
            guard let number = report.numbers[key] else { continue }
            if key == .temperature && number <= 0 {
                report.problems.append(
                    Problem(
                        severity: .note, key: prefix + key.rawValue,
                        message: "legacy temperature \(plainNumber(number)) read as 6500"))
            } else if !key.range.contains(number) {
                report.problems.append(
                    Problem(
                        severity: .warning, key: prefix + key.rawValue,
                        message:
                            "\(plainNumber(number)) is outside \(Self.format(key.range)), clamped to \(plainNumber(key.clamp(number)))"
                    ))
            }
        }
        return report
    }

    static func format(_ range: ClosedRange<Double>) -> String {
        "\(plainNumber(range.lowerBound))…\(plainNumber(range.upperBound))"
    }

}

extension JSONValue {
    /// The value as a preset number (JSON does not tell integers from decimals), or nil.
    var presetNumber: Double? {
        switch self {
        case .integer(let value): Double(value)
        case .number(let value): value
        default: nil
        }
    }

    /// What the value is, for messages: `a string ("high")`.
    var kindName: String {
        switch self {
        case .null: "null"
        case .bool(let value): "a boolean (\(value))"
        case .integer(let value): "a number (\(value))"
        case .number(let value): "a number (\(value))"
        case .string(let value): "a string (\"\(value)\")"
        case .array: "an array"
        case .object: "an object"
        }
    }
}
