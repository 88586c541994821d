import Notation

/// One request as the rules see it: the method, the path and query exactly as sent (nothing decoded yet), and
/// the request headers the server acts on.
public struct HTTPRequest: Sendable, Hashable {
    public var method: String
    /// The path as sent, before any percent-decoding (`PathGuard` decodes it once).
    public var rawPath: String
    /// The query string as sent, without the `?` (empty when absent).
    public var rawQuery: String
    /// Request headers by lower-case name (only the last value of each is kept).
    public var headers: [String: String]

    public init(method: String, rawPath: String, rawQuery: String = "", headers: [String: String] = [:]) {
        self.method = method
        self.rawPath = rawPath
        self.rawQuery = rawQuery
        self.headers = headers
    }

    /// A request line target such as `/a/b.m3u8?token=x`, split at the first `?`.
    public init(method: String, target: String, headers: [String: String] = [:]) {
        if let question = target.firstIndex(of: "?") {
            self.init(
                method: method, rawPath: String(target[..<question]),
                rawQuery: String(target[target.index(after: question)...]), headers: headers)
        } else {
            self.init(method: method, rawPath: target, headers: headers)
        }
    }

    /// The header `name` (lower case), if sent.
    public func header(_ name: String) -> String? { headers[name] }

    /// True for a GET or HEAD whose headers ask for no part and no condition (Range, If-Range, If-None-Match,
    /// If-Modified-Since, If-Match, If-Unmodified-Since): its answer depends only on the target (and on the
    /// coding accepted).
    public var isUnconditional: Bool {
        (method == "GET" || method == "HEAD")
            && headers["range"] == nil && headers["if-range"] == nil && headers["if-none-match"] == nil
            && headers["if-modified-since"] == nil && headers["if-match"] == nil
            && headers["if-unmodified-since"] == nil
    }

    /// True when the request `isUnconditional` and its query is empty or a lone `token`: the answer for a file is
    /// then its whole 200, the same for every such request. (Other queries are not worth keeping answers for,
    /// and would let a client fill memory with `?1`, `?2`, ….)
    public var canReuseAnswer: Bool {
        isUnconditional && (rawQuery.isEmpty || (rawQuery.hasPrefix("token=") && !rawQuery.contains("&")))
    }

    /// The `token` parameter when the query holds exactly one, name and value spelled the one way they are
    /// written (the value digits, `.` and hex digits; no escape); nil otherwise. One spelling per token keeps a signed URL from being varied
    /// into many cache keys (`%31` for `1`), and a second `token` from being read one way here and another way by
    /// a cache in front.
    public var signedToken: String? {
        var found: Substring?
        for pair in rawQuery.split(separator: "&", omittingEmptySubsequences: true) {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            guard PercentEncoding.formDecoded(parts[0].utf8, malformed: .refuse) == "token" else { continue }
            guard parts[0] == "token", found == nil, parts.count == 2 else { return nil }
            found = parts[1]
        }
        guard let found, found.allSatisfy({ $0.isASCII && ($0.isHexDigit || $0 == ".") }) else { return nil }
        return String(found)
    }

    /// The decoded query parameters (`+` is a space); the first occurrence of a name wins. Nil for a malformed
    /// escape or invalid UTF-8.
    public var queryParameters: [String: String]? {
        var parameters: [String: String] = [:]
        for pair in rawQuery.split(separator: "&", omittingEmptySubsequences: true) {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            guard let name = PercentEncoding.formDecoded(parts[0].utf8, malformed: .refuse) else { return nil }
            guard let value = parts.count > 1 ? PercentEncoding.formDecoded(parts[1].utf8, malformed: .refuse) : ""
            else {
                return nil
            }
            if parameters[name] == nil { parameters[name] = value }
        }
        return parameters
    }
}
