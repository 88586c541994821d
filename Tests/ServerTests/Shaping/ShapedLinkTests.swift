import FilterzTestSupport
import Testing
import Traces

@testable import Server

/// A shaped link lets through what its trace carries, on a virtual clock: a sender asks for the bytes it has
/// left, sends what is granted and, when refused, comes back at the instant named (or later, as a loaded event
/// loop would).
struct ShapedLinkTests {
    static func trace(_ periods: [(milliseconds: Double, kilobitsPerSecond: Double, latency: Double)]) throws
        -> TraceWalker
    {
        TraceWalker(
            trace: try NetworkTrace(
                name: "test",
                periods: periods.map {
                    NetworkTrace.Period(
                        durationMilliseconds: $0.milliseconds, bandwidthKilobitsPerSecond: $0.kilobitsPerSecond,
                        latencyMilliseconds: $0.latency)
                }))
    }

    /// Sends `bytes` through `link` from `start` by each sender in turn; returns when each byte left (ms, bytes).
    /// `lateness` delays every wake-up (a busy loop).
    static func send(
        _ bytes: [Int64], through link: inout ShapedLink, from start: Int64,
        lateness: (inout SeededGenerator) -> Int64 = { _ in 0 }
    ) -> [(at: Int64, sender: Int, bytes: Int)] {
        var generator = SeededGenerator(seed: 0x5A_0E)
        var left = bytes
        var wakeAt = Array(repeating: start, count: bytes.count)
        var sent: [(at: Int64, sender: Int, bytes: Int)] = []
        while let sender = left.indices.filter({ left[$0] > 0 }).min(by: { wakeAt[$0] < wakeAt[$1] }) {
            let now = wakeAt[sender]
            switch link.grant(wanting: left[sender], now: now) {
            case .send(let count):
                left[sender] -= Int64(count)
                sent.append((now, sender, count))
            case .wait(let until):
                #expect(until > now)
                wakeAt[sender] = until + lateness(&generator)
            }
        }
        return sent
    }

    @Test func sixteenMebibytesOverFourMegabitsTakeThirtyThreeAndAHalfSeconds() throws {
        var link = ShapedLink(walker: try Self.trace([(1000, 4000, 0)]), origin: 1_000)
        let sent = Self.send([16 << 20], through: &link, from: 1_000)
        let seconds = Double(sent.last!.at - 1_000) / 1000
        #expect(abs(seconds - 33.554) / 33.554 < 0.02, "\(seconds) s")
        #expect(sent.reduce(0) { $0 + $1.bytes } == 16 << 20)
    }

    @Test func bytesPerSecondFollowTheTraceAndAnOutageStallsTheLink() throws {
        let rates: [Double] = [3000, 800, 5000, 0, 1500, 12000, 400, 2500]
        var link = ShapedLink(walker: try Self.trace(rates.map { (1000, $0, 0) }), origin: 0)
        let sent = Self.send([4 << 20], through: &link, from: 0)
        var perSecond = Array(repeating: 0.0, count: 20)
        // A byte sent at the instant a second ends was carried in that second: seconds are (k, k + 1].
        for record in sent where record.at <= 20_000 {
            perSecond[Int((record.at - 1) / 1000)] += Double(record.bytes) * 8
        }
        let end = Int(sent.last!.at / 1000)
        for second in 1..<min(end, 16) {
            let expected = rates[second % rates.count] * 1000
            #expect(
                abs(perSecond[second] - expected) <= 0.05 * max(expected, 1),
                "second \(second): \(perSecond[second]) bits, the trace \(expected)")
        }
        #expect(perSecond[3] == 0, "bytes left during the outage")
    }

    @Test func connectionsSharingALinkShareItsRateAndALateLoopLosesLittle() throws {
        var link = ShapedLink(walker: try Self.trace([(1000, 8000, 0)]), origin: 0)
        let sent = Self.send([4 << 20, 4 << 20], through: &link, from: 0) { Int64.random(in: 0...25, using: &$0) }
        let total = Double(8 << 20) * 8
        let seconds = Double(sent.last!.at) / 1000
        #expect(seconds >= total / 8_000_000 - 0.05, "faster than the link: \(seconds) s")
        #expect(seconds <= total / 8_000_000 * 1.02, "\(seconds) s for \(total / 8_000_000) s of link")
        // Neither starves: in the first half each sender got at least a third.
        let half = sent.filter { $0.at < Int64(seconds * 500) }
        let first = half.filter { $0.sender == 0 }.reduce(0) { $0 + $1.bytes }
        let second = half.filter { $0.sender == 1 }.reduce(0) { $0 + $1.bytes }
        #expect(min(first, second) * 2 >= max(first, second) / 2, "\(first) and \(second) bytes")
    }

    @Test func theFirstByteWaitsTheLatencyInForceAndTheTraceLoops() throws {
        let link = ShapedLink(walker: try Self.trace([(500, 1000, 40), (500, 1000, 200.4)]), origin: 10_000)
        #expect(link.latencyMilliseconds(at: 10_100) == 40)
        #expect(link.latencyMilliseconds(at: 10_600) == 201)
        #expect(link.latencyMilliseconds(at: 11_100) == 40)
        #expect(link.latencyMilliseconds(at: 5_000) == 40, "before the origin the link is at its start")
    }

    /// A client's connections share one link; with `--shape-by connection` each has its own, ended with it.
    @Test func linksAreKeyedByClientOrByConnection() throws {
        let trace = try NetworkTrace.constant(bitsPerSecond: 1_000_000, latencySeconds: 0)
        final class Token {}
        let (first, second) = (Token(), Token())
        let peer = PeerAddress(text: "127.0.0.1", port: 1)
        let byClient = SharedLinks(shape: LinkShape(trace: trace, scope: .client))
        #expect(
            byClient.key(peer: peer, connection: ObjectIdentifier(first))
                == byClient.key(peer: PeerAddress(text: "127.0.0.1", port: 2), connection: ObjectIdentifier(second)))
        let byConnection = SharedLinks(shape: LinkShape(trace: trace, scope: .connection))
        let a = byConnection.key(peer: peer, connection: ObjectIdentifier(first))
        let b = byConnection.key(peer: peer, connection: ObjectIdentifier(second))
        #expect(a != b)
        // Two links: what one connection takes leaves the other's bucket whole.
        byConnection.open(a, now: 0)
        byConnection.open(b, now: 0)
        #expect(byConnection.grant(a, wanting: 1500, now: 0) == .send(1000))
        #expect(byConnection.grant(b, wanting: 1500, now: 0) == .send(1000))
        byConnection.close(a)
        #expect(byConnection.origin(a) == nil && byConnection.origin(b) == 0)
        withExtendedLifetime((first, second)) {}
    }
}
