internal import CLinux
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// The videos of the served folder: every sub-folder (not hidden) holding a `master.m3u8`, id = folder name.
///
/// Read on demand and refreshed as folders appear, disappear or change: each call lists the folder and
/// re-reads a video only when its master playlist, its first media playlist, its poster or `filter.json`
/// changed (so the duration of a live recording grows between calls).
public final class Catalogue: Sendable {
    let folder: ServedFolder
    private let cache = Mutex<[String: CachedVideo]>([:])

    struct CachedVideo: Sendable {
        var stamps: [String: FileStamp?]
        var video: CatalogueVideo
    }

    public init(folder: ServedFolder) { self.folder = folder }

    /// Every video, in no particular order (`CataloguePage` orders them).
    public func videos() -> [CatalogueVideo] {
        let ids = videoFolderNames()
        let videos = ids.compactMap { video($0) }
        let present = Set(ids)
        cache.withLock { cache in cache = cache.filter { present.contains($0.key) } }
        return videos
    }

    /// The video with folder name `id`, or nil.
    public func video(_ id: String) -> CatalogueVideo? {
        guard !id.isEmpty, !id.hasPrefix("."), !id.contains("/"), folder.stamp([id, "master.m3u8"]) != nil else {
            cache.withLock { _ = $0.removeValue(forKey: id) }
            return nil
        }
        if let cached = cache.withLock({ $0[id] }),
            cached.stamps.allSatisfy({ folder.stamp([id] + $0.key.split(separator: "/").map(String.init)) == $0.value })
        {
            return cached.video
        }
        guard let loaded = CatalogueVideo.load(id: id, from: folder) else { return nil }
        var stamps: [String: FileStamp?] = [:]
        for path in loaded.dependencies {
            stamps[path] = folder.stamp([id] + path.split(separator: "/").map(String.init))
        }
        cache.withLock { $0[id] = CachedVideo(stamps: stamps, video: loaded.video) }
        return loaded.video
    }

    /// Names of the non-hidden sub-folders with a `master.m3u8`.
    func videoFolderNames() -> [String] {
        guard let directory = opendir(folder.path) else { return [] }
        defer { closedir(directory) }
        var names: [String] = []
        while let entry = readdir(directory) {
            let name = withUnsafePointer(to: entry.pointee.d_name) {
                $0.withMemoryRebound(to: CChar.self, capacity: Int(NAME_MAX) + 1) { String(cString: $0) }
            }
            guard !name.hasPrefix(".") else { continue }
            if folder.stamp([name, "master.m3u8"]) != nil { names.append(name) }
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
