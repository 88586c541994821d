/// Text that stays a range of the parsed input until someone reads it as a `String`.
///
/// A media playlist is mostly segment URIs; building a `String` for each one (an allocation and a UTF-8 check,
/// then a free) was the largest single cost of parsing. The parser stores the URI line's range instead, and
/// ``string`` decodes it on each read (invalid UTF-8 repaired with U+FFFD, as `String(decoding:as:)` does).
/// Equality and hashing are those of the decoded strings, so a parsed value equals one built in code.
///
/// Holding a slice keeps the whole input alive (as the playlist's provenance already does).
struct ParsedText: Hashable, Sendable {
    private enum Storage: Sendable {
        case string(String)
        case slice(ParsedBytes, start: UInt32, count: UInt32)
    }
    private var storage: Storage

    init(_ string: String) { storage = .string(string) }

    /// `bytes.bytes[range]`; ranges beyond 4 GiB are decoded at once.
    init(_ bytes: ParsedBytes, _ range: Range<Int>) {
        if let start = UInt32(exactly: range.lowerBound), let count = UInt32(exactly: range.count) {
            storage = .slice(bytes, start: start, count: count)
        } else {
            storage = .string(String(decoding: bytes.bytes[range], as: UTF8.self))
        }
    }

    var string: String {
        switch storage {
        case .string(let string): string
        case .slice(let bytes, let start, let count):
            bytes.bytes.withUnsafeBufferPointer { buffer in
                buffer.text(Int(start)..<Int(start) + Int(count))
            }
        }
    }

    /// Calls `body` with the UTF-8 bytes as stored (before any repair).
    private func withStoredUTF8<R>(_ body: (UnsafeBufferPointer<UInt8>) -> R) -> R {
        switch storage {
        case .string(var string): return string.withUTF8(body)
        case .slice(let bytes, let start, let count):
            return bytes.bytes.withUnsafeBufferPointer { buffer in
                body(UnsafeBufferPointer(rebasing: buffer[Int(start)..<Int(start) + Int(count)]))
            }
        }
    }

    static func == (lhs: ParsedText, rhs: ParsedText) -> Bool {
        if case .slice(let a, let aStart, let aCount) = lhs.storage,
            case .slice(let b, let bStart, let bCount) = rhs.storage, a === b && aStart == bStart && aCount == bCount
        {
            return true
        }
        // Equal bytes decode to equal strings; different ASCII bytes to different ones. Anything else (other
        // bytes that may be canonically equivalent, or repaired) is left to String's comparison.
        let decided: Bool? = lhs.withStoredUTF8 { a in
            rhs.withStoredUTF8 { b in
                if a.elementsEqual(b) { return true }
                return a.allSatisfy { $0 < 0x80 } && b.allSatisfy { $0 < 0x80 } ? false : nil
            }
        }
        return decided ?? (lhs.string == rhs.string)
    }

    func hash(into hasher: inout Hasher) { hasher.combine(string) }
}

/// The input bytes of one parse, shared by every ``ParsedText`` that points into them.
final class ParsedBytes: Sendable {
    let bytes: [UInt8]
    init(_ bytes: [UInt8]) { self.bytes = bytes }
}
