import CLIKit
import HLS
import Inspect
import Media
import Parallel
import StreamAudit

/// `inspect --deep`: loads the segments of every media playlist (all, or `segmentsPerPlaylist` spread over
/// each), probes them, and audits the facts against the playlists. A segment that cannot be loaded is a
/// finding, never a failure of the run.
struct DeepInspection {
    var loader: ResourceLoader
    /// Nil: every segment.
    var segmentsPerPlaylist: Int?
    var decryptor: (any SegmentDecrypting)?
    /// Loads (and probes) running at once.
    var concurrency = 8

    /// A media playlist to audit, with how the multivariant playlist names it.
    struct Source: Sendable {
        var uri: String
        var location: String
        var role: AuditedPlaylist.Role
        var playlist: MediaPlaylist
    }

    /// The media playlists among `children` (loaded and parsed), in order, each location once.
    static func sources(_ children: [RecursiveInspection.Child]) -> [Source] {
        var seen: Set<String> = []
        return children.compactMap { child in
            guard case .loaded(let result) = child.outcome, let media = result.playlist?.media,
                seen.insert(child.location).inserted
            else { return nil }
            let role: AuditedPlaylist.Role
            switch child.reference {
            case .variant(let variant): role = .variant(variant)
            case .iFrameVariant(let variant): role = .iFrameVariant(variant)
            case .rendition(let rendition): role = .rendition(rendition)
            }
            return Source(uri: child.uri, location: child.location, role: role, playlist: media)
        }
    }

    /// Loads, probes and audits. `progress(done, total)` is called on this thread while segments load.
    func run(multivariant: MultivariantPlaylist?, sources: [Source], progress: (Int, Int) -> Void = { _, _ in })
        -> AuditReport
    {
        var items: [SegmentPlan.Item] = []
        for (index, source) in sources.enumerated() {
            var isSubtitle = false
            if case .rendition(let rendition) = source.role, rendition.type == .subtitles { isSubtitle = true }
            items += SegmentPlan.items(
                playlistIndex: index, playlist: source.playlist, location: source.location, isSubtitle: isSubtitle,
                count: segmentsPerPlaylist)
        }
        let resources = loadSharedResources(items)
        let loader = self.loader
        let plan = items
        let decryptor = self.decryptor
        let observations = BoundedWorkers.run(
            count: items.count, concurrency: concurrency, progress: { progress($0, items.count) },
            { index in Self.observe(plan[index], loader: loader, resources: resources, decryptor: decryptor) })
        var perPlaylist: [[SegmentObservation]] = sources.map {
            Array(repeating: SegmentObservation(.notSampled), count: $0.playlist.segments.count)
        }
        for (item, observation) in zip(items, observations) { perPlaylist[item.playlist][item.segment] = observation }
        let playlists = zip(sources, perPlaylist).map { source, segments in
            AuditedPlaylist(
                uri: source.uri, location: source.location, role: source.role, playlist: source.playlist,
                segments: segments)
        }
        return StreamAuditor.audit(AuditInput(multivariant: multivariant, playlists: playlists))
    }

    /// Init sections and keys, each loaded once: bytes, or why they could not be used.
    struct SharedResources: Sendable {
        var initSections: [SegmentPlan.SourceKey: Result<[UInt8], CLIError>] = [:]
        var keys: [SegmentPlan.SourceKey: Result<[UInt8], CLIError>] = [:]
    }

    private func loadSharedResources(_ items: [SegmentPlan.Item]) -> SharedResources {
        var initKeys: [SegmentPlan.SourceKey] = []
        var keySources: [SegmentPlan.SourceKey] = []
        for item in items {
            if let key = item.initSection, !initKeys.contains(key) { initKeys.append(key) }
            if let key = item.key, !keySources.contains(key.source) { keySources.append(key.source) }
        }
        let loader = self.loader
        let initList = initKeys, keyList = keySources
        let inits = BoundedWorkers.run(count: initList.count, concurrency: concurrency) { index in
            let key = initList[index]
            let range = key.length.map { (key.offset ?? 0, $0) }
            return Result<[UInt8], CLIError> { () throws(CLIError) in
                try loader.load(key.location, namedBy: key.namedBy, range: range)
            }
        }
        let keys = BoundedWorkers.run(count: keySources.count, concurrency: concurrency) { index in
            Result<[UInt8], CLIError> { () throws(CLIError) in
                try loader.load(keyList[index].location, namedBy: keyList[index].namedBy, range: nil)
            }
        }
        var resources = SharedResources()
        for (key, result) in zip(initKeys, inits) { resources.initSections[key] = result }
        for (source, result) in zip(keySources, keys) { resources.keys[source] = result }
        return resources
    }

    /// Loads one segment and turns it into an observation.
    static func observe(
        _ item: SegmentPlan.Item, loader: ResourceLoader, resources: SharedResources,
        decryptor: (any SegmentDecrypting)?
    ) -> SegmentObservation {
        var bytes: [UInt8]
        do throws(CLIError) {
            bytes = try loader.load(item.location, namedBy: item.namedBy, range: item.range)
        } catch {
            return SegmentObservation(.unreadable("cannot load: \(error.description)"))
        }
        let byteCount = bytes.count
        if let key = item.key {
            switch resources.keys[key.source] {
            case .failure(let error)?:
                return SegmentObservation(
                    .keyUnusable("the key cannot be loaded: \(error.description)"), byteCount: byteCount)
            case .success(let keyBytes)? where keyBytes.count != 16:
                return SegmentObservation(
                    .keyUnusable("the key at \(key.source.location) is \(keyBytes.count) bytes, not 16"),
                    byteCount: byteCount)
            case .success(let keyBytes)?:
                guard key.method == "AES-128", let decryptor else {
                    return SegmentObservation(.encrypted, byteCount: byteCount)
                }
                do throws(CLIError) {
                    bytes = try decryptor.decrypt(bytes, key: keyBytes, iv: key.iv)
                } catch {
                    return SegmentObservation(
                        .keyUnusable("the segment does not decrypt: \(error.description)"), byteCount: byteCount)
                }
            case nil:
                return SegmentObservation(.encrypted, byteCount: byteCount)
            }
        }
        if item.isSubtitle {
            return SegmentObservation(.subtitles(WebVTTDocument.parse(bytes).document), byteCount: byteCount)
        }
        var initSection: [UInt8]?
        if let key = item.initSection {
            switch resources.initSections[key] {
            case .success(let bytes)?: initSection = bytes
            case .failure(let error)?:
                return SegmentObservation(
                    .unreadable("its init section cannot be loaded: \(error.description)"), byteCount: byteCount)
            case nil: break
            }
        }
        do throws(FFmpegError) {
            return SegmentObservation(
                .measured(try SegmentProbe.probe(segment: bytes, initSection: initSection)), byteCount: byteCount)
        } catch {
            return SegmentObservation(.unreadable("cannot be demuxed: \(error.description)"), byteCount: byteCount)
        }
    }
}
