import Foundation
import HLS
import Packaging
import RealClients
import Testing

@testable import Recording

/// The one type that writes a recording's playlists, fed records by hand (no libav, no threads): when each
/// playlist appears and what it lists.
@Suite struct PlaylistPublisherTests {
    /// One 90p rendition and stereo audio in 2 s MPEG-TS segments, no subtitles, in `root`.
    static func publisher(root: String, mode: PlaylistBuilder.Mode) -> PlaylistPublisher {
        PlaylistPublisher(
            PlaylistPublisher.Layout(
                root: root, videos: [.init(name: "90p", width: 160, height: 90)], frameRate: 30, audioChannels: 2,
                hasSubtitles: false, initSegmentURI: nil, encryption: nil),
            builder: PlaylistBuilder(mode: mode, nominalSegmentDuration: .seconds(2)))
    }

    static func segment(_ index: Int) -> SegmentRecord {
        SegmentRecord(
            uri: SegmentRecord.fileName(index, extension: "ts"), startTime: .seconds(2 * Int64(index)),
            duration: .seconds(2), byteSize: 10_000)
    }

    static func exists(_ root: String, _ uri: String) -> Bool {
        FileManager.default.fileExists(atPath: root + "/" + uri)
    }

    static func text(_ root: String, _ uri: String) throws -> String {
        try String(contentsOfFile: root + "/" + uri, encoding: .utf8)
    }

    @Test func aVODLadderHasNoPlaylistUntilItIsFinished() throws {
        let folder = try TemporaryFolder()
        let root = folder.url.path
        for name in ["90p", "audio"] {
            try FileManager.default.createDirectory(atPath: root + "/" + name, withIntermediateDirectories: true)
        }
        let publisher = Self.publisher(root: root, mode: .vod)
        for index in 0..<3 {
            publisher.add(Self.segment(index), track: .video(0), index: index)
            publisher.add(Self.segment(index), track: .audio, index: index)
            try publisher.publish(finished: false)
        }
        #expect(!Self.exists(root, "master.m3u8") && !Self.exists(root, "90p/index.m3u8"))
        let presentation = try #require(try publisher.publish(finished: true))
        #expect(presentation.videos.map(\.segments.count) == [3])
        for uri in ["master.m3u8", "90p/index.m3u8", "90p/iframes.m3u8", "audio/index.m3u8"] {
            #expect(Self.exists(root, uri), "\(uri)")
        }
        let media = try Self.text(root, "90p/index.m3u8")
        #expect(media.contains("#EXT-X-ENDLIST") && media.contains("seg_00002.ts"))
    }

    /// Live, a playlist lists a segment only once every track has it, and the master appears with the first.
    @Test func aLivePlaylistListsOnlySegmentsEveryTrackHas() throws {
        let folder = try TemporaryFolder()
        let root = folder.url.path
        for name in ["90p", "audio"] {
            try FileManager.default.createDirectory(atPath: root + "/" + name, withIntermediateDirectories: true)
        }
        let publisher = Self.publisher(root: root, mode: .event)
        publisher.add(Self.segment(0), track: .video(0), index: 0)
        publisher.add(Self.segment(1), track: .video(0), index: 1)
        try publisher.publish(finished: false)
        #expect(!Self.exists(root, "master.m3u8") && !Self.exists(root, "90p/index.m3u8"), "the audio has none yet")
        publisher.add(Self.segment(0), track: .audio, index: 0)
        try publisher.publish(finished: false)
        #expect(Self.exists(root, "master.m3u8"))
        let media = try Self.text(root, "90p/index.m3u8")
        #expect(media.contains("seg_00000.ts") && !media.contains("seg_00001.ts"))
        #expect(!media.contains("#EXT-X-ENDLIST"))
        #expect(media.contains("#EXT-X-PLAYLIST-TYPE:EVENT"))
    }
}
