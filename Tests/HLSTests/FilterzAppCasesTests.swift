import FilterzTestSupport
import Foundation
import RealClients
import Testing

@testable import HLS

/// What the Filterz app reads from its own streams (SampleMedia/playlists): VOD segment durations, the first
/// variant's URL with the CDN token, and the Korean and English subtitle renditions.
@Suite struct FilterzAppCasesTests {
    static let folder = SharedData.sampleMedia.appendingPathComponent("playlists")
    /// Where the app loads the ladder from: a signed CDN URL.
    static let masterURL = "https://cdn.filterz.app/streams/42/master.m3u8?token=demo-7f3a"

    static func load(_ name: String) throws -> [UInt8] {
        Array(try Data(contentsOf: folder.appendingPathComponent(name)))
    }

    @Test func vodPlaylistGivesSegmentDurationsAndTargetDuration() throws {
        let result = parseAndValidate(try Self.load("filterz-vod.m3u8"))
        #expect(result.diagnostics == [])
        let media = try #require(result.mediaPlaylist)
        #expect(media.targetDuration == 4)
        #expect(media.playlistType == .vod && media.endList)
        #expect(media.segments.map(\.duration) == [4, 4, 4, 4, 4, 4, 4, 2.136])
        #expect(abs(media.totalDuration - 30.136) < 1e-9)
        #expect(
            media.statistics.totalBytes == 812 + 281_530 + 276_044 + 290_112 + 268_930 + 301_877 + 274_410 + 288_003
                + 140_221)
        #expect(media.segments.map(\.discontinuity) == [false, false, false, false, true, false, false, false])
    }

    @Test func ladderVariantsAreSortedByBandwidthAndCarryTheirToken() throws {
        let master = try #require(parseAndValidate(try Self.load("filterz-master.m3u8")).multivariantPlaylist)
        let byBandwidth = master.variants.sorted { $0.bandwidth < $1.bandwidth }
        #expect(byBandwidth.map(\.resolution?.height) == [360, 720, 1080])
        let first = try #require(master.variants.first)
        #expect(
            URIReference.resolve(first.uri, against: Self.masterURL)
                == "https://cdn.filterz.app/streams/42/filterz/720p/index.m3u8?token=demo-7f3a")
    }

    @Test func aVariantWithoutItsOwnTokenInheritsTheMasterToken() throws {
        let text = """
            #EXTM3U
            #EXT-X-VERSION:6
            #EXT-X-STREAM-INF:BANDWIDTH=928000,RESOLUTION=640x360
            360p/index.m3u8

            """
        let master = try #require(parse(text).playlist?.multivariant)
        #expect(
            URIReference.resolve(master.variants[0].uri, against: Self.masterURL)
                == "https://cdn.filterz.app/streams/42/360p/index.m3u8?token=demo-7f3a")
    }

    @Test func subtitleRenditionsListKoreanAndEnglishWithResolvedURIs() throws {
        let master = try #require(parseAndValidate(try Self.load("filterz-master.m3u8")).multivariantPlaylist)
        let subtitles = master.renditions.filter { $0.type == .subtitles }
        #expect(subtitles.map(\.language) == ["ko", "en"])
        #expect(subtitles.map(\.name) == ["한국어", "English"])
        #expect(subtitles.map(\.isDefault) == [true, false])
        #expect(
            subtitles.map { URIReference.resolve($0.uri ?? "", against: Self.masterURL) } == [
                "https://cdn.filterz.app/streams/42/filterz/subs/ko/index.m3u8?token=demo-7f3a",
                "https://cdn.filterz.app/streams/42/filterz/subs/en/index.m3u8?token=demo-7f3a",
            ])
        let fileBase = Self.folder.appendingPathComponent("filterz-master.m3u8").path
        #expect(
            URIReference.resolve(subtitles[0].uri ?? "", against: fileBase)
                == Self.folder.path + "/filterz/subs/ko/index.m3u8?token=demo-7f3a")
    }
}
