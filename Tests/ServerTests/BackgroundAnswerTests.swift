import FilterzTestSupport
import Foundation
import RealClients
import Testing

@testable import Server

#if canImport(Glibc)
    import Glibc
#endif

/// Slow answers (large playlists to parse, the catalogue) are made off the event loops, so they never hold up
/// the answers to other clients.
@Suite struct BackgroundAnswerTests {
    /// A media playlist of about `bytes` bytes, with definitions and references to substitute.
    static func largePlaylist(bytes: Int) -> String {
        var text = "#EXTM3U\n#EXT-X-VERSION:8\n#EXT-X-TARGETDURATION:4\n"
        for k in 0..<2000 { text += "#EXT-X-DEFINE:NAME=\"v\(k)\",VALUE=\"seg\(k)\"\n" }
        var index = 0
        while text.utf8.count < bytes {
            text += "#EXTINF:4.000,\n{$v\(index % 2000)}_\(index).ts\n"
            index += 1
        }
        return text + "#EXT-X-ENDLIST\n"
    }

    @Test func aLargePlaylistNotYetParsedIsLeftToTheBackground() throws {
        let site = try InProcessSite { site in
            try site.addVideo("a")
            try site.write("a/v0/big.m3u8", Self.largePlaylist(bytes: 200_000))
        }
        let handler = site.handler
        let now = site.secondsSinceEpoch
        func quickStatus(_ target: String, headers: [String: String] = [:]) -> Int? {
            guard
                case .ready(.response(let response)) = handler.decide(
                    HTTPRequest(method: "GET", target: target, headers: headers), now: now)
            else { return nil }
            return response.status
        }
        #expect(quickStatus("/a/v0/big.m3u8") == nil)
        #expect(quickStatus("/a/master.m3u8") == 200)
        #expect(quickStatus("/v1/videos") == nil)
        // Once parsed (by the background), the same version is answered on the loop.
        #expect(handler.respond(to: HTTPRequest(method: "GET", target: "/a/v0/big.m3u8"), now: now).status == 200)
        #expect(quickStatus("/a/v0/big.m3u8") == 200)
        // Its compressed form, a delta of it and a copy for a token are made in the background too, until kept.
        let gzip = ["accept-encoding": "gzip"]
        #expect(quickStatus("/a/v0/big.m3u8", headers: gzip) == nil)
        #expect(
            handler.respond(to: HTTPRequest(method: "GET", target: "/a/v0/big.m3u8", headers: gzip), now: now).status
                == 200)
        #expect(quickStatus("/a/v0/big.m3u8", headers: gzip) == 200)
        #expect(quickStatus("/a/v0/big.m3u8?_HLS_skip=YES") == nil)
    }

    /// A slow answer is decided once: the work handed to a worker makes the answer `answer` gives, and nothing
    /// quick is left to make it twice.
    @Test func aSlowAnswerIsTheWorkThatMakesTheAnswer() throws {
        let site = try InProcessSite { site in
            try site.addVideo("a")
            try site.write("a/v0/big.m3u8", Self.largePlaylist(bytes: 200_000))
        }
        let request = HTTPRequest(method: "GET", target: "/a/v0/big.m3u8", headers: ["range": "bytes=0-99"])
        guard case .slow(let slow) = site.handler.decide(request, now: site.secondsSinceEpoch) else {
            Issue.record("a large playlist not yet parsed was decided at once")
            return
        }
        guard case .response(let made) = slow.make() else {
            Issue.record("held")
            return
        }
        let expected = site.handler.respond(to: request, now: site.secondsSinceEpoch)
        #expect(made.status == 206 && expected.status == 206)
        #expect(made.bodyBytes() == expected.bodyBytes() && made.bodyBytes().count == 100)
        #expect(made.headers.map(\.0) == expected.headers.map(\.0))
        #expect(made.header("access-control-allow-origin") == "*")
        // Now parsed and kept: decided at once.
        guard case .ready = site.handler.decide(request, now: site.secondsSinceEpoch) else {
            Issue.record("a kept playlist was left to the background")
            return
        }
    }

    @Test func theCatalogueHasAWorkerOfItsOwn() throws {
        let site = try InProcessSite { try $0.addVideo("a") }
        let handler = site.handler
        for (target, lane) in [
            ("/", RequestHandler.BackgroundLane.catalogue), ("/v1/videos?limit=2", .catalogue),
            ("/v1/videos/a/stream", .catalogue), ("/v1/videos/a/master.m3u8", .files), ("/a/v0/index.m3u8", .files),
        ] {
            #expect(handler.backgroundLane(for: HTTPRequest(method: "GET", target: target)) == lane, "\(target)")
        }
    }

    /// A site with four 8 MB playlists, and a client asking for each of them at once.
    static func fourLargePlaylistsAsked() throws -> (site: TestSite, connections: [RawConnection]) {
        let site = try TestSite { site in
            try site.addVideo("a")
            for k in 0..<4 { try site.write("a/v0/big\(k).m3u8", Self.largePlaylist(bytes: 8 << 20)) }
        }
        let connections = try (0..<4).map { k -> RawConnection in
            let connection = try RawConnection(port: site.port, timeoutSeconds: 60)
            try connection.send("GET /a/v0/big\(k).m3u8 HTTP/1.1\r\nHost: x\r\n\r\n")
            return connection
        }
        return (site, connections)
    }

    /// How many of `connections` have no answer yet.
    static func unanswered(_ connections: [RawConnection]) -> Int {
        connections.filter { connection in
            var ready = pollfd(fd: connection.descriptor, events: Int16(POLLIN), revents: 0)
            return poll(&ready, 1, 0) == 0
        }.count
    }

    @Test func largePlaylistsBeingParsedDoNotHoldUpAnotherClient() throws {
        let (site, big) = try Self.fourLargePlaylistsAsked()
        let small = try RawConnection(port: site.port, timeoutSeconds: 60)
        #expect(try small.request("GET", "/a/master.m3u8").status == 200)
        // The master came back while the large ones were still being parsed: none had begun to answer.
        #expect(Self.unanswered(big) > 0)
        for connection in big { #expect(try connection.readResponse().status == 200) }
    }

    @Test func largePlaylistsBeingParsedDoNotHoldUpTheCatalogue() throws {
        let (site, big) = try Self.fourLargePlaylistsAsked()
        // Let the loops take the four requests in first.
        usleep(300_000)
        let app = try RawConnection(port: site.port, timeoutSeconds: 60)
        #expect(try app.request("GET", "/v1/videos").status == 200)
        // Two file workers: behind a shared queue the list would come after the third large playlist at least,
        // leaving at most one unanswered.
        let waiting = Self.unanswered(big)
        #expect(waiting >= 2, "\(waiting) large playlists unanswered")
        for connection in big { #expect(try connection.readResponse().status == 200) }
    }
}
