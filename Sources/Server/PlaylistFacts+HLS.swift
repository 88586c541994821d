extension PlaylistFacts {
    /// The facts of a playlist's bytes; nil when they are not a playlist.
    init?(parsing bytes: [UInt8]) {
        return nil  // TODO: HLS parser (hls-core)
    }
}
