import FilterzTestSupport
import Foundation
import HLS
import RealClients
import Testing

@testable import Server

/// The server as an LL-HLS origin (in process, on a manual clock), against a stand-in writer in the served
/// folder that tells the site each file it writes: blocking reloads, delta updates, hinted parts, gzip, and the
/// end of the stream. Whole playlists compared.
@Suite struct LowLatencyServingTests {
    let site: InProcessSite
    let writer: LowLatencyWriter

    init() throws {
        let site = try InProcessSite(populate: { try $0.addVideo("a") })
        self.site = site
        writer = try LowLatencyWriter(folder: site.root.appendingPathComponent("live/v0"))
        writer.changed = { site.fileChanged("live/v0/" + $0) }
        for _ in 0..<10 { try writer.addPart() }  // segments 0 and 1 complete, two parts of segment 2
    }

    @Test func aSatisfiedBlockingRequestIsAnsweredAtOnceWithTheWholePlaylist() throws {
        let response = try site.fetch("GET", "/live/v0/index.m3u8?_HLS_msn=2&_HLS_part=1")
        #expect(response.status == 200)
        #expect(response.bodyText == writer.playlist)
        #expect(response.header("cache-control") == "public, max-age=12")
    }

    @Test func aBlockingRequestIsHeldUntilItsPartAndGetsTheFirstVersionWithIt() throws {
        let request = try site.send("GET", "/live/v0/index.m3u8?_HLS_msn=2&_HLS_part=3")
        #expect(request.isHeld)
        try writer.addPart()  // part 2 of segment 2: not yet the one asked for
        #expect(request.isHeld)
        try writer.addPart()  // part 3
        let expected = writer.playlist
        try writer.addPart()  // a later version: the request was answered with the first that had its part
        let response = try #require(request.response)
        #expect(response.status == 200)
        #expect(response.bodyText == expected)
    }

    @Test func aSegmentRequestIsHeldUntilTheSegmentIsComplete() throws {
        let request = try site.send("GET", "/live/v0/index.m3u8?_HLS_msn=2")
        try writer.addPart()
        #expect(request.isHeld)
        try writer.addPart()  // the fourth part completes segment 2
        let expected = writer.playlist
        #expect(request.response?.bodyText == expected)
    }

    @Test func badDirectivesAre400AtOnce() throws {
        for query in ["_HLS_part=1", "_HLS_msn=5", "_HLS_msn=2&_HLS_part=9", "_HLS_msn=x", "_HLS_skip=no"] {
            #expect(try site.fetch("GET", "/live/v0/index.m3u8?\(query)").status == 400, "\(query)")
        }
    }

    @Test func aRequestNotSatisfiedInThreeTargetDurationsIs503() throws {
        let request = try site.send("GET", "/live/v0/index.m3u8?_HLS_msn=3")
        try writer.addPart()  // asked again, still waiting: the first deadline stays
        site.advance(milliseconds: 3 * 2000 - 1)
        #expect(request.isHeld)
        site.advance(milliseconds: 1)
        #expect(request.response?.status == 503)
        #expect(request.response?.header("retry-after") == "1")
    }

    @Test func aDeltaUpdateReplacesOldSegmentsWithASkip() throws {
        for _ in 0..<30 { try writer.addPart() }  // ten segments in all
        let delta = try site.fetch("GET", "/live/v0/index.m3u8?_HLS_skip=YES")
        let full = try #require(HLS.parse(writer.playlist).playlist?.media)
        let expected = try #require(DeltaUpdate.apply(.segments, to: full))
        #expect(delta.bodyText == String(decoding: PlaylistWriter().writeBytes(.media(expected)), as: UTF8.self))
        let parsed = try #require(HLS.parse(delta.bodyText).playlist?.media)
        #expect(parsed.version == 9 && (parsed.skip?.skippedSegments ?? 0) >= 1)
        #expect(parsed.skip.map { $0.skippedSegments + parsed.segments.count } == full.segments.count)
    }

    @Test func aHintedPartIsHeldUntilItIsWrittenThenSentWhole() throws {
        let hinted = "/live/v0/" + LowLatencyWriter.partName(2, 2)
        _ = try site.fetch("GET", "/live/v0/index.m3u8")  // the server has read the hint
        let request = try site.send("GET", hinted)
        #expect(request.isHeld)
        try writer.addPart()
        let part = try #require(request.response)
        #expect(part.status == 200 && part.body == [UInt8](repeating: 2, count: 1002))
        // A part neither listed nor hinted is not waited for.
        let unknown = try site.fetch("GET", "/live/v0/" + LowLatencyWriter.partName(9, 0))
        #expect(unknown.status == 404 && unknown.header("cache-control") == "public, max-age=1")
    }

    @Test func playlistsAreGzippedForClientsThatAcceptIt() throws {
        let plain = try site.fetch("GET", "/live/v0/index.m3u8")
        let zipped = try site.fetch("GET", "/live/v0/index.m3u8", headers: ["Accept-Encoding": "gzip"])
        #expect(zipped.header("content-encoding") == "gzip" && plain.header("content-encoding") == nil)
        #expect(zipped.header("vary") == "Accept-Encoding" && plain.header("vary") == "Accept-Encoding")
        #expect(zipped.header("etag") != plain.header("etag"))
        let inflated = try ExternalTool.runFeeding("gzip", ["-dc"], input: zipped.body)
        #expect(String(decoding: inflated, as: UTF8.self) == writer.playlist)
        // The same for a blocking request answered later, and for the finished master playlist.
        #expect(
            try site.fetch("GET", "/a/master.m3u8", headers: ["Accept-Encoding": "gzip"]).header(
                "content-encoding") == "gzip")
    }

    @Test func directivesAreIgnoredOnceThePlaylistHasEnded() throws {
        try writer.end()
        let response = try site.fetch("GET", "/live/v0/index.m3u8?_HLS_msn=40&_HLS_part=0")
        #expect(response.status == 200 && response.bodyText == writer.playlist)
    }
}
