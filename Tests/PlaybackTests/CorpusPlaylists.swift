import FilterzTestSupport
import Foundation
import HLS
import Playback
import RealClients

/// The shared playlist corpus (`../shared/corpus/playlists`), parsed with the HLS module.
enum CorpusPlaylists {
    /// Every corpus file the parser turns into a playlist, by file name (empty when ../shared is absent).
    static let parsed: [(name: String, playlist: HLS.Playlist)] = {
        guard let folder = SharedData.folder("corpus/playlists"),
            let names = try? FileManager.default.contentsOfDirectory(atPath: folder.path)
        else { return [] }
        return names.filter { $0.hasSuffix(".m3u8") }.sorted().compactMap { name in
            guard let data = FileManager.default.contents(atPath: folder.appendingPathComponent(name).path),
                let playlist = HLS.parse(Array(data)).playlist
            else { return nil }
            return (name, playlist)
        }
    }()

    static var isAvailable: Bool { !parsed.isEmpty }

    static func named(_ name: String) -> HLS.Playlist? { parsed.first { $0.name == name }?.playlist }

    /// Media playlists with at least one segment of positive duration, as timelines.
    static var mediaTimelines: [(name: String, timeline: MediaTimeline)] {
        parsed.compactMap { entry in
            guard case .media(let media) = entry.playlist else { return nil }
            let timeline = MediaTimeline(media)
            return timeline.durationSeconds > 0 ? (entry.name, timeline) : nil
        }
    }

    /// Random-run sources from the corpus: each multivariant playlist's ladder with corpus media playlists as
    /// its variants (taken in turn), and each media playlist on its own (live when it has no EXT-X-ENDLIST).
    static let sources: [TestSource] = {
        let media = mediaTimelines.map(\.timeline)
        guard !media.isEmpty else { return [] }
        var sources: [TestSource] = []
        var next = 0
        for entry in parsed {
            guard case .multivariant(let multivariant) = entry.playlist, !multivariant.variants.isEmpty else {
                continue
            }
            let stream = StreamDescription(multivariant)
            let timelines = stream.variants.indices.map { _ in
                defer { next += 1 }
                return media[next % media.count]
            }
            sources.append(TestSource(stream: stream, timelines: timelines, isLive: false))
        }
        for timeline in media {
            sources.append(
                TestSource(
                    stream: .single(uri: Fixtures.masterURL), timelines: [timeline], isLive: timeline.isLive,
                    isSingleMedia: true))
        }
        return sources
    }()
}
