/// The `Cache-Control` value for each kind of response, so browsers and CDNs cache what never changes for a
/// year and re-fetch live playlists in time for the next segment.
///
/// | what | Cache-Control |
/// |---|---|
/// | live media playlist (no EXT-X-ENDLIST) | `public, max-age=⌊target duration / 2⌋` (0 below 2 s) |
/// | finished media playlist | `public, max-age=60` |
/// | multivariant playlist | `public, max-age=10` |
/// | segments, init sections, subtitles | `public, max-age=31536000, immutable` |
/// | posters, metadata, other files | `public, max-age=60` |
/// | API answers, the index page, errors | `no-cache` |
/// | content keys (`/v1/videos/{id}/keys/{n}.key`) | `private, no-store` |
/// | a blocking playlist reload's answer (`_HLS_msn`) | `public, max-age=6 × target duration` |
/// | a file not found below a video (a live stream's next part, until it is published) | `public, max-age=1` |
///
/// An answer that carries a viewer's token (with signed URLs: a playlist rewritten for the token, the catalogue
/// and stream answers, the index page) is `private` instead of `public` (``carryingToken(_:)``), so no shared
/// cache keeps a token to hand to someone else.
public enum CachePolicy {
    public static let immutable = "public, max-age=31536000, immutable"
    public static let finishedPlaylist = "public, max-age=60"
    public static let multivariantPlaylist = "public, max-age=10"
    public static let otherFile = "public, max-age=60"
    public static let dynamic = "no-cache"
    public static let missingFile = "public, max-age=1"
    /// A content key: for this viewer only, never kept by a browser or shared cache.
    public static let key = "private, no-store"

    /// `value` for an answer that carries a viewer's token: `public` becomes `private`, and anything else is
    /// prefixed with `private`.
    public static func carryingToken(_ value: String) -> String {
        if value.hasPrefix("public") { return "private" + value.dropFirst("public".count) }
        return value.hasPrefix("private") ? value : "private, " + value
    }

    /// A blocking reload's answer: the same request URL always gets the same version, so it may be cached for
    /// six target durations (RFC 8216bis Appendix B.1), at most 2³¹ seconds (what a cache must take a larger
    /// delta-seconds for, RFC 9111 §1.2.2).
    public static func blockingPlaylist(targetDurationSeconds: Double) -> String {
        "public, max-age=\(max(0, min(Int(saturating: (6 * targetDurationSeconds).rounded()), 1 << 31)))"
    }

    /// The seconds a live media playlist may be cached: at most half its target duration, so a client never
    /// misses a whole segment interval (and at most 2³¹, RFC 9111 §1.2.2).
    public static func liveMaxAgeSeconds(targetDurationSeconds: Int) -> Int {
        max(0, min(targetDurationSeconds / 2, 1 << 31))
    }

    /// The header value for a file of `kind`; playlists need their parsed `facts` (nil: treated as live with an
    /// unknown target duration, `max-age=0`).
    public static func cacheControl(for kind: FileKind, playlist facts: PlaylistFacts? = nil) -> String {
        switch kind {
        case .segment, .initSection, .subtitles:
            return immutable
        case .playlist:
            switch facts?.kind {
            case .multivariant: return multivariantPlaylist
            case .media(ended: true, _): return finishedPlaylist
            case .media(ended: false, let target):
                return "public, max-age=\(liveMaxAgeSeconds(targetDurationSeconds: target))"
            case nil: return "public, max-age=0"
            }
        case .image, .json, .other:
            return otherFile
        case .html:
            return dynamic
        }
    }
}
