/// Why JSON text could not be read, with the line and column (counted in characters from 1) of the fault and,
/// for faults inside a document, the path of the value (`values.contrast`, `samples[3].bandwidth_kbps`).
public enum JSONReadError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The text ends before the document does.
    case unexpectedEnd(expected: String, line: Int, column: Int)
    /// A character the grammar does not allow here.
    case unexpectedCharacter(found: String, expected: String, line: Int, column: Int)
    /// Bytes that are not UTF-8 inside a string.
    case invalidUTF8(line: Int, column: Int)
    /// A backslash escape JSON does not define (`\x`, `\u12`).
    case invalidEscape(String, line: Int, column: Int)
    /// Valid JSON, but half of a UTF-16 surrogate pair (`\ud800` without its low half), which no string can hold.
    case loneSurrogate(escape: String, path: String, line: Int, column: Int)
    /// Valid JSON, but a number beyond ±1.8e308, which no Double can hold (`1e309`).
    case numberOutOfRange(text: String, path: String, line: Int, column: Int)
    /// Valid JSON, but an object naming a key twice; readers disagree on which value wins, so it is refused.
    case duplicateKey(path: String, line: Int, firstLine: Int)
    /// Arrays and objects nested deeper than the reader follows.
    case tooDeep(limit: Int, line: Int, column: Int)

    /// False for documents that are valid JSON but cannot be represented faithfully.
    public var isSyntaxError: Bool {
        switch self {
        case .loneSurrogate, .numberOutOfRange, .duplicateKey: false
        default: true
        }
    }

    /// The value at fault (`values.contrast`), or empty when the fault is in the text itself.
    public var path: String {
        switch self {
        case .loneSurrogate(_, let path, _, _), .numberOutOfRange(_, let path, _, _), .duplicateKey(let path, _, _):
            path
        default: ""
        }
    }

    /// What is wrong, without the path.
    public var detail: String {
        switch self {
        case .unexpectedEnd(let expected, let line, let column):
            "unexpected end of file at line \(line) column \(column) (expected \(expected))"
        case .unexpectedCharacter(let found, let expected, let line, let column):
            "unexpected \(found) at line \(line) column \(column) (expected \(expected))"
        case .invalidUTF8(let line, let column):
            "a string that is not UTF-8 at line \(line) column \(column)"
        case .invalidEscape(let escape, let line, let column):
            "an invalid escape \(escape) at line \(line) column \(column)"
        case .loneSurrogate(let escape, _, let line, let column):
            "a lone surrogate \(escape) at line \(line) column \(column) (half of a UTF-16 pair is not a character)"
        case .numberOutOfRange(let text, _, let line, let column):
            "\(text) is out of the range of a number (±1.8e308) at line \(line) column \(column)"
        case .duplicateKey(_, let line, let firstLine):
            "duplicate key at line \(line) (first at line \(firstLine)); a key may appear only once"
        case .tooDeep(let limit, let line, let column):
            "nested deeper than \(limit) levels at line \(line) column \(column)"
        }
    }

    public var description: String { path.isEmpty ? detail : "\(path): \(detail)" }
}

extension JSONValue {
    /// How deep arrays and objects may nest (the reader recurses once per level; every file it reads needs 3).
    public static let maximumNestingDepth = 64

    /// Reads one JSON document (RFC 8259; a leading UTF-8 byte order mark is skipped). Objects keep their
    /// members in text order. A number without fraction or exponent that fits an `Int` is `.integer`, any
    /// other number `.number`. Stricter than the grammar where a value could not be kept faithfully: a
    /// duplicate key, a lone surrogate escape and a number beyond Double's range are errors naming the value.
    /// - Complexity: O(n) in the length of the text.
    public init(parsing bytes: [UInt8]) throws(JSONReadError) {
        var reader = JSONTextReader(bytes: bytes)
        self = try reader.document()
    }
}

/// The recursive-descent reader behind `JSONValue(parsing:)`. Positions are byte offsets until an error
/// needs a line and column, so reading costs nothing for them.
struct JSONTextReader {
    private enum PathStep {
        case key(String)
        case index(Int)
    }

    let bytes: [UInt8]
    private var offset = 0
    private var path: [PathStep] = []

    init(bytes: [UInt8]) {
        self.bytes = bytes
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { offset = 3 }
    }

    mutating func document() throws(JSONReadError) -> JSONValue {
        skipWhitespace()
        let value = try self.value(depth: 0)
        skipWhitespace()
        guard offset == bytes.count else { throw unexpected(expected: "the end of the document") }
        return value
    }

    // MARK: Values

    private mutating func value(depth: Int) throws(JSONReadError) -> JSONValue {
        guard offset < bytes.count else { throw unexpected(expected: "a value") }
        switch bytes[offset] {
        case UInt8(ascii: "{"): return try object(depth: depth + 1)
        case UInt8(ascii: "["): return try array(depth: depth + 1)
        case UInt8(ascii: "\""): return .string(try string())
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return try number()
        case UInt8(ascii: "t"): return try literal("true", .bool(true))
        case UInt8(ascii: "f"): return try literal("false", .bool(false))
        case UInt8(ascii: "n"): return try literal("null", .null)
        default: throw unexpected(expected: "a value")
        }
    }

    private mutating func literal(_ word: String, _ value: JSONValue) throws(JSONReadError) -> JSONValue {
        for byte in word.utf8 {
            guard offset < bytes.count, bytes[offset] == byte else { throw unexpected(expected: "a value") }
            offset += 1
        }
        return value
    }

    private mutating func object(depth: Int) throws(JSONReadError) -> JSONValue {
        guard depth <= JSONValue.maximumNestingDepth else { throw tooDeep() }
        offset += 1  // {
        var members: [(String, JSONValue)] = []
        var keyOffsets: [Int] = []
        /// Key → index in `members`, built once an object is large enough for a linear search to cost.
        var index: [String: Int] = [:]
        skipWhitespace()
        if offset < bytes.count, bytes[offset] == UInt8(ascii: "}") {
            offset += 1
            return .object([])
        }
        while true {
            guard offset < bytes.count, bytes[offset] == UInt8(ascii: "\"") else {
                throw unexpected(expected: members.isEmpty ? "a key in double quotes or '}'" : "a key in double quotes")
            }
            let keyOffset = offset
            let key = try string()
            let earlier = members.count <= 16 ? members.firstIndex { $0.0 == key } : index[key]
            if let earlier {
                path.append(.key(key))
                throw .duplicateKey(
                    path: pathText, line: position(of: keyOffset).line,
                    firstLine: position(of: keyOffsets[earlier]).line)
            }
            skipWhitespace()
            guard offset < bytes.count, bytes[offset] == UInt8(ascii: ":") else { throw unexpected(expected: "':'") }
            offset += 1
            skipWhitespace()
            path.append(.key(key))
            let value = try self.value(depth: depth)
            path.removeLast()
            members.append((key, value))
            keyOffsets.append(keyOffset)
            if members.count > 16 {
                if index.isEmpty {
                    for (position, member) in members.enumerated() { index[member.0] = position }
                } else {
                    index[key] = members.count - 1
                }
            }
            skipWhitespace()
            guard offset < bytes.count else { throw unexpected(expected: "',' or '}'") }
            if bytes[offset] == UInt8(ascii: ",") {
                offset += 1
                skipWhitespace()
            } else if bytes[offset] == UInt8(ascii: "}") {
                offset += 1
                return .object(members)
            } else {
                throw unexpected(expected: "',' or '}'")
            }
        }
    }

    private mutating func array(depth: Int) throws(JSONReadError) -> JSONValue {
        guard depth <= JSONValue.maximumNestingDepth else { throw tooDeep() }
        offset += 1  // [
        var items: [JSONValue] = []
        skipWhitespace()
        if offset < bytes.count, bytes[offset] == UInt8(ascii: "]") {
            offset += 1
            return .array([])
        }
        path.append(.index(0))
        while true {
            path[path.count - 1] = .index(items.count)
            items.append(try value(depth: depth))
            skipWhitespace()
            guard offset < bytes.count else { throw unexpected(expected: "',' or ']'") }
            if bytes[offset] == UInt8(ascii: ",") {
                offset += 1
                skipWhitespace()
            } else if bytes[offset] == UInt8(ascii: "]") {
                offset += 1
                path.removeLast()
                return .array(items)
            } else {
                throw unexpected(expected: "',' or ']'")
            }
        }
    }

    /// `-? (0 | [1-9][0-9]*) (.[0-9]+)? ([eE][+-]?[0-9]+)?`
    private mutating func number() throws(JSONReadError) -> JSONValue {
        let start = offset
        var isInteger = true
        if bytes[offset] == UInt8(ascii: "-") { offset += 1 }
        guard offset < bytes.count, isDigit(bytes[offset]) else { throw unexpected(expected: "a digit") }
        if bytes[offset] == UInt8(ascii: "0") {
            offset += 1
        } else {
            while offset < bytes.count, isDigit(bytes[offset]) { offset += 1 }
        }
        if offset < bytes.count, bytes[offset] == UInt8(ascii: ".") {
            isInteger = false
            offset += 1
            guard offset < bytes.count, isDigit(bytes[offset]) else { throw unexpected(expected: "a digit after '.'") }
            while offset < bytes.count, isDigit(bytes[offset]) { offset += 1 }
        }
        if offset < bytes.count, bytes[offset] == UInt8(ascii: "e") || bytes[offset] == UInt8(ascii: "E") {
            isInteger = false
            offset += 1
            if offset < bytes.count, bytes[offset] == UInt8(ascii: "+") || bytes[offset] == UInt8(ascii: "-") {
                offset += 1
            }
            guard offset < bytes.count, isDigit(bytes[offset]) else {
                throw unexpected(expected: "a digit in the exponent")
            }
            while offset < bytes.count, isDigit(bytes[offset]) { offset += 1 }
        }
        if isInteger && offset - start <= 18 {
            // Up to 18 digits always fit an Int: no text to make.
            var value = 0
            for byte in bytes[start..<offset] where byte != UInt8(ascii: "-") { value = value * 10 + Int(byte - 48) }
            return .integer(bytes[start] == UInt8(ascii: "-") ? -value : value)
        }
        let text = String(decoding: bytes[start..<offset], as: UTF8.self)
        if isInteger, let integer = Int(text) { return .integer(integer) }
        guard let number = Double(text), number.isFinite else {
            let (line, column) = position(of: start)
            throw .numberOutOfRange(text: text, path: pathText, line: line, column: column)
        }
        return .number(number)
    }

    private func isDigit(_ byte: UInt8) -> Bool { byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") }

    /// A string starting at the opening quote; escapes decoded, UTF-8 checked.
    private mutating func string() throws(JSONReadError) -> String {
        let start = offset
        offset += 1  // "
        var scalars: [UInt8] = []
        var runStart = offset
        while true {
            guard offset < bytes.count else { throw unexpected(expected: "'\"' closing the string") }
            let byte = bytes[offset]
            if byte == UInt8(ascii: "\"") {
                scalars.append(contentsOf: bytes[runStart..<offset])
                offset += 1
                break
            }
            if byte < 0x20 { throw unexpected(expected: "'\"' or an escape (control characters must be escaped)") }
            if byte != UInt8(ascii: "\\") {
                offset += 1
                continue
            }
            scalars.append(contentsOf: bytes[runStart..<offset])
            try escape(into: &scalars)
            runStart = offset
        }
        guard let text = String(validating: scalars, as: UTF8.self) else {
            let (line, column) = position(of: start)
            throw .invalidUTF8(line: line, column: column)
        }
        return text
    }

    /// One escape starting at the backslash, appended as UTF-8.
    private mutating func escape(into out: inout [UInt8]) throws(JSONReadError) {
        let start = offset
        offset += 1  // backslash
        guard offset < bytes.count else { throw unexpected(expected: "an escape") }
        let letter = bytes[offset]
        offset += 1
        let decoded: UInt8? =
            switch letter {
            case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): letter
            case UInt8(ascii: "b"): 0x08
            case UInt8(ascii: "f"): 0x0C
            case UInt8(ascii: "n"): 0x0A
            case UInt8(ascii: "r"): 0x0D
            case UInt8(ascii: "t"): 0x09
            default: nil
            }
        if let decoded {
            out.append(decoded)
            return
        }
        guard letter == UInt8(ascii: "u") else { throw invalidEscape(from: start) }
        let high = try hexQuad(escapeStart: start)
        var scalar = UInt32(high)
        if (0xD800...0xDBFF).contains(high) {
            // A high surrogate must be followed by `\u` and a low one.
            let pairStart = offset
            if offset + 1 < bytes.count, bytes[offset] == UInt8(ascii: "\\"), bytes[offset + 1] == UInt8(ascii: "u") {
                offset += 2
                let low = try hexQuad(escapeStart: pairStart)
                guard (0xDC00...0xDFFF).contains(low) else { throw loneSurrogate(high, at: start) }
                scalar = 0x10000 + ((UInt32(high) - 0xD800) << 10) + (UInt32(low) - 0xDC00)
            } else {
                throw loneSurrogate(high, at: start)
            }
        } else if (0xDC00...0xDFFF).contains(high) {
            throw loneSurrogate(high, at: start)
        }
        guard let unicode = Unicode.Scalar(scalar) else { throw loneSurrogate(high, at: start) }
        out.append(contentsOf: Array(String(Character(unicode)).utf8))
    }

    private mutating func hexQuad(escapeStart: Int) throws(JSONReadError) -> UInt16 {
        var value: UInt16 = 0
        for _ in 0..<4 {
            guard offset < bytes.count else { throw invalidEscape(from: escapeStart) }
            let byte = bytes[offset]
            let digit: UInt16
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = UInt16(byte - UInt8(ascii: "0"))
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = UInt16(byte - UInt8(ascii: "a") + 10)
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = UInt16(byte - UInt8(ascii: "A") + 10)
            default: throw invalidEscape(from: escapeStart)
            }
            value = value << 4 | digit
            offset += 1
        }
        return value
    }

    private mutating func skipWhitespace() {
        while offset < bytes.count {
            switch bytes[offset] {
            case 0x20, 0x09, 0x0A, 0x0D: offset += 1
            default: return
            }
        }
    }

    // MARK: Errors

    private var pathText: String {
        var text = ""
        for step in path {
            switch step {
            case .key(let key): text += text.isEmpty ? key : "." + key
            case .index(let index): text += "[\(index)]"
            }
        }
        return text
    }

    /// Line and column (from 1, counting characters, not bytes) of byte `target`.
    func position(of target: Int) -> (line: Int, column: Int) {
        var line = 1
        var column = 1
        for byte in bytes[..<min(target, bytes.count)] {
            if byte == 0x0A {
                line += 1
                column = 1
            } else if byte & 0xC0 != 0x80 {
                column += 1
            }
        }
        return (line, column)
    }

    private func unexpected(expected: String) -> JSONReadError {
        let (line, column) = position(of: offset)
        guard offset < bytes.count else { return .unexpectedEnd(expected: expected, line: line, column: column) }
        let byte = bytes[offset]
        let found =
            byte == UInt8(ascii: "'")
            ? "\"'\"" : byte >= 0x20 && byte < 0x7F ? "'\(Character(Unicode.Scalar(byte)))'" : "byte 0x" + hex(byte)
        return .unexpectedCharacter(found: found, expected: expected, line: line, column: column)
    }

    private func hex(_ byte: UInt8) -> String {
        let digits = Array("0123456789ABCDEF")
        return String([digits[Int(byte >> 4)], digits[Int(byte & 0x0F)]])
    }

    private func invalidEscape(from start: Int) -> JSONReadError {
        let (line, column) = position(of: start)
        let end = min(max(offset, start + 2), bytes.count)
        return .invalidEscape(String(decoding: bytes[start..<end], as: UTF8.self), line: line, column: column)
    }

    private func loneSurrogate(_ code: UInt16, at start: Int) -> JSONReadError {
        let (line, column) = position(of: start)
        let digits = String(code, radix: 16)
        return .loneSurrogate(
            escape: "\\u" + String(repeating: "0", count: 4 - digits.count) + digits, path: pathText, line: line,
            column: column)
    }

    private func tooDeep() -> JSONReadError {
        let (line, column) = position(of: offset)
        return .tooDeep(limit: JSONValue.maximumNestingDepth, line: line, column: column)
    }
}
