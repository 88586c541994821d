import HLS

/// What low-latency serving needs of one version of a live media playlist: the model (for delta updates), its
/// position (for blocking reloads) and the parts it hints at (for holding their requests).
struct LowLatencyPlaylist: Sendable {
    let playlist: MediaPlaylist
    let position: PlaylistPosition
    /// The preload hints' targets as paths below the served folder.
    let hintedParts: [String]

    /// Nil for a finished playlist, one with nothing low-latency about it, or one whose sequence numbers no
    /// player can count (see `PlaylistPosition`).
    init?(_ playlist: MediaPlaylist, key: String) {
        let control = playlist.serverControl
        guard !playlist.endList,
            control?.canBlockReload == true || control?.canSkipUntil != nil || !playlist.preloadHints.isEmpty,
            let position = PlaylistPosition(playlist)
        else { return nil }
        self.playlist = playlist
        self.position = position
        hintedParts = playlist.preloadHints.compactMap { Self.path(of: $0.uri, nextTo: key) }
    }

    /// How long a request may be held for this playlist before it is answered 503 (§6.2.5.2: three target
    /// durations).
    var holdSeconds: Double { 3 * position.targetDurationSeconds }

    /// `uri` resolved against the playlist at `key` (a path below the folder), when it stays a plain relative
    /// path there (no scheme, no query, no `..` above the folder).
    static func path(of uri: String, nextTo key: String) -> String? {
        guard !uri.isEmpty, !uri.contains(":"), !uri.contains("?"), !uri.contains("#"), !uri.hasPrefix("/"),
            !uri.contains("\\")
        else { return nil }
        var segments = key.split(separator: "/").dropLast().map(String.init)
        for part in uri.split(separator: "/", omittingEmptySubsequences: true) {
            switch part {
            case ".": continue
            case "..":
                guard !segments.isEmpty else { return nil }
                segments.removeLast()
            default: segments.append(String(part))
            }
        }
        return segments.joined(separator: "/")
    }
}
