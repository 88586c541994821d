/// Cross-origin rules: which origin may read our responses, and the answer to a preflight `OPTIONS`.
///
/// Every response carries `Access-Control-Allow-Origin` (default `*`) and exposes `Content-Length` and
/// `Content-Range` to scripts (hls.js reads them). With a restricted origin the header names that origin and
/// `Vary: Origin` is added.
public struct CORSPolicy: Sendable, Hashable {
    /// `*` or one origin such as `https://app.example`.
    public var allowedOrigin: String

    public static let allowedMethods = "GET, HEAD, OPTIONS"
    public static let allowedHeaders = "Range, If-None-Match, If-Modified-Since, Origin, Accept"
    public static let exposedHeaders = "Content-Length, Content-Range"
    public static let preflightMaxAgeSeconds = 86_400

    public init(allowedOrigin: String = "*") { self.allowedOrigin = allowedOrigin }

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
