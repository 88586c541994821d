import FilterzTestSupport
import Foundation
import RealClients
import Testing

@testable import Server

#if canImport(Glibc)
    import Glibc
#endif

/// Clients that hold connections without finishing a request: a whole-request deadline, a cap per address, and
/// a full server that still answers a newcomer. Many clients are simulated from the addresses of 127.0.0.0/8.
@Suite(.serialized, .slow) struct ConnectionLimitTests {
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

extension ConnectionLimitTests {
    /// The hard limit on this process's descriptors (tests that open thousands of connections need room for both
    /// ends of each).
    static var hardFileLimit: Int {
        var limit = rlimit()
        getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit)
        return Int(clamping: limit.rlim_max)
    }

    /// LL-HLS viewers waiting on blocking reloads cost no CPU: more of them than the old fixed cap of 4,096, from
    /// 20 addresses each within its cap, are all held, and new viewers are still answered at once.
    @Test(.enabled(if: hardFileLimit >= 12_000, "needs a hard descriptor limit of 12,000"))
    func thousandsOfHeldReloadsDoNotLockOutANewViewer() throws {
        LoadTests.raiseFileLimit(to: 12_000)
        let site = try TestSite(populate: { try $0.addVideo("a") })
        // A 10 s target duration: a request is held up to 30 s, longer than this test.
        let writer = try LowLatencyWriter(folder: site.root.appendingPathComponent("live/v0"), targetDuration: 10)
        for _ in 0..<10 { try writer.addPart() }
        let count = 4400
        var viewers: [RawConnection] = []
        for index in 0..<count {
            let viewer = try RawConnection(port: site.port, source: "127.0.2.\(index % 20 + 1)", timeoutSeconds: 10)
            try viewer.send("GET /live/v0/index.m3u8?_HLS_msn=2&_HLS_part=3 HTTP/1.1\r\nHost: x\r\n\r\n")
            viewers.append(viewer)
            // Every 1,000, until the server has taken them: a burst of more than the listen backlog (4,096 at most
            // on Linux) on a loaded machine would leave some in the kernel's SYN-ACK retries, seconds apart, which
            // is the kernel's accept queue and not what this test is about.
            if viewers.count % 1000 == 0 {
                for _ in 0..<1000 where site.server.connectionCount < viewers.count { usleep(10_000) }
            }
        }
        for _ in 0..<2000 where site.server.inFlightCount < count { usleep(10_000) }
        #expect(site.server.inFlightCount == count, "held \(site.server.inFlightCount) of \(count)")
        var served = 0
        for index in 0..<20 {
            let viewer = try RawConnection(port: site.port, source: "127.0.3.\(index + 1)", timeoutSeconds: 10)
            if try viewer.request("GET", "/a/master.m3u8").status == 200 { served += 1 }
        }
        #expect(served == 20)
        // The part they wait for comes: the held viewers get it.
        try writer.addPart()
        try writer.addPart()
        for viewer in viewers.prefix(10) + viewers.suffix(10) { #expect(try viewer.readResponse().status == 200) }
    }

    /// Downloads whose clients read nothing hold every slot: once they have taken nothing for the stall time,
    /// each new viewer takes the slot of one of them instead of being refused (whichever loop accepted it).
    @Test func downloadsThatReadNothingGiveWayToNewViewers() throws {
        let limit = 100
        let site = try TestSite(
            populate: { site in
                try site.addVideo("a")
                _ = try site.write("a/v0/big.ts", [UInt8](repeating: 0x47, count: 16 << 20))
            },
            configure: {
                $0.connectionLimit = limit
                $0.connectionsPerAddress = 0
                $0.timeouts.stallSeconds = 1
            })
        var stalled: [RawConnection] = []
        for _ in 0..<limit {
            let connection = try RawConnection(port: site.port, timeoutSeconds: 10)
            try connection.send("GET /a/v0/big.ts HTTP/1.1\r\nHost: x\r\n\r\n")
            stalled.append(connection)
        }
        for _ in 0..<1000 where site.server.connectionCount < limit { usleep(5_000) }
        #expect(site.server.connectionCount == limit)
        usleep(1_500_000)
        // 40 new viewers, eight at a time, so that both loops accept some and each takes a stalled slot, never
        // that of another viewer who has only just connected.
        let statuses = Atomic<[Int]>([])
        let port = site.port
        let viewers = (0..<8).map { _ in
            Thread {
                for index in 0..<5 {
                    let response = try? RawConnection(port: port, timeoutSeconds: 10).request(
                        "GET", "/a/v0/seg_\(index % 3).ts")
                    let status = response.map { $0.status == 200 && $0.body.count >= 2000 ? 200 : $0.status } ?? 0
                    statuses.modify { $0.append(status) }
                }
            }
        }
        for viewer in viewers { viewer.start() }
        for _ in 0..<2000 where statuses.load().count < 40 { usleep(10_000) }
        #expect(statuses.load() == Array(repeating: 200, count: 40))
        #expect(site.server.connectionCount <= limit)
    }

    /// A client that reads, however far behind the server it is, keeps its slot on a full server (a newcomer is
    /// refused); once it stops reading, the next newcomer takes its slot after the stall time.
    @Test func aReadingClientKeepsItsSlotUntilItStopsReading() throws {
        let site = try TestSite(
            populate: { site in
                try site.addVideo("a")
                _ = try site.write("a/v0/big.ts", [UInt8](repeating: 0x47, count: 64 << 20))
            },
            configure: {
                $0.connectionLimit = 1
                $0.timeouts.stallSeconds = 1
            })
        let reader = try RawConnection(port: site.port, timeoutSeconds: 10)
        try reader.send("GET /a/v0/big.ts HTTP/1.1\r\nHost: x\r\n\r\n")
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        var received = 0
        var whileReading: [Int] = []
        // 64 KiB every 20 ms (3.2 MB/s) for 2.5 s: far from the end of the file, the server always waiting for
        // room in the socket, and never a second without progress.
        for step in 0..<125 {
            received += max(0, recv(reader.descriptor, &chunk, chunk.count, 0))
            if step % 25 == 24 {
                whileReading.append(try RawConnection(port: site.port).request("GET", "/a/v0/seg_0.ts").status)
            }
            usleep(20_000)
        }
        #expect(whileReading == [503, 503, 503, 503, 503])
        #expect(received > 1 << 20 && received < 32 << 20)
        usleep(2_000_000)
        #expect(try RawConnection(port: site.port).request("GET", "/a/v0/seg_0.ts").status == 200)
        let rest = reader.readToEnd()
        #expect(rest.closedByPeer && received + rest.bytes.count < 64 << 20)
    }
}

/// The attackers' connections, handed to the trickling thread (only it sends on them meanwhile).
private final class Attackers: @unchecked Sendable {
    let connections: [RawConnection]
    init(_ connections: [RawConnection]) { self.connections = connections }
}

/// A value shared with the test's threads.
private final class Atomic<Value: Sendable>: @unchecked Sendable {
    private let lock = NSLock()
    private var value: Value
    init(_ value: Value) { self.value = value }
    func load() -> Value { lock.withLock { value } }
    func store(_ newValue: Value) { lock.withLock { value = newValue } }
    func modify(_ change: (inout Value) -> Void) { lock.withLock { change(&value) } }
}
