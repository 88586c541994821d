internal import CLinux
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// The videos of the served folder: every sub-folder (not hidden) holding a `master.m3u8`, id = folder name,
/// indexed in catalogue order so that a page of the API or of the index page costs its own length.
///
/// How the index keeps up with the folder:
/// - Following changes (`follow(drain:)`, with the server's folder watcher calling `noteChanges`): the folder is
///   read whole once, then only the videos named by changes are read again, and the few whose first media
///   playlist is unfinished (a live recording's duration grows) are checked on each read. A change the watcher
///   could not place (its queue overflowed) reads the folder whole again.
/// - Otherwise (a `RequestHandler` without a server, or no inotify): every read lists the folder and checks
///   every video's files, re-reading a video only when its master playlist, its first media playlist, its
///   poster or `filter.json` changed.
/// `video(_:)` always checks that one video's files.
public final class Catalogue: Sendable {
    let folder: ServedFolder
    private let state = Mutex<State>(State())
    private let pending = Mutex<Pending>(Pending())
    private let cancelled = Atomic<Bool>(false)
    private let draining = Mutex<(@Sendable () -> Void)?>(nil)
    private let examined = Atomic<Int>(0)

    private struct State: Sendable {
        var index = CatalogueIndex()
        /// The version of each file a video was read from, by video id and path below the video folder.
        var stamps: [String: [String: FileStamp?]] = [:]
        var unfinished: Set<String> = []
    }

    /// Changes reported and not yet read; kept apart from `State`, so that the watcher never waits for a read.
    private struct Pending: Sendable {
        var following = false
        var wholeFolder = true
        var ids: Set<String> = []
    }

    public init(folder: ServedFolder) { self.folder = folder }

    /// From now on, changes below the folder are reported through `noteChanges`; reads stop listing the folder.
    /// Each read first calls `drain`, which reports the changes made so far (so a client that changed a video
    /// and then asks sees the change).
    public func follow(drain: @escaping @Sendable () -> Void) {
        draining.withLock { $0 = drain }
        pending.withLock {
            $0.following = true
            $0.wholeFolder = true
        }
    }

    /// Paths below the folder that changed (`/`-separated); `""` means anything may have changed.
    public func noteChanges(_ paths: [String]) {
        pending.withLock { pending in
            for path in paths {
                guard let id = path.split(separator: "/", maxSplits: 1).first else {
                    pending.wholeFolder = true
                    continue
                }
                if !id.hasPrefix(".") { pending.ids.insert(String(id)) }
            }
        }
    }

    /// Ends a read of the whole folder under way, and every later one, at the next video (when the server stops).
    public func cancel() { cancelled.store(true, ordering: .releasing) }

    /// How many times a video's files have been examined (stamps taken), for tests of what a read costs.
    var filesExamined: Int { examined.load(ordering: .relaxed) }

    /// The number of videos.
    public var count: Int { refreshed { $0.count } }

    /// Every video, in catalogue order.
    public func videos() -> [CatalogueVideo] { refreshed { $0.ordered } }

    /// The `limit` videos after `cursor` (from the start when nil), in catalogue order.
    public func page(after cursor: CatalogueCursor?, limit: Int) -> CataloguePage {
        refreshed { $0.page(after: cursor, limit: limit) }
    }

    /// The video with folder name `id`, or nil.
    public func video(_ id: String) -> CatalogueVideo? {
        state.withLock { state in
            reread(id, in: &state)
            return state.index[id]
        }
    }

    /// `body` applied to the index once it holds what the folder holds now.
    private func refreshed<T>(_ body: (CatalogueIndex) -> T) -> T {
        draining.withLock { $0 }?()
        let (wholeFolder, ids) = pending.withLock { pending in
            defer {
                pending.wholeFolder = false
                pending.ids = []
            }
            return (pending.wholeFolder || !pending.following, pending.ids)
        }
        return state.withLock { state in
            if wholeFolder {
                let present = Set(videoFolderNames())
                for id in state.index.ids where !present.contains(id) { forget(id, in: &state) }
                for id in present {
                    if cancelled.load(ordering: .acquiring) { break }
                    reread(id, in: &state)
                }
            } else {
                for id in ids.union(state.unfinished) { reread(id, in: &state) }
            }
            return body(state.index)
        }
    }

    /// Reads video `id` again when any file it was read from changed (or it is new); removes it when it is gone.
    private func reread(_ id: String, in state: inout State) {
        guard !id.isEmpty, !id.hasPrefix("."), !id.contains("/"), stamp(id, "master.m3u8") != nil else {
            forget(id, in: &state)
            return
        }
        if let stamps = state.stamps[id], stamps.allSatisfy({ stamp(id, $0.key) == $0.value }) { return }
        guard let loaded = CatalogueVideo.load(id: id, from: folder) else {
            forget(id, in: &state)
            return
        }
        var stamps: [String: FileStamp?] = [:]
        for path in loaded.dependencies { stamps[path] = stamp(id, path) }
        state.stamps[id] = stamps
        state.index.insert(loaded.video)
        if loaded.isFinished { state.unfinished.remove(id) } else { state.unfinished.insert(id) }
    }

    private func forget(_ id: String, in state: inout State) {
        state.index.remove(id: id)
        state.stamps[id] = nil
        state.unfinished.remove(id)
    }

    /// The stamp of the file at `path` below video folder `id`.
    private func stamp(_ id: String, _ path: String) -> FileStamp? {
        examined.add(1, ordering: .relaxed)
        return folder.stamp([id] + path.split(separator: "/").map(String.init))
    }

    /// Names of the non-hidden entries of the folder that may be video folders.
    func videoFolderNames() -> [String] {
        guard let directory = opendir(folder.path) else { return [] }
        defer { closedir(directory) }
        var names: [String] = []
        while let entry = readdir(directory) {
            let type = entry.pointee.d_type
            guard type == UInt8(DT_DIR) || type == UInt8(DT_LNK) || type == UInt8(DT_UNKNOWN) else { continue }
            let name = withUnsafePointer(to: entry.pointee.d_name) {
                $0.withMemoryRebound(to: CChar.self, capacity: Int(NAME_MAX) + 1) { String(cString: $0) }
            }
            if !name.hasPrefix(".") { names.append(name) }
        }
        return names
    }
}

extension ServedFolder {
    /// The version stamp of the regular file at `segments`, nil when absent.
    func stamp(_ segments: [String]) -> FileStamp? {
        open(segments)?.stamp
    }

    /// When the folder `name` was created, in nanoseconds since the epoch (0 when unknown).
    func birthTimeNanoseconds(_ name: String) -> Int64 {
        max(0, filterz_birth_time_nanoseconds(absolutePath([name])))
    }
}
