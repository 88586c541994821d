/// Percent-encoding (RFC 3986 §2.1) and form encoding (`application/x-www-form-urlencoded`) read back: what a
/// playlist's URIs and variables, a WebVTT file's and an HTTP request's targets need.
public enum PercentEncoding {
    /// `text` with every `%XX` escape replaced by its byte (RFC 3986 §2.1), or nil when an escape is malformed
    /// (`%` not followed by two hexadecimal digits) or the decoded bytes are not UTF-8. `+` stays `+`: it means
    /// a space only in form-encoded queries, not in a path.
    ///
    ///     PercentEncoding.percentDecoded("a%20b/c%2Fd")  // "a b/c/d"
    ///     PercentEncoding.percentDecoded("100%")         // nil
    public static func percentDecoded<Text: Collection<UInt8>>(_ text: Text) -> String? {
        decoded(text, plusIsSpace: false, malformed: .refuse)
    }

    /// The same for a string.
    public static func percentDecoded(_ text: String) -> String? { percentDecoded(text.utf8) }

    /// How `formDecoded` reads an escape that is not `%` and two hexadecimal digits, and bytes that are not
    /// UTF-8: refused (a server's reading of a request) or kept (a player's: the escape as written, U+FFFD).
    public enum Malformed: Sendable { case refuse, keep }

    /// A component of a form-encoded query (`application/x-www-form-urlencoded`): `+` is a space and `%XX` its
    /// byte. Nil only with `.refuse`, for a malformed escape or bytes that are not UTF-8.
    ///
    ///     PercentEncoding.formDecoded("a+b%21".utf8, malformed: .refuse)  // "a b!"
    ///     PercentEncoding.formDecoded("100%".utf8, malformed: .keep)      // "100%"
    public static func formDecoded<Text: Collection<UInt8>>(_ text: Text, malformed: Malformed) -> String? {
        decoded(text, plusIsSpace: true, malformed: malformed)
    }

    private static func decoded<Text: Collection<UInt8>>(
        _ text: Text, plusIsSpace: Bool, malformed: Malformed
    ) -> String? {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(text.count)
        var index = text.startIndex
        while index != text.endIndex {
            let byte = text[index]
            text.formIndex(after: &index)
            if plusIsSpace && byte == UInt8(ascii: "+") {
                bytes.append(UInt8(ascii: " "))
            } else if byte == UInt8(ascii: "%") {
                var digits = index
                if digits != text.endIndex, let high = hexValue(text[digits]) {
                    text.formIndex(after: &digits)
                    if digits != text.endIndex, let low = hexValue(text[digits]) {
                        text.formIndex(after: &digits)
                        bytes.append(high << 4 | low)
                        index = digits
                        continue
                    }
                }
                guard malformed == .keep else { return nil }
                bytes.append(byte)
            } else {
                bytes.append(byte)
            }
        }
        switch malformed {
        case .refuse: return String(validating: bytes, as: UTF8.self)
        case .keep: return String(decoding: bytes, as: UTF8.self)
        }
    }

    /// The value of one hexadecimal digit (either case), or nil.
    public static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}
