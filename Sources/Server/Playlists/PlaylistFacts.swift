/// What the cache rule needs to know about a playlist: multivariant or media, finished (EXT-X-ENDLIST) or live,
/// and its target duration.
public struct PlaylistFacts: Sendable, Hashable {
    public enum Kind: Sendable, Hashable {
        /// A multivariant ("master") playlist.
        case multivariant
        /// A media playlist; `ended` when it carries EXT-X-ENDLIST (VOD or a finished recording).
        case media(ended: Bool, targetDurationSeconds: Int)
    }

    public var kind: Kind

    public init(kind: Kind) { self.kind = kind }

    public static let multivariant = PlaylistFacts(kind: .multivariant)

    public static func media(ended: Bool, targetDurationSeconds: Int) -> PlaylistFacts {
        PlaylistFacts(kind: .media(ended: ended, targetDurationSeconds: targetDurationSeconds))
    }
}
