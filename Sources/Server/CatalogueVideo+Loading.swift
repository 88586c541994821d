extension CatalogueVideo {
    /// A video read from its folder, with the files (relative paths) whose changes make it stale.
    struct Loaded: Sendable {
        var video: CatalogueVideo
        var dependencies: [String]
    }

    /// Reads the video in folder `id`: its master playlist, first media playlist, `filter.json` and poster.
    static func load(id: String, from folder: ServedFolder) -> Loaded? {
        nil  // TODO: HLS parser (hls-core)
    }
}
