/// The request target of a request line, in one of the forms RFC 9112 §3.2 allows a server to receive:
///
///     /v1/videos?limit=2                  origin-form: path and query
///     http://example.com:8080/a.m3u8      absolute-form (§3.2.2: a server MUST accept it; its authority replaces Host)
///     *                                   asterisk-form (OPTIONS only)
///
/// The bytes have already been checked to be visible ASCII (no control byte, space or byte above 0x7e).
public struct RequestTarget: Sendable, Hashable {
    /// The path as sent (percent-escapes intact), starting with `/`; `*` for the asterisk form.
    public var rawPath: String
    /// The query as sent, without the `?` (empty when absent).
    public var rawQuery: String
    /// The authority of an absolute-form target (`example.com:8080`), nil for the other forms.
    public var authority: String?

    public init(rawPath: String, rawQuery: String = "", authority: String? = nil) {
        self.rawPath = rawPath
        self.rawQuery = rawQuery
        self.authority = authority
    }

    /// Parses `text`; refuses userinfo, schemes other than http/https, a bad authority and unknown forms.
    public static func parse(_ text: Substring) -> Result<RequestTarget, RequestRefusal> {
        if text == "*" { return .success(RequestTarget(rawPath: "*")) }
        if text.hasPrefix("/") { return .success(split(text, authority: nil)) }
        guard let schemeEnd = text.firstIndex(of: ":") else {
            return .failure(.badRequest("the request target is neither a path nor an absolute URL"))
        }
        let scheme = text[..<schemeEnd].lowercased()
        guard scheme == "http" || scheme == "https" else {
            return .failure(.badRequest("the request target's scheme is not http or https"))
        }
        let rest = text[text.index(after: schemeEnd)...]
        guard rest.hasPrefix("//") else { return .failure(.badRequest("the absolute URL has no authority")) }
        let afterSlashes = rest.dropFirst(2)
        let authorityEnd = afterSlashes.firstIndex { $0 == "/" || $0 == "?" } ?? afterSlashes.endIndex
        let authority = afterSlashes[..<authorityEnd]
        guard !authority.contains("@") else { return .failure(.badRequest("user information in the request target")) }
        guard HostSyntax.isValidAuthority(authority), !authority.isEmpty else {
            return .failure(.badRequest("the request target's host is malformed"))
        }
        var pathAndQuery = afterSlashes[authorityEnd...]
        if pathAndQuery.isEmpty || pathAndQuery.hasPrefix("?") {
            pathAndQuery = Substring("/" + pathAndQuery)
        }
        return .success(split(pathAndQuery, authority: String(authority)))
    }

    private static func split(_ text: Substring, authority: String?) -> RequestTarget {
        guard let question = text.firstIndex(of: "?") else {
            return RequestTarget(rawPath: String(text), authority: authority)
        }
        return RequestTarget(
            rawPath: String(text[..<question]), rawQuery: String(text[text.index(after: question)...]),
            authority: authority)
    }
}

/// The syntax of `Host` and of an absolute target's authority (RFC 9110 §7.2, RFC 3986 §3.2.2): a registered
/// name (unreserved, sub-delims, percent-escapes), an IPv4 address, or an IP literal in brackets, then an
/// optional `:port` of up to five digits.
public enum HostSyntax {
    public static func isValidAuthority(_ text: Substring) -> Bool {
        var host = text
        if let bracketEnd = text.firstIndex(of: "]"), text.hasPrefix("[") {
            let literal = text[text.index(after: text.startIndex)..<bracketEnd]
            guard !literal.isEmpty, literal.allSatisfy({ $0.isHexDigit || $0 == ":" || $0 == "." }) else {
                return false
            }
            let after = text[text.index(after: bracketEnd)...]
            return after.isEmpty || isPort(after)
        }
        if let colon = text.lastIndex(of: ":") {
            guard isPort(text[colon...]) else { return false }
            host = text[..<colon]
        }
        return host.utf8.allSatisfy(isRegisteredNameByte)
    }

    /// `:` followed by at most five digits (an empty port is allowed by RFC 3986).
    private static func isPort(_ text: Substring) -> Bool {
        text.first == ":" && text.count <= 6 && text.dropFirst().allSatisfy { $0.isASCII && $0.isNumber }
    }

    private static func isRegisteredNameByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"):
            true
        case UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"), UInt8(ascii: "%"),
            UInt8(ascii: "!"), UInt8(ascii: "$"), UInt8(ascii: "&"), UInt8(ascii: "'"), UInt8(ascii: "("),
            UInt8(ascii: ")"), UInt8(ascii: "*"), UInt8(ascii: "+"), UInt8(ascii: ","), UInt8(ascii: ";"),
            UInt8(ascii: "="):
            true
        default: false
        }
    }
}
