import FilterzTestSupport
import Foundation
import Testing

@testable import Server

#if canImport(Glibc)
    import Glibc
#endif

/// Clients that hold connections without finishing a request: a whole-request deadline, a cap per address, and
/// a full server that still answers a newcomer. Many clients are simulated from the addresses of 127.0.0.0/8.
@Suite(.serialized, .tags(.slow), .fullRunOnly) struct ConnectionLimitTests {
    @Test func aHeadTrickledInIsCutOffAtItsDeadlineWhateverTheRate() throws {
        let site = try TestSite(populate: { try $0.addVideo("a") }, configure: { $0.timeouts.requestHeadSeconds = 1 })
        let connection = try RawConnection(port: site.port, timeoutSeconds: 10)
        let request = Array("GET /a/master.m3u8 HTTP/1.1\r\nHost: 127.0.0.1\r\nUser-Agent: slow\r\n\r\n".utf8)
        var sent = 0
        // One byte every 100 ms: each byte alone would reset an idle timer, so only a deadline on the whole head
        // ends this before the last byte.
        for byte in request {
            do { try connection.send([byte]) } catch { break }
            sent += 1
            var ready = pollfd(fd: connection.descriptor, events: Int16(POLLIN), revents: 0)
            if poll(&ready, 1, 100) > 0 { break }
        }
        #expect(sent < request.count)
        #expect(try connection.readResponse().status == 408)
        #expect(connection.isClosedByPeer())
    }

    @Test func anAddressPastItsCapGets503WhileOthersAreServed() throws {
        let site = try TestSite(populate: { try $0.addVideo("a") }, configure: { $0.connectionsPerAddress = 3 })
        let held = try (0..<3).map { _ in try RawConnection(port: site.port, source: "127.0.0.2") }
        try held[0].send("GET /a/mas")
        // Two event loops accept in parallel: wait until the three are admitted, so that the next is the fourth.
        for _ in 0..<1000 where site.server.connectionCount < 3 { usleep(5_000) }
        #expect(site.server.connectionCount == 3)
        let refused = try RawConnection(port: site.port, source: "127.0.0.2")
        #expect(try refused.readResponse().status == 503)
        #expect(refused.isClosedByPeer())
        #expect(try RawConnection(port: site.port, source: "127.0.0.3").request("GET", "/a/master.m3u8").status == 200)
        #expect(try held[1].request("GET", "/a/master.m3u8").status == 200)
    }

    @Test func thousandsOfTricklingConnectionsDoNotLockOutANormalClient() throws {
        LoadTests.raiseFileLimit(to: 8192)
        let limit = 500
        let site = try TestSite(
            populate: { try $0.addVideo("a") },
            configure: {
                $0.connectionLimit = limit
                $0.connectionsPerAddress = 100
            })
        // 2,000 clients from 20 addresses, each sending a request head one byte at a time and never finishing it.
        var attackers: [RawConnection] = []
        for index in 0..<2000 {
            guard
                let connection = try? RawConnection(
                    port: site.port, source: "127.0.1.\(index % 20 + 1)", timeoutSeconds: 1)
            else { continue }
            _ = try? connection.send("G")
            attackers.append(connection)
        }
        #expect(attackers.count > limit)
        let trickling = Attackers(attackers)
        let stop = Atomic(false)
        let trickler = Thread {
            let bytes = Array("ET /a/master.m3u8 HTTP/1.1\r\nHost: x\r\nX-Slow: ".utf8)
            var position = 0
            while !stop.load() {
                for connection in trickling.connections { _ = try? connection.send([bytes[position % bytes.count]]) }
                position += 1
                usleep(200_000)
            }
        }
        trickler.start()
        defer { stop.store(true) }
        // The normal client, on connections of its own, one request each, gets every answer in full.
        var served = 0
        for index in 0..<20 {
            let response = try RawConnection(port: site.port, timeoutSeconds: 5).request(
                "GET", "/a/v0/seg_\(index % 3).ts")
            if response.status == 200 && response.body.count >= 2000 { served += 1 }
        }
        #expect(served == 20)
        #expect(site.server.connectionCount <= limit)
    }
}

/// The attackers' connections, handed to the trickling thread (only it sends on them meanwhile).
private final class Attackers: @unchecked Sendable {
    let connections: [RawConnection]
    init(_ connections: [RawConnection]) { self.connections = connections }
}

/// A flag shared with the trickling thread.
private final class Atomic<Value: Sendable>: @unchecked Sendable {
    private let lock = NSLock()
    private var value: Value
    init(_ value: Value) { self.value = value }
    func load() -> Value { lock.withLock { value } }
    func store(_ newValue: Value) { lock.withLock { value = newValue } }
}
