/// A parsed or built HLS playlist: either a multivariant playlist or a media playlist.
public enum Playlist: Hashable, Sendable {
    case multivariant(MultivariantPlaylist)
    case media(MediaPlaylist)

    public enum Kind: String, Hashable, Sendable {
        case multivariant, media
    }

    public var kind: Kind {
        switch self {
        case .multivariant: .multivariant
        case .media: .media
        }
    }

    public var media: MediaPlaylist? {
        if case .media(let playlist) = self { return playlist }
        return nil
    }

    public var multivariant: MultivariantPlaylist? {
        if case .multivariant(let playlist) = self { return playlist }
        return nil
    }

    /// EXT-X-VERSION as declared.
    public var version: Int? {
        switch self {
        case .multivariant(let p): p.version
        case .media(let p): p.version
        }
    }

    /// Facts about the parsed text; nil for a playlist built in code.
    public var parseInfo: ParseInfo? {
        switch self {
        case .multivariant(let p): p.parseInfo
        case .media(let p): p.parseInfo
        }
    }
}
