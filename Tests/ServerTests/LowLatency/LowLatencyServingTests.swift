import FilterzTestSupport
import Foundation
import HLS
import RealClients
import Testing

@testable import Server

#if canImport(Glibc)
    import Glibc
#endif

/// The server as an LL-HLS origin over real HTTP on 127.0.0.1, against a stand-in writer in the served folder:
/// blocking reloads, delta updates, hinted parts, gzip, and the end of the stream. Whole playlists compared.
@Suite struct LowLatencyServingTests {
    let site: TestSite
    let writer: LowLatencyWriter

    init() throws {
        site = try TestSite(populate: { try $0.addVideo("a") })
        writer = try LowLatencyWriter(folder: site.root.appendingPathComponent("live/v0"))
        for _ in 0..<10 { try writer.addPart() }  // segments 0 and 1 complete, two parts of segment 2
    }

    @Test func aSatisfiedBlockingRequestIsAnsweredAtOnceWithTheWholePlaylist() throws {
        let response = try fetch(site.port, "GET", "/live/v0/index.m3u8?_HLS_msn=2&_HLS_part=1")
        #expect(response.status == 200)
        #expect(response.bodyText == writer.playlist)
        #expect(response.header("cache-control") == "public, max-age=12")
    }

    @Test func aBlockingRequestIsHeldUntilItsPartAndGetsTheFirstVersionWithIt() throws {
        let connection = try RawConnection(port: site.port, timeoutSeconds: 10)
        try connection.send("GET /live/v0/index.m3u8?_HLS_msn=2&_HLS_part=3 HTTP/1.1\r\nHost: x\r\n\r\n")
        #expect(connection.staysSilent())
        try writer.addPart()  // part 2 of segment 2: not yet the one asked for
        #expect(connection.staysSilent())
        try writer.addPart()  // part 3
        let expected = writer.playlist
        let response = try connection.readResponse()
        #expect(response.status == 200)
        #expect(response.bodyText == expected)
    }

    @Test func aSegmentRequestIsHeldUntilTheSegmentIsComplete() throws {
        let connection = try RawConnection(port: site.port, timeoutSeconds: 10)
        try connection.send("GET /live/v0/index.m3u8?_HLS_msn=2 HTTP/1.1\r\nHost: x\r\n\r\n")
        try writer.addPart()
        #expect(connection.staysSilent())
        try writer.addPart()  // the fourth part completes segment 2
        let expected = writer.playlist
        #expect(try connection.readResponse().bodyText == expected)
    }

    @Test func badDirectivesAre400AtOnce() throws {
        for query in ["_HLS_part=1", "_HLS_msn=5", "_HLS_msn=2&_HLS_part=9", "_HLS_msn=x", "_HLS_skip=no"] {
            #expect(try fetch(site.port, "GET", "/live/v0/index.m3u8?\(query)").status == 400, "\(query)")
        }
    }

    @Test func aRequestNotSatisfiedInThreeTargetDurationsIs503() throws {
        let connection = try RawConnection(port: site.port, timeoutSeconds: 15)
        try connection.send("GET /live/v0/index.m3u8?_HLS_msn=3 HTTP/1.1\r\nHost: x\r\n\r\n")
        #expect(connection.staysSilent(milliseconds: 4000))
        #expect(try connection.readResponse().status == 503)
    }

    @Test func aDeltaUpdateReplacesOldSegmentsWithASkip() throws {
        for _ in 0..<30 { try writer.addPart() }  // ten segments in all
        let delta = try fetch(site.port, "GET", "/live/v0/index.m3u8?_HLS_skip=YES")
        let full = try #require(HLS.parse(writer.playlist).playlist?.media)
        let expected = try #require(DeltaUpdate.apply(.segments, to: full))
        #expect(delta.bodyText == String(decoding: PlaylistWriter().writeBytes(.media(expected)), as: UTF8.self))
        let parsed = try #require(HLS.parse(delta.bodyText).playlist?.media)
        #expect(parsed.version == 9 && (parsed.skip?.skippedSegments ?? 0) >= 1)
        #expect(parsed.skip.map { $0.skippedSegments + parsed.segments.count } == full.segments.count)
    }

    @Test func aHintedPartIsHeldUntilItIsWrittenThenSentWhole() throws {
        let hinted = "/live/v0/" + LowLatencyWriter.partName(2, 2)
        _ = try fetch(site.port, "GET", "/live/v0/index.m3u8")  // the server has read the hint
        let connection = try RawConnection(port: site.port, timeoutSeconds: 10)
        try connection.send("GET \(hinted) HTTP/1.1\r\nHost: x\r\n\r\n")
        #expect(connection.staysSilent())
        try writer.addPart()
        let part = try connection.readResponse()
        #expect(part.status == 200 && part.body == [UInt8](repeating: 2, count: 1002))
        // A part neither listed nor hinted is not waited for.
        let unknown = try fetch(site.port, "GET", "/live/v0/" + LowLatencyWriter.partName(9, 0))
        #expect(unknown.status == 404 && unknown.header("cache-control") == "public, max-age=1")
    }

    @Test func playlistsAreGzippedForClientsThatAcceptIt() throws {
        let plain = try fetch(site.port, "GET", "/live/v0/index.m3u8")
        let zipped = try fetch(site.port, "GET", "/live/v0/index.m3u8", headers: ["Accept-Encoding": "gzip"])
        #expect(zipped.header("content-encoding") == "gzip" && plain.header("content-encoding") == nil)
        #expect(zipped.header("vary") == "Accept-Encoding" && plain.header("vary") == "Accept-Encoding")
        #expect(zipped.header("etag") != plain.header("etag"))
        let inflated = try ExternalTool.runFeeding("gzip", ["-dc"], input: zipped.body)
        #expect(String(decoding: inflated, as: UTF8.self) == writer.playlist)
        // The same for a blocking request answered later, and for the finished master playlist.
        #expect(
            try fetch(site.port, "GET", "/a/master.m3u8", headers: ["Accept-Encoding": "gzip"]).header(
                "content-encoding") == "gzip")
    }

    @Test func directivesAreIgnoredOnceThePlaylistHasEnded() throws {
        try writer.end()
        let response = try fetch(site.port, "GET", "/live/v0/index.m3u8?_HLS_msn=40&_HLS_part=0")
        #expect(response.status == 200 && response.bodyText == writer.playlist)
    }

    @Test func heldRequestsAbandonedByTheirClientsAreCleanedUp() throws {
        var clients: [RawConnection] = []
        for _ in 0..<200 {
            let connection = try RawConnection(port: site.port, timeoutSeconds: 10)
            try connection.send("GET /live/v0/index.m3u8?_HLS_msn=2&_HLS_part=3 HTTP/1.1\r\nHost: x\r\n\r\n")
            clients.append(connection)
        }
        for _ in 0..<400 where site.server.inFlightCount < 200 { usleep(10_000) }
        #expect(site.server.inFlightCount == 200)
        clients.removeAll()
        for _ in 0..<400 where site.server.connectionCount > 0 { usleep(10_000) }
        #expect(site.server.connectionCount == 0 && site.server.inFlightCount == 0)
        // The part they waited for comes and goes without anyone to answer.
        try writer.addPart()
        try writer.addPart()
        #expect(try fetch(site.port, "GET", "/live/v0/index.m3u8").status == 200)
    }
}
