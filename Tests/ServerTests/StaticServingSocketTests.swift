import FilterzTestSupport
import Foundation
import RealClients
import Testing

@testable import Server

/// Serving files over real connections on 127.0.0.1: answers without a body keep the connection in step, a
/// kept-alive connection serves many requests, and a port in use is an error.
@Suite struct StaticServingSocketTests {
    let site: TestSite

    init() throws {
        site = try TestSite { try $0.addVideo("vod") }
    }

    @Test func aNotModifiedAnswerIsFollowedRightAwayByTheNextOne() throws {
        let tag = try #require(try fetch(site.port, "GET", "/vod/v0/seg_1.ts").header("etag"))
        // On a keep-alive connection the next response follows right after the 304 (no stray body bytes).
        let connection = try RawConnection(port: site.port)
        let notModified = try connection.request("GET", "/vod/v0/seg_1.ts", headers: ["If-None-Match": tag])
        #expect(notModified.status == 304)
        #expect(notModified.header("content-length") == nil || notModified.header("content-length") == "2001")
        #expect(try connection.request("GET", "/vod/v0/seg_2.ts").body == SiteFolder.bytes(count: 2002, seed: 2))
    }

    @Test func headSendsHeadersOnly() throws {
        let connection = try RawConnection(port: site.port)
        let head = try connection.request("HEAD", "/vod/v0/seg_2.ts")
        #expect(head.status == 200)
        #expect(head.header("content-length") == "2002")
        #expect(head.body.isEmpty)
        // The connection is still in step: the next response is the next request's.
        let get = try connection.request("GET", "/vod/poster.jpg")
        #expect(get.status == 200 && get.header("content-type") == "image/jpeg")
    }

    @Test func keepAliveConnectionsServeManyRequests() throws {
        let connection = try RawConnection(port: site.port)
        for index in 0..<20 {
            let response = try connection.request("GET", "/vod/v1/seg_\(index % 3).ts")
            #expect(response.status == 200)
            #expect(response.header("connection")?.lowercased() != "close")
        }
    }

    @Test func aPortInUseIsAnErrorNotASharedPort() throws {
        var configuration = site.server.configuration
        configuration.port = site.port
        #expect(throws: ServerError.self) { _ = try HTTPServer(configuration: configuration) }
    }
}
