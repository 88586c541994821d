import FilterzTestSupport
import Foundation
import RealClients
import Testing

@testable import Server

/// `stop` lets the answers in flight finish within the grace period, however many connections were closed
/// after their answers before.
@Suite struct GracefulStopTests {
    @Test func answersThatCloseTheirConnectionEndTheirRequestOnce() throws {
        let site = try TestSite { site in try site.addVideo("a") }
        for _ in 0..<3 {
            let connection = try RawConnection(port: site.port, timeoutSeconds: 5)
            try connection.send("GET /a/master.m3u8 HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
            #expect(try connection.readResponse().status == 200)
            #expect(connection.isClosedByPeer())
        }
        #expect(site.server.inFlightCount == 0)
    }

    @Test func stopWaitsForADownloadInFlight() throws {
        let size = 32 << 20
        let site = try TestSite { site in try site.write("big.ts", [UInt8](repeating: 0x47, count: 32 << 20)) }
        for _ in 0..<3 {
            let closing = try RawConnection(port: site.port, timeoutSeconds: 5)
            try closing.send("HEAD /big.ts HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
            _ = try closing.readResponse(bodyExpected: false)
        }
        let download = try RawConnection(port: site.port, timeoutSeconds: 10)
        try download.send("GET /big.ts HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
        // The answer has begun (the socket's buffers are full): now the server is asked to stop.
        usleep(200_000)
        let stopper = Thread { site.server.stop(graceSeconds: 10) }
        stopper.start()
        let received = download.readToEnd()
        let text = String(decoding: received.bytes.prefix(512), as: UTF8.self)
        let headEnd = try #require(text.range(of: "\r\n\r\n"), "no head in \(text.prefix(100))")
        let headBytes = text.utf8.distance(from: text.startIndex, to: headEnd.upperBound)
        #expect(received.bytes.count - headBytes == size, "the download was cut at \(received.bytes.count) bytes")
    }
}
