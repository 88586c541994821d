import Foundation
import HLS
import JSON

extension CatalogueVideo {
    /// A video read from its folder, with the files (relative paths) whose changes make it stale.
    struct Loaded: Sendable {
        var video: CatalogueVideo
        var dependencies: [String]
        /// False while the first media playlist has no EXT-X-ENDLIST (a live recording, whose duration grows).
        var isFinished: Bool
    }

    static let posterName = "poster.jpg"
    static let filterName = "filter.json"

    /// Reads the video in folder `id`: its master playlist (qualities, subtitles), its first media playlist
    /// (duration), `filter.json` (filter name, title, description) and poster. Nil when the master is not a
    /// multivariant playlist.
    static func load(id: String, from folder: ServedFolder) -> Loaded? {
        guard let masterFile = folder.open([id, "master.m3u8"]),
            case .multivariant(let master) = HLS.parse(
                masterFile.handle.read(offset: 0, count: Int(min(masterFile.size, 4 << 20)))
            ).playlist
        else { return nil }
        var dependencies = ["master.m3u8", posterName, filterName]

        var qualities: [Quality] = []
        for variant in master.variants {
            guard let path = relativePath(variant.uri), !qualities.contains(where: { $0.relativePath == path }) else {
                continue
            }
            var name = variant.resolution.map { "\(min($0.width, $0.height))p" } ?? "\(variant.bandwidth / 1000)k"
            if qualities.contains(where: { $0.name == name }) { name += "-\(variant.bandwidth / 1000)k" }
            qualities.append(Quality(name: name, relativePath: path))
        }
        var subtitles: [Subtitles] = []
        for rendition in master.renditions where rendition.type == .subtitles {
            guard let uri = rendition.uri, let path = relativePath(uri),
                !subtitles.contains(where: { $0.relativePath == path })
            else { continue }
            subtitles.append(Subtitles(language: rendition.language ?? rendition.name, relativePath: path))
        }

        var duration: Double?
        var isFinished = false
        if let first = qualities.first {
            dependencies.append(first.relativePath)
            let segments = [id] + first.relativePath.split(separator: "/").map(String.init)
            if let file = folder.open(segments),
                case .media(let media) = HLS.parse(file.handle.read(offset: 0, count: Int(min(file.size, 16 << 20))))
                    .playlist
            {
                duration = media.totalDuration
                isFinished = media.endList
            }
        }

        let filter = folder.open([id, filterName]).flatMap { file in
            try? JSONValue(parsing: file.handle.read(offset: 0, count: Int(min(file.size, 1 << 20))))
        }
        func text(_ key: String) -> String? {
            if case .string(let value)? = filter?[key] { value } else { nil }
        }
        let filterName = ["name", "preset", "filter_name", "filter"].lazy.compactMap(text).first
        let title = text("title") ?? id
        let description = text("description") ?? filterName.map { "Filtered with \($0)" } ?? ""
        let created = folder.birthTimeNanoseconds(id)
        let video = CatalogueVideo(
            id: id, title: title, description: description, durationSeconds: duration, filterName: filterName,
            posterRelativePath: folder.open([id, posterName]) != nil ? posterName : nil, qualities: qualities,
            subtitles: subtitles, createdAtNanoseconds: created)
        return Loaded(video: video, dependencies: dependencies, isFinished: isFinished)
    }

    /// The path below the video folder that a URI in its master playlist names; nil for absolute URLs, URIs that
    /// leave the folder, or hidden names.
    static func relativePath(_ uri: String) -> String? {
        let withoutQuery = uri.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false)[0]
            .split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false)[0]
        guard !withoutQuery.isEmpty, !withoutQuery.hasPrefix("/"), !withoutQuery.contains(":") else { return nil }
        var parts: [Substring] = []
        for part in withoutQuery.split(separator: "/", omittingEmptySubsequences: true) {
            switch part {
            case ".": continue
            case "..":
                guard !parts.isEmpty else { return nil }
                parts.removeLast()
            default:
                guard !part.hasPrefix(".") else { return nil }
                parts.append(part)
            }
        }
        return parts.isEmpty ? nil : parts.joined(separator: "/")
    }
}
