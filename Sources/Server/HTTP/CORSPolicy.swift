/// Cross-origin rules: which origin may read our responses, and the answer to a preflight `OPTIONS`.
///
/// Every response carries `Access-Control-Allow-Origin` (default `*`) and exposes `Content-Length` and
/// `Content-Range` to scripts (hls.js reads them). With a restricted origin the header names that origin and
/// `Vary: Origin` is added.
public struct CORSPolicy: Sendable, Hashable {
    /// `*` or one origin such as `https://app.example`.
    public var allowedOrigin: String

    public static let allowedMethods = "GET, HEAD, OPTIONS"
    public static let allowedHeaders = "Range, If-None-Match, If-Modified-Since, Origin, Accept, X-API-Key"
    public static let exposedHeaders = "Content-Length, Content-Range"
    public static let preflightMaxAgeSeconds = 86_400

    public init(allowedOrigin: String = "*") { self.allowedOrigin = allowedOrigin }

    /// True for what `Access-Control-Allow-Origin` may carry: `*`, `null`, or one serialised origin
    /// (`scheme://host[:port]`, no path). Anything else would be dropped by the HTTP library or break the
    /// generated nginx block (quotes, spaces, line breaks), silently leaving players without CORS.
    public static func isValidOrigin(_ origin: String) -> Bool {
        if origin == "*" || origin == "null" { return true }
        guard let separator = origin.range(of: "://") else { return false }
        let scheme = origin[..<separator.lowerBound].utf8
        let authority = origin[separator.upperBound...].utf8
        func isLetterOrDigit(_ byte: UInt8) -> Bool {
            (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte | 0x20)
                || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
        }
        guard let first = scheme.first, (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(first | 0x20) else {
            return false
        }
        return scheme.allSatisfy { isLetterOrDigit($0) || "+-.".utf8.contains($0) }
            && !authority.isEmpty && authority.allSatisfy { isLetterOrDigit($0) || "-._~:[]".utf8.contains($0) }
    }

    /// Headers added to every response.
    public var headers: [(String, String)] {
        var headers = [
            ("Access-Control-Allow-Origin", allowedOrigin),
            ("Access-Control-Expose-Headers", Self.exposedHeaders),
        ]
        if allowedOrigin != "*" { headers.append(("Vary", "Origin")) }
        return headers
    }

    /// Extra headers of a 204 answer to `OPTIONS`.
    public var preflightHeaders: [(String, String)] {
        [
            ("Access-Control-Allow-Methods", Self.allowedMethods),
            ("Access-Control-Allow-Headers", Self.allowedHeaders),
            ("Access-Control-Max-Age", String(Self.preflightMaxAgeSeconds)),
            ("Allow", Self.allowedMethods),
        ]
    }
}
