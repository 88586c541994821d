#if canImport(Glibc)
    import Glibc
#endif

extension ServedFolder {
    /// Paths (relative, `/`-separated) of the non-hidden regular files down to `maximumDepth` folders deep
    /// whose name ends with `suffix`, sorted.
    public func relativePaths(endingWith suffix: String, maximumDepth: Int = 4) -> [String] {
        var found: [String] = []
        collect(relativeFolder: "", depth: 0, maximumDepth: maximumDepth, suffix: suffix, into: &found)
        return found.sorted()
    }

    private func collect(
        relativeFolder: String, depth: Int, maximumDepth: Int, suffix: String, into found: inout [String]
    ) {
        let absolute = relativeFolder.isEmpty ? path : path + "/" + relativeFolder
        guard let directory = opendir(absolute) else { return }
        defer { closedir(directory) }
        while let entry = readdir(directory) {
            let name = withUnsafePointer(to: entry.pointee.d_name) {
                $0.withMemoryRebound(to: CChar.self, capacity: Int(NAME_MAX) + 1) { String(cString: $0) }
            }
            guard !name.hasPrefix(".") else { continue }
            let relative = relativeFolder.isEmpty ? name : relativeFolder + "/" + name
            switch Int32(entry.pointee.d_type) {
            case Int32(DT_DIR):
                if depth < maximumDepth {
                    collect(
                        relativeFolder: relative, depth: depth + 1, maximumDepth: maximumDepth, suffix: suffix,
                        into: &found)
                }
            case Int32(DT_REG):
                if name.hasSuffix(suffix) { found.append(relative) }
            default:
                break
            }
        }
    }
}

extension ServedFolder {
    /// Every playlist now below the folder, with what its content says (nil facts: not a playlist).
    func playlists() -> [(relativePath: String, facts: PlaylistFacts?)] {
        relativePaths(endingWith: ".m3u8").map { relativePath in
            let segments = relativePath.split(separator: "/").map(String.init)
            let facts = open(segments).flatMap { file in
                PlaylistFacts(
                    parsing: file.handle.read(
                        offset: 0, count: Int(min(file.size, Int64(PlaylistLibrary.maximumBytes)))))
            }
            return (relativePath, facts)
        }
    }
}

extension NginxConfig {
    /// The server block for `configuration`, with an exact rule for every playlist now in the folder.
    public static func serverBlock(for configuration: ServerConfiguration) throws(ServerError) -> String {
        let folder = try ServedFolder(path: configuration.root)
        // `root` is the one place the block names a path nginx expands variables in (`location =` does not).
        guard !folder.path.contains("$") else { throw .nginxUnsafePath(folder.path) }
        let playlists = folder.playlists().map { Playlist(relativePath: $0.relativePath, facts: $0.facts) }
        return serverBlock(
            root: folder.path, host: configuration.host, port: configuration.port,
            cors: CORSPolicy(allowedOrigin: configuration.corsOrigin), playlists: playlists,
            tokensConfigured: configuration.tokenSecret != nil)
    }
}

extension NginxEdgeConfig {
    /// The edge block for an origin serving `configuration.root` at `upstream`, listening where `configuration`
    /// says; its timeouts cover three times the longest target duration now in the folder (6 s if none).
    public static func serverBlock(
        for configuration: ServerConfiguration, upstream: String, certificate: String?, key: String?,
        cacheFolder: String
    ) throws(ServerError) -> String {
        let folder = try ServedFolder(path: configuration.root)
        var longestTarget = 6
        for playlist in folder.playlists() {
            if case .media(_, let target) = playlist.facts?.kind { longestTarget = max(longestTarget, target) }
        }
        let host = configuration.host.contains(":") ? "[\(configuration.host)]" : configuration.host
        return serverBlock(
            upstream: upstream, listen: "\(host):\(configuration.port)", certificate: certificate, key: key,
            cacheFolder: cacheFolder, longestHoldSeconds: 3 * Double(longestTarget))
    }
}
