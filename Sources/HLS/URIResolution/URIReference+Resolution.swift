extension URIReference {
    /// What happens to the base's query when a relative reference does not carry its own.
    public enum QueryInheritance: Sendable, Hashable {
        /// Exactly RFC 3986 §5.2.2: the base query survives only for an empty-path reference (`""`, `#f`).
        case rfc3986
        /// Like `.rfc3986`, and additionally a reference without a query that resolves to the same scheme and
        /// authority as the base takes the base's query. Signed CDNs put the access token in the playlist
        /// URL's query (`master.m3u8?token=abc`) and expect it on every playlist and segment below it.
        /// A reference with its own query keeps it (the reference wins), and a reference to another origin
        /// never receives the token, so credentials do not leak to third parties.
        case carryToSameOrigin
    }

    /// Resolves this reference against `base` (RFC 3986 §5.2.2, strict: a scheme in the reference wins).
    ///
    ///     URIReference("720/index.m3u8?token=abc")
    ///         .resolved(against: URIReference("https://cdn.example.com/videos/master.m3u8?token=abc"))
    ///     // https://cdn.example.com/videos/720/index.m3u8?token=abc
    ///
    /// A base without a scheme is a file path: the same merge rules apply, and a relative base path
    /// (`playlists/master.m3u8`) keeps leading `..` segments that cannot be removed (`../x` stays `../x`).
    /// - Complexity: O(n) in the length of both paths.
    public func resolved(against base: URIReference, queryInheritance: QueryInheritance = .rfc3986)
        -> URIReference
    {
        var target = URIReference(path: "")
        if let scheme {
            target.scheme = scheme
            target.authority = authority
            target.path = Self.removingDotSegments(path)
            target.query = query
        } else {
            if let authority {
                target.authority = authority
                target.path = Self.removingDotSegments(path)
                target.query = query
            } else {
                if path.isEmpty {
                    target.path = base.path
                    target.query = query ?? base.query
                } else {
                    if path.hasPrefix("/") {
                        target.path = Self.removingDotSegments(path)
                    } else {
                        target.path = Self.removingDotSegments(Self.merge(base: base, path))
                    }
                    target.query = query
                }
                target.authority = base.authority
            }
            target.scheme = base.scheme
        }
        target.fragment = fragment
        if queryInheritance == .carryToSameOrigin, query == nil, target.query == nil,
            target.scheme?.lowercased() == base.scheme?.lowercased(),
            target.authority?.lowercased() == base.authority?.lowercased()
        {
            target.query = base.query
        }
        return target
    }

    /// RFC 3986 §5.2.3: the reference's path appended to the base path without its last segment.
    private static func merge(base: URIReference, _ path: String) -> String {
        if base.authority != nil && base.path.isEmpty { return "/" + path }
        guard let lastSlash = base.path.lastIndex(of: "/") else { return path }
        return base.path[...lastSlash] + path
    }

    /// RFC 3986 §5.2.4 `remove_dot_segments`, written over segments instead of the RFC's string buffer.
    ///
    /// For an absolute path the result is the RFC's exactly. For a relative path (a relative file base),
    /// `..` segments that would climb above the start are kept, since there is no root to clamp to.
    static func removingDotSegments(_ path: String) -> String {
        guard path.contains(".") else { return path }
        let isAbsolute = path.hasPrefix("/")
        var input = path.split(separator: "/", omittingEmptySubsequences: false)
        if isAbsolute { input.removeFirst() }
        var output: [Substring] = []
        // A trailing "." or ".." names a directory, so the result ends with "/".
        var endsWithSlash = false
        for (index, segment) in input.enumerated() {
            let isLast = index == input.count - 1
            switch segment {
            case ".":
                endsWithSlash = isLast
            case "..":
                if let last = output.last, last != ".." || isAbsolute {
                    output.removeLast()
                } else if !isAbsolute {
                    output.append(segment)
                }
                endsWithSlash = isLast
            default:
                output.append(segment)
                endsWithSlash = false
            }
        }
        var result = (isAbsolute ? "/" : "") + output.joined(separator: "/")
        if endsWithSlash && !output.isEmpty { result += "/" }
        return result
    }
}

extension URIReference {
    /// Resolves a URI as written in a playlist against the playlist's own location (a URL or a file path),
    /// carrying the playlist's query (e.g. a CDN token) to same-origin references that have none.
    ///
    ///     URIReference.resolve("720/index.m3u8", against: "https://cdn.example.com/videos/master.m3u8?token=abc")
    ///     // "https://cdn.example.com/videos/720/index.m3u8?token=abc"
    ///     URIReference.resolve("subs/ko.m3u8", against: "/srv/hls/master.m3u8")   // "/srv/hls/subs/ko.m3u8"
    public static func resolve(
        _ reference: String, against base: String, queryInheritance: QueryInheritance = .carryToSameOrigin
    ) -> String {
        URIReference(reference).resolved(against: URIReference(base), queryInheritance: queryInheritance)
            .description
    }
}
