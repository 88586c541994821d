import Testing

@testable import Playback
@testable import Simulation

/// The model against hand-computed cases (Sabre's NetworkModel and buffer rules).
@Suite struct NetworkModelTests {
    static func trace(_ periods: [(ms: Double, kbps: Double, latency: Double)]) throws -> NetworkTrace {
        try NetworkTrace(
            name: "test",
            periods: periods.map {
                .init(durationMilliseconds: $0.ms, bandwidthKilobitsPerSecond: $0.kbps, latencyMilliseconds: $0.latency)
            })
    }

    /// One level, `count` segments of `bits` each, 4 s long.
    static func manifest(bits: Double, count: Int, kbps: Double = 1000) throws -> StreamManifest {
        try StreamManifest(
            segmentDurationMilliseconds: 4000, bitratesKilobitsPerSecond: [kbps],
            segmentSizesBits: Array(repeating: [bits], count: count))
    }

    @Test func constantBandwidthTakesLatencyPlusSizeOverRate() throws {
        // 2,000,000 bits at 1000 kbit/s = 2000 ms, after 40 ms of latency.
        var clock = NetworkClock(trace: try .constant(bitsPerSecond: 1_000_000, latencySeconds: 0.04))
        let download = clock.download(bits: 2_000_000)
        #expect(abs(download.latencyMilliseconds - 40) < 1e-9)
        #expect(abs(download.totalMilliseconds - 2040) < 1e-9)
        #expect(abs(clock.nowMilliseconds - 2040) < 1e-9)
    }

    @Test func aStepDownMidDownloadSlowsTheRest() throws {
        // 100 ms latency, then 900 ms at 2000 kbit/s carry 1.8 Mbit; the other 1.2 Mbit at 500 kbit/s take 2400 ms.
        let trace = try Self.trace([(1000, 2000, 100), (10_000, 500, 100)])
        var clock = NetworkClock(trace: trace)
        #expect(abs(clock.download(bits: 3_000_000).totalMilliseconds - 3400) < 1e-9)
        // The random-access walker used by the offline optimum agrees, from any start.
        let walker = TraceWalker(trace: trace)
        #expect(abs(walker.downloadMilliseconds(at: 0, bits: 3_000_000) - 3400) < 1e-9)
        var later = NetworkClock(trace: trace, at: 600)
        #expect(
            abs(
                walker.downloadMilliseconds(at: 600, bits: 1_000_000)
                    - later.download(bits: 1_000_000).totalMilliseconds) < 1e-9)
    }

    @Test func theTraceLoops() throws {
        // 1 s at 1000 kbit/s then 1 s of outage, looped: 2.5 Mbit need 1 + 1 + 0.5 s, then the outage, then 0.5 s.
        var clock = NetworkClock(trace: try Self.trace([(1000, 1000, 0), (1000, 0, 0)]))
        #expect(abs(clock.download(bits: 2_500_000).totalMilliseconds - 4500) < 1e-9)
        #expect(abs(TraceWalker(trace: clock.trace).downloadMilliseconds(at: 0, bits: 2_500_000) - 4500) < 1e-9)
    }

    @Test func aDownloadLongerThanTheBufferStalls() throws {
        // 4 Mbit segments over 500 kbit/s take 8 s each: start-up after 8 s (not rebuffering), then each later
        // segment stalls 8 − 4 = 4 s. QoE = 3 × 1 Mbps − 4.3 × 8 s = −31.4.
        let result = SessionSimulator.run(
            manifest: try Self.manifest(bits: 4_000_000, count: 3),
            trace: try .constant(bitsPerSecond: 500_000, latencySeconds: 0), configuration: .init(rule: .throughput))
        #expect(abs(result.summary.startupSeconds - 8) < 1e-9)
        #expect(abs(result.summary.rebufferSeconds - 8) < 1e-9)
        #expect(result.summary.rebufferEvents == 2)
        #expect(abs(result.summary.qoeLin - (-31.4)) < 1e-9)
        #expect(result.events.filter { $0.kind == .stall }.count == 2)
    }

    @Test func aFullBufferMakesTheNextRequestWait() throws {
        // 4 Mbit at 100 Mbit/s take 40 ms. After two segments the buffer holds 7.96 s; with a 10 s cap the
        // third request waits until 6 s remain: 1.96 s later, at 2.04 s.
        var configuration = SessionConfiguration(rule: .throughput, bufferCapSeconds: 10)
        configuration.lookaheadSegments = 1
        let result = SessionSimulator.run(
            manifest: try Self.manifest(bits: 4_000_000, count: 4),
            trace: try .constant(bitsPerSecond: 100_000_000, latencySeconds: 0), configuration: configuration)
        #expect(abs(result.segments[1].requestTimeSeconds - 0.04) < 1e-9)
        #expect(abs(result.segments[2].idleBeforeSeconds - 1.96) < 1e-9)
        #expect(abs(result.segments[2].requestTimeSeconds - 2.04) < 1e-9)
        #expect(result.summary.rebufferSeconds == 0)
        #expect(result.segments.allSatisfy { $0.bufferAfterSeconds <= 10 + 1e-9 })
    }

    @Test func qoeLinCountsBitrateRebufferingAndSwitches() {
        // 0.3 + 1.2 + 1.2 + 0.75 − 4.3 × 1.5 − (0.9 + 0.45) = 3.45 − 6.45 − 1.35 = −4.35.
        let summary = QoESummary(
            playedLevels: [0, 2, 2, 1], bitratesKilobitsPerSecond: [300, 750, 1200], segmentDurationSeconds: 4,
            rebufferSeconds: 1.5, rebufferEvents: 1, startupSeconds: 0.5)
        #expect(abs(summary.qoeLin - (-4.35)) < 1e-9)
        #expect(summary.switches == 2)
        #expect(abs(summary.averageBitrateKilobitsPerSecond - 862.5) < 1e-9)
    }

    @Test func unusableTracesAreRejectedWithTheReason() throws {
        #expect(throws: TraceError.self) { try Self.trace([(1000, 0, 10)]) }
        #expect(throws: TraceError.self) { try Self.trace([]) }
    }
}
