extension URIReference {
    /// `text` with every `%XX` escape replaced by its byte (RFC 3986 §2.1), or nil when an escape is malformed
    /// (`%` not followed by two hexadecimal digits) or the decoded bytes are not UTF-8. `+` stays `+`: it means
    /// a space only in form-encoded queries, not in a path.
    ///
    ///     URIReference.percentDecoded("a%20b/c%2Fd")  // "a b/c/d"
    ///     URIReference.percentDecoded("100%")         // nil
    public static func percentDecoded<Text: Collection<UInt8>>(_ text: Text) -> String? {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(text.count)
        var index = text.startIndex
        while index != text.endIndex {
            let byte = text[index]
            text.formIndex(after: &index)
            guard byte == UInt8(ascii: "%") else {
                bytes.append(byte)
                continue
            }
            guard index != text.endIndex, let high = PlaylistParser.hexValue(text[index]) else { return nil }
            text.formIndex(after: &index)
            guard index != text.endIndex, let low = PlaylistParser.hexValue(text[index]) else { return nil }
            text.formIndex(after: &index)
            bytes.append(high << 4 | low)
        }
        return String(validating: bytes, as: UTF8.self)
    }

    /// The same for a string.
    public static func percentDecoded(_ text: String) -> String? { percentDecoded(text.utf8) }
}
