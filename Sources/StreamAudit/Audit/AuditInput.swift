import HLS

/// What the audit reads: the parsed playlists and, for each segment, what loading and probing it gave.
public struct AuditInput: Sendable {
    /// Nil when a media playlist was given directly.
    public var multivariant: MultivariantPlaylist?
    public var playlists: [AuditedPlaylist]

    public init(multivariant: MultivariantPlaylist?, playlists: [AuditedPlaylist]) {
        self.multivariant = multivariant
        self.playlists = playlists
    }

    public func playlist(uri: String) -> AuditedPlaylist? { playlists.first { $0.uri == uri } }
}

/// One media playlist and its segments' observations.
public struct AuditedPlaylist: Sendable {
    public enum Role: Sendable {
        case variant(Variant)
        case iFrameVariant(IFrameVariant)
        case rendition(Rendition)
        /// A media playlist given on its own.
        case standalone
    }

    /// As the multivariant playlist writes it (or the location given).
    public var uri: String
    /// Where it was loaded from (URL or path): segment URIs resolve against it.
    public var location: String
    public var role: Role
    public var playlist: MediaPlaylist
    /// One per segment of `playlist`, in order.
    public var segments: [SegmentObservation]

    public init(uri: String, location: String, role: Role, playlist: MediaPlaylist, segments: [SegmentObservation]) {
        self.uri = uri
        self.location = location
        self.role = role
        self.playlist = playlist
        self.segments = segments
    }

    public var isLive: Bool { !playlist.endList && playlist.playlistType != .vod }

    /// True when the playlist lists the presentation from its start (VOD, EVENT, or a first media sequence
    /// number of 0); false for a sliding live window, whose segments are only the latest part.
    public var holdsWholePresentation: Bool {
        playlist.playlistType == .vod || playlist.playlistType == .event || playlist.firstMediaSequenceNumber == 0
    }
}

/// What became of one segment.
public struct SegmentObservation: Sendable {
    public enum Outcome: Sendable {
        /// Demuxed: the facts.
        case measured(SegmentFacts)
        /// A WebVTT segment, parsed.
        case subtitles(WebVTTDocument?)
        /// Could not be loaded or demuxed: why.
        case unreadable(String)
        /// Encrypted and its key unusable: why.
        case keyUnusable(String)
        /// Encrypted with a usable key but no decryptor was given: loaded, not probed.
        case encrypted
        /// Left out by `--segments N`.
        case notSampled
    }

    public var outcome: Outcome
    /// The segment's bytes (its range, when it has one), when loaded.
    public var byteCount: Int?

    public init(_ outcome: Outcome, byteCount: Int? = nil) {
        self.outcome = outcome
        self.byteCount = byteCount
    }

    public var facts: SegmentFacts? {
        if case .measured(let facts) = outcome { return facts }
        return nil
    }
}
