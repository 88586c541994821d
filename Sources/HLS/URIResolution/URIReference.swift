/// A URI reference split into its five RFC 3986 components, without decoding or normalising anything.
///
/// Splitting follows RFC 3986 Appendix B (`^(([^:/?#]+):)?(//([^/?#]*))?([^?#]*)(\?([^#]*))?(#(.*))?`):
/// a component that is absent is `nil`, one that is present but empty is `""` (so `x?` keeps an empty
/// query, which matters for resolution). Works for URLs (`https://cdn/x.m3u8?token=1`), network-path
/// references (`//host/x`), relative references (`../720/index.m3u8`) and plain file paths
/// (`/srv/hls/master.m3u8`, `playlists/master.m3u8`), which are path-only references.
///
///     let ref = URIReference("https://cdn.example.com/v/master.m3u8?token=abc")
///     // ref.scheme == "https", ref.authority == "cdn.example.com", ref.path == "/v/master.m3u8",
///     // ref.query == "token=abc", ref.fragment == nil
///
/// Not handled: percent-decoding, IDNA, case normalisation of scheme or host, and Windows paths.
public struct URIReference: Hashable, Sendable, CustomStringConvertible {
    public var scheme: String?
    public var authority: String?
    public var path: String
    public var query: String?
    public var fragment: String?

    public init(
        scheme: String? = nil, authority: String? = nil, path: String, query: String? = nil,
        fragment: String? = nil
    ) {
        self.scheme = scheme
        self.authority = authority
        self.path = path
        self.query = query
        self.fragment = fragment
    }

    /// Splits `text` into components (never fails: every string is some URI reference).
    public init(_ text: String) {
        var rest = Substring(text)
        if let fragmentStart = rest.firstIndex(of: "#") {
            fragment = String(rest[rest.index(after: fragmentStart)...])
            rest = rest[..<fragmentStart]
        }
        if let queryStart = rest.firstIndex(of: "?") {
            query = String(rest[rest.index(after: queryStart)...])
            rest = rest[..<queryStart]
        }
        // A scheme is the text before the first ":" when no "/" comes before it.
        if let colon = rest.firstIndex(where: { $0 == ":" || $0 == "/" }), rest[colon] == ":",
            colon != rest.startIndex, Self.isValidScheme(rest[..<colon])
        {
            scheme = String(rest[..<colon])
            rest = rest[rest.index(after: colon)...]
        }
        if rest.hasPrefix("//") {
            let afterSlashes = rest.index(rest.startIndex, offsetBy: 2)
            let authorityEnd = rest[afterSlashes...].firstIndex(of: "/") ?? rest.endIndex
            authority = String(rest[afterSlashes..<authorityEnd])
            rest = rest[authorityEnd...]
        }
        path = String(rest)
    }

    /// `ALPHA *( ALPHA / DIGIT / "+" / "-" / "." )` (RFC 3986 §3.1).
    private static func isValidScheme(_ text: Substring) -> Bool {
        guard let first = text.unicodeScalars.first, first.isASCII, first.properties.isAlphabetic else {
            return false
        }
        return text.unicodeScalars.allSatisfy {
            $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || "+-.".unicodeScalars.contains($0))
        }
    }

    /// True when the reference names its own scheme (an absolute URI such as `https://…` or `data:…`).
    public var isAbsolute: Bool { scheme != nil }

    /// Recomposes the reference (RFC 3986 §5.3).
    public var description: String {
        var text = ""
        if let scheme { text += scheme + ":" }
        if let authority { text += "//" + authority }
        text += path
        if let query { text += "?" + query }
        if let fragment { text += "#" + fragment }
        return text
    }
}
