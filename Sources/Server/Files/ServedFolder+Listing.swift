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

    private func collect(relativeFolder: String, depth: Int, maximumDepth: Int, suffix: String, into found: inout [String]) {
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
                    collect(relativeFolder: relative, depth: depth + 1, maximumDepth: maximumDepth, suffix: suffix, into: &found)
                }
            case Int32(DT_REG):
                if name.hasSuffix(suffix) { found.append(relative) }
            default:
                break
            }
        }
    }
}

extension NginxConfig {
    /// The server block for `configuration`, with an exact rule for every playlist now in the folder.
    public static func serverBlock(for configuration: ServerConfiguration) throws(ServerError) -> String {
        let folder = try ServedFolder(path: configuration.root)
        // `root` is the one place the block names a path nginx expands variables in (`location =` does not).
        guard !folder.path.contains("$") else { throw .nginxUnsafePath(folder.path) }
        let playlists = folder.relativePaths(endingWith: ".m3u8").map { relativePath in
            let segments = relativePath.split(separator: "/").map(String.init)
            let facts = folder.open(segments).flatMap { file in
                PlaylistFacts(parsing: file.handle.read(offset: 0, count: Int(min(file.size, 16 << 20))))
            }
            return Playlist(relativePath: relativePath, facts: facts)
        }
        return serverBlock(
            root: folder.path, host: configuration.host, port: configuration.port,
            cors: CORSPolicy(allowedOrigin: configuration.corsOrigin), playlists: playlists,
            tokensConfigured: configuration.tokenSecret != nil)
    }
}
