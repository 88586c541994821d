import HLS
import Synchronization

/// Playlists read from the served folder, parsed once per version of the file (inode, size, modification
/// time) and kept for the next request: the cache rule needs to know whether a playlist is live, signed serving
/// rewrites its URIs, and low-latency serving needs its position, its delta update and its preload hints.
final class PlaylistLibrary: Sendable {
    /// One version of one playlist file.
    final class Entry: Sendable {
        let bytes: [UInt8]
        /// nil when the bytes are not a playlist the `HLS` parser accepts.
        let facts: PlaylistFacts?
        let stamp: FileStamp
        /// Set for a live media playlist that offers blocking reload, delta updates or preload hints.
        let lowLatency: LowLatencyPlaylist?
        /// Bodies derived from this version (gzip, delta updates), made on first use.
        private let variants = Mutex<[String: [UInt8]]>([:])

        init(bytes: [UInt8], key: String, stamp: FileStamp) {
            self.bytes = bytes
            self.stamp = stamp
            let parsed = HLS.parse(bytes).playlist
            switch parsed {
            case .multivariant: facts = .multivariant
            case .media(let media):
                facts = .media(
                    ended: media.endList, targetDurationSeconds: media.targetDuration ?? media.minimumTargetDuration)
            case nil: facts = nil
            }
            lowLatency = parsed?.media.flatMap { LowLatencyPlaylist($0, key: key) }
        }

        /// The body `name` derived from this version, made by `make` the first time; nil when `make` gives none.
        func variant(_ name: String, _ make: () -> [UInt8]?) -> [UInt8]? {
            if let kept = variants.withLock({ $0[name] }) { return kept }
            guard let made = make() else { return nil }
            variants.withLock { $0[name] = made }
            return made
        }

        /// True when the derived body `name` is already kept.
        func holdsVariant(_ name: String) -> Bool { variants.withLock { $0[name] != nil } }

        /// The playlist with `token=` added to every URI in it that stays within the video (see `TokenRewriter`).
        func appendingToken(_ token: String, to body: [UInt8], directory: [String], root: [String]) -> [UInt8] {
            TokenRewriter.appendingToken(token, to: body, directory: directory, root: root)
        }
    }

    /// Entries kept at most; the cache is emptied when it fills (playlists are small and cheap to re-read).
    static let capacity = 4096
    /// Longest playlist read (a 12-hour VOD playlist of 2 s segments is about 1.5 MB).
    static let maximumBytes = 16 << 20

    private let entries = Mutex<[String: Entry]>([:])
    /// Bodies rewritten for a viewer's token (signed serving), kept for that viewer's next reloads.
    let tokenBodies = TokenBodies()
    /// The part each cached low-latency playlist hints at (its path below the folder) → that playlist's key.
    private let hints = Mutex<[String: String]>([:])

    /// True when the version of `file` is already parsed and kept under `key`.
    func holds(_ file: ServedFolder.File, key: String) -> Bool {
        entries.withLock { $0[key]?.stamp == file.stamp }
    }

    /// The entry for `file`, found under `key` (its path below the folder).
    func playlist(_ file: ServedFolder.File, key: String) -> Entry {
        let stamp = file.stamp
        if let cached = entries.withLock({ $0[key] }), cached.stamp == stamp { return cached }
        let bytes = file.handle.read(offset: 0, count: Int(min(file.size, Int64(Self.maximumBytes))))
        let entry = Entry(bytes: bytes, key: key, stamp: stamp)
        // A file changed while it was read (rewritten in place rather than renamed into place) may be torn:
        // answer with it (the stamp keeps it from being reused) but do not keep it.
        guard FileStamp(of: file.handle) == stamp else { return entry }
        entries.withLock { entries in
            if entries.count >= Self.capacity { entries.removeAll(keepingCapacity: true) }
            entries[key] = entry
        }
        if let hinted = entry.lowLatency?.hintedParts, !hinted.isEmpty {
            hints.withLock { hints in
                if hints.count >= Self.capacity { hints.removeAll(keepingCapacity: true) }
                for part in hinted { hints[part] = key }
            }
        }
        return entry
    }

    /// The cached low-latency playlist that hints at the part `path` (below the folder), if any.
    func playlistHinting(_ path: String) -> LowLatencyPlaylist? {
        guard let key = hints.withLock({ $0[path] }) else { return nil }
        return entries.withLock { $0[key]?.lowLatency }
    }
}
