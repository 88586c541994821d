/// One `serve --faults` rule: the failures a player must survive, on the requests whose path matches.
///
/// Written `path=GLOB,ACTION[,WHEN]`: `path=*.ts`, `path=/live/720p/*`, `path=*/index.m3u8` (`*` any run of
/// characters, `/` included; `?` one character; matched against the path as sent, without the query); the
/// action `status=CODE` (answer 400–599 instead), `cut=BYTES` (send that much of the body, then close the
/// connection) or `delay=TIME` (`2s`, `500ms`: the first byte waits that long); and which of the matching
/// requests it hits: `nth=N` (only the Nth, counting from 1), `every=N` (the Nth, 2Nth, …) or `share=F` (each
/// with probability F, 0 < F ≤ 1, drawn from `--fault-seed`); every one when none is given.
public struct FaultRule: Sendable, Hashable, CustomStringConvertible {
    public enum Action: Sendable, Hashable {
        case status(Int)
        case cut(afterBytes: Int64)
        case delay(milliseconds: Int64)
    }

    public enum Selection: Sendable, Hashable {
        case all
        case nth(Int)
        case every(Int)
        case share(Double)
    }

    public var pattern: String
    public var action: Action
    public var selection: Selection
    /// The rule as written.
    public var description: String

    public init(pattern: String, action: Action, selection: Selection = .all, description: String? = nil) {
        self.pattern = pattern
        self.action = action
        self.selection = selection
        self.description = description ?? "path=\(pattern)"
    }

    /// Reads a rule; the error says which part is wrong and what is expected.
    public init(parsing text: String) throws(FaultRuleError) {
        var pattern: String?
        var action: Action?
        var selection = Selection.all
        for part in text.split(separator: ",", omittingEmptySubsequences: false) {
            guard let equals = part.firstIndex(of: "=") else {
                throw FaultRuleError(rule: text, problem: "'\(part)' is not key=value")
            }
            let key = part[..<equals], value = String(part[part.index(after: equals)...])
            func setAction(_ new: Action) throws(FaultRuleError) {
                guard action == nil else {
                    throw FaultRuleError(rule: text, problem: "more than one action (status, cut, delay)")
                }
                action = new
            }
            func setSelection(_ new: Selection) throws(FaultRuleError) {
                guard selection == .all else {
                    throw FaultRuleError(rule: text, problem: "more than one of nth, every, share")
                }
                selection = new
            }
            switch key {
            case "path":
                guard !value.isEmpty, value.utf8.allSatisfy({ $0 > 0x20 && $0 < 0x7f }) else {
                    throw FaultRuleError(rule: text, problem: "path expects a pattern such as *.ts, got '\(value)'")
                }
                pattern = value
            case "status":
                guard let code = Int(value), (400...599).contains(code) else {
                    throw FaultRuleError(rule: text, problem: "status expects a code in 400…599, got '\(value)'")
                }
                try setAction(.status(code))
            case "cut":
                guard let bytes = Int64(value), bytes >= 0 else {
                    throw FaultRuleError(rule: text, problem: "cut expects a number of bytes, got '\(value)'")
                }
                try setAction(.cut(afterBytes: bytes))
            case "delay":
                guard let milliseconds = Self.milliseconds(value), milliseconds <= 600_000 else {
                    throw FaultRuleError(
                        rule: text, problem: "delay expects a time such as 2s or 500ms (at most 600s), got '\(value)'")
                }
                try setAction(.delay(milliseconds: milliseconds))
            case "nth", "every":
                guard let count = Int(value), count >= 1 else {
                    throw FaultRuleError(rule: text, problem: "\(key) expects a whole number from 1, got '\(value)'")
                }
                try setSelection(key == "nth" ? .nth(count) : .every(count))
            case "share":
                guard let share = Double(value), share > 0, share <= 1 else {
                    throw FaultRuleError(rule: text, problem: "share expects a fraction in (0, 1], got '\(value)'")
                }
                try setSelection(.share(share))
            default:
                throw FaultRuleError(
                    rule: text, problem: "unknown key '\(key)' (path, status, cut, delay, nth, every, share)")
            }
        }
        guard let pattern else { throw FaultRuleError(rule: text, problem: "no path=PATTERN") }
        guard let action else { throw FaultRuleError(rule: text, problem: "no action: status=, cut= or delay=") }
        self.init(pattern: pattern, action: action, selection: selection, description: text)
    }

    /// `2s`, `500ms`, `1.5` (seconds) as whole milliseconds.
    private static func milliseconds(_ text: String) -> Int64? {
        let (number, scale): (Substring, Double) =
            text.hasSuffix("ms")
            ? (text.dropLast(2), 1) : text.hasSuffix("s") ? (text.dropLast(), 1000) : (Substring(text), 1000)
        guard let value = Double(number), value >= 0, value.isFinite, value * scale < 1e12 else { return nil }
        return Int64((value * scale).rounded())
    }

    /// Whether `path` matches the pattern: `*` any run of bytes, `?` one byte, anything else itself.
    public func matches(_ path: String) -> Bool {
        Self.glob(Array(pattern.utf8)[...], Array(path.utf8)[...])
    }

    /// Iterative glob matching with one backtrack point (the last `*`): linear in practice, never exponential.
    private static func glob(_ pattern: ArraySlice<UInt8>, _ text: ArraySlice<UInt8>) -> Bool {
        var p = pattern.startIndex, t = text.startIndex
        var star: (p: Int, t: Int)?
        while t < text.endIndex {
            if p < pattern.endIndex, pattern[p] == UInt8(ascii: "*") {
                star = (p, t)
                p += 1
            } else if p < pattern.endIndex, pattern[p] == UInt8(ascii: "?") || pattern[p] == text[t] {
                p += 1
                t += 1
            } else if let last = star {
                p = last.p + 1
                t = last.t + 1
                star = (last.p, last.t + 1)
            } else {
                return false
            }
        }
        while p < pattern.endIndex, pattern[p] == UInt8(ascii: "*") { p += 1 }
        return p == pattern.endIndex
    }
}

/// A `--faults` rule that cannot be read.
public struct FaultRuleError: Error, Sendable, Hashable, CustomStringConvertible {
    public var rule: String
    public var problem: String

    public var description: String { "--faults '\(rule)': \(problem)" }
}
