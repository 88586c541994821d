import Synchronization

/// Playlists read from the served folder, parsed once per version of the file (inode, size, modification
/// time) and kept for the next request: the cache rule needs to know whether a playlist is live, and signed
/// serving rewrites its URIs.
final class PlaylistLibrary: Sendable {
    /// One version of one playlist file.
    struct Entry: Sendable {
        var bytes: [UInt8]
        /// nil when the bytes are not a playlist the `HLS` parser accepts.
        var facts: PlaylistFacts?
        var stamp: FileStamp

        /// The playlist with `token=` added to every URI in it that stays within the video (see `TokenRewriter`).
        func appendingToken(_ token: String, directory: [String], root: [String]) -> [UInt8] {
            TokenRewriter.appendingToken(token, to: bytes, directory: directory, root: root)
        }
    }

    /// Entries kept at most; the cache is emptied when it fills (playlists are small and cheap to re-read).
    static let capacity = 4096
    /// Longest playlist read (a 12-hour VOD playlist of 2 s segments is about 1.5 MB).
    static let maximumBytes = 16 << 20

    private let entries = Mutex<[String: Entry]>([:])

    /// True when the version of `file` is already parsed and kept under `key`.
    func holds(_ file: ServedFolder.File, key: String) -> Bool {
        entries.withLock { $0[key]?.stamp == file.stamp }
    }

    /// The entry for `file`, found under `key` (its path below the folder).
    func playlist(_ file: ServedFolder.File, key: String) -> Entry {
        let stamp = file.stamp
        if let cached = entries.withLock({ $0[key] }), cached.stamp == stamp { return cached }
        let bytes = file.handle.read(offset: 0, count: Int(min(file.size, Int64(Self.maximumBytes))))
        let entry = Entry(bytes: bytes, facts: PlaylistFacts(parsing: bytes), stamp: stamp)
        // A file changed while it was read (rewritten in place rather than renamed into place) may be torn:
        // answer with it (the stamp keeps it from being reused) but do not keep it.
        guard FileStamp(of: file.handle) == stamp else { return entry }
        entries.withLock { entries in
            if entries.count >= Self.capacity { entries.removeAll(keepingCapacity: true) }
            entries[key] = entry
        }
        return entry
    }
}
