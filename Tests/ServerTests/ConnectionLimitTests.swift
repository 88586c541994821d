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

    @Test func anAnswerReadAByteNowAndThenIsCutOffAtItsDeadline() throws {
        // 8 s of grace and 16 MB/s: the 64 MB file must be out within 12 s.
        let size = 64 << 20
        let site = try TestSite(
            populate: { site in
                try site.addVideo("a")
                _ = try site.write("a/v0/big.ts", [UInt8](repeating: 0x47, count: size))
            },
            configure: {
                $0.timeouts.idleSeconds = 8
                $0.timeouts.minimumSendBytesPerSecond = 16_777_216
            })
        let connection = try RawConnection(port: site.port, timeoutSeconds: 5)
        try connection.send("GET /a/v0/big.ts HTTP/1.1\r\nHost: x\r\n\r\n")
        // 80 KB every 50 ms (1.6 MB/s, 40 s for the file): the server sees progress well within its idle time,
        // so only a deadline on the whole answer ends it. The server's side is watched: what it sent before
        // closing may still sit in the sockets' buffers.
        var received = 0, chunk = [UInt8](repeating: 0, count: 80 * 1024)
        let start = ContinuousClock.now
        var closed = false
        while ContinuousClock.now - start < .seconds(30) {
            // Counted once the answer has begun to arrive (the connection is surely accepted then).
            if received > 0 && site.server.connectionCount == 0 {
                closed = true
                break
            }
            let got = recv(connection.descriptor, &chunk, chunk.count, 0)
            if got <= 0 { break }
            received += got
            usleep(50_000)
        }
        let elapsed = ContinuousClock.now - start
        #expect(closed, "the server still holds the connection after \(elapsed)")
        #expect(elapsed >= .seconds(8), "closed after \(elapsed), before the answer's deadline")
        #expect(received < size, "received \(received) bytes")
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
        // The normal client, on connections of its own, one request each, gets every answer in full and
        // promptly: each within its connection's 5 s timeout, where a locked-out client would wait for ever.
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
