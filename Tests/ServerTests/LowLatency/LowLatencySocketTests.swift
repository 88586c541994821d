import FilterzTestSupport
import Foundation
import RealClients
import Testing

@testable import Server

#if canImport(Glibc)
    import Glibc
#endif

/// Held LL-HLS requests over real connections on 127.0.0.1: what the transport does with them.
@Suite struct LowLatencySocketTests {
    let site: TestSite
    let writer: LowLatencyWriter

    init() throws {
        site = try TestSite(populate: { try $0.addVideo("a") })
        writer = try LowLatencyWriter(folder: site.root.appendingPathComponent("live/v0"))
        for _ in 0..<10 { try writer.addPart() }  // segments 0 and 1 complete, two parts of segment 2
    }

    @Test func aHeldRequestIsAnsweredOnItsConnectionWhenItsPartIsWritten() throws {
        let connection = try RawConnection(port: site.port, timeoutSeconds: 10)
        try connection.send("GET /live/v0/index.m3u8?_HLS_msn=2&_HLS_part=2 HTTP/1.1\r\nHost: x\r\n\r\n")
        #expect(connection.staysSilent())
        try writer.addPart()  // part 2
        let expected = writer.playlist
        let response = try connection.readResponse()
        #expect(response.status == 200)
        #expect(response.bodyText == expected)
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
