import FilterzTestSupport
import Foundation
import Testing

@testable import Playback
@testable import Simulation

/// The live origin in virtual time and a viewer following hls.js's live behaviour over it.
@Suite struct LiveSessionTests {
    static let ladder = try! StreamManifest(
        segmentDurationMilliseconds: 2000, bitratesKilobitsPerSecond: [800, 2500],
        segmentSizesBits: [[1_600_000, 5_000_000], [1_500_000, 5_400_000], [1_700_000, 4_600_000]],
        resolutions: [(640, 360), (1280, 720)])
    /// `record --live --low-latency`: 1/3 s parts, a window of 6 segments.
    static let lowLatency = LiveStream(manifest: ladder, partSeconds: 1.0 / 3, windowSegments: 6)
    /// `record --live`: whole segments.
    static let plain = LiveStream(manifest: ladder, partSeconds: nil, windowSegments: 6)

    static func constant(_ bitsPerSecond: Double) -> NetworkTrace {
        try! NetworkTrace.constant(bitsPerSecond: bitsPerSecond, latencySeconds: 0.04)
    }

    /// 5 Mb/s for 20 s, an outage of `outage` seconds, then 5 Mb/s (looped), 40 ms latency.
    static func outage(_ outage: Double) -> NetworkTrace {
        try! NetworkTrace(
            name: "outage",
            periods: [(20_000.0, 5000.0), (outage * 1000, 0), (200_000, 5000)].map {
                .init(durationMilliseconds: $0.0, bandwidthKilobitsPerSecond: $0.1, latencyMilliseconds: 40)
            })
    }

    static func randomTrace(seed: UInt64) -> NetworkTrace {
        var random = SeededGenerator(seed: seed)
        let periods = (0..<40).map { _ in
            NetworkTrace.Period(
                durationMilliseconds: Double(random.nextInt(in: 200...5000)),
                bandwidthKilobitsPerSecond: random.nextUnit() < 0.1 ? 0 : Double(random.nextInt(in: 300...8000)),
                latencyMilliseconds: Double(random.nextInt(in: 5...300)))
        }
        return try! NetworkTrace(name: "random \(seed)", periods: periods)
    }

    static func run(
        _ stream: LiveStream, _ trace: NetworkTrace, catchUp: Double = 1, seconds: Double = 60,
        rule: ABRRuleKind = .throughput
    ) -> (result: SessionResult, log: LiveSessionLog) {
        var configuration = LiveSessionConfiguration(durationSeconds: seconds)
        configuration.session.rule = rule
        configuration.sync.maxLiveSyncPlaybackRate = catchUp
        return LiveSession.run(stream: stream, trace: trace, configuration: configuration)
    }

    @Test func theOriginListsPartsOnceCompleteSlidesItsWindowAndHoldsBlockingReloads() {
        let origin = LiveOrigin(stream: Self.lowLatency)
        // History: 6 segments (12 s). At t = 0.5 the edge is 12.5: segment 6 in progress with one part of 1/3 s.
        let playlist = origin.playlist(at: 0.5)
        #expect(playlist.firstSegment == 0)
        #expect(playlist.segmentInProgress == 6)
        #expect(playlist.partsInProgress == 1)
        #expect(abs(playlist.endSeconds - (12 + 1.0 / 3)) < 1e-9)
        #expect(playlist.lists(msn: 6, part: 0))
        #expect(!playlist.lists(msn: 6, part: 1))
        #expect(!playlist.lists(msn: 6, part: nil))
        #expect(playlist.firstSegmentWithParts == 3)  // segments ending within 6 s of the edge
        #expect(origin.playlist(at: 4.1).firstSegment == 2)  // the window slid by two segments
        // Part 1 of segment 6 exists at 12 + 2/3 − 12.
        #expect(abs(origin.existsAt(msn: 6, part: 1) - 2.0 / 3) < 1e-9)
        let held = origin.blockingAnswer(msn: 6, part: 1, arrivingAt: 0.5)
        #expect(abs(held.at - 2.0 / 3) < 1e-9 && !held.timedOut)
        #expect(origin.blockingAnswer(msn: 6, part: 1, arrivingAt: 1) == (1, false))
        let far = origin.blockingAnswer(msn: 10, part: 0, arrivingAt: 0)
        #expect(far.at == 6 && far.timedOut)  // three target durations
    }

    /// Under seeded random traces, with and without parts and catch-up: nothing is requested before it exists,
    /// latency never falls below the hold-back less one part (LL) or one target duration, and reloads keep
    /// hls.js's cadence (a blocking reload asks for the part after the last one listed, never more than one in
    /// flight; a plain reload at least half a target duration after the one before).
    @Test(arguments: 0..<12)
    func liveInvariantsHoldUnderRandomTraces(seed: Int) {
        let trace = Self.randomTrace(seed: UInt64(seed))
        for stream in [Self.lowLatency, Self.plain] {
            for catchUp in [1, 1.5] {
                let (result, log) = Self.run(stream, trace, catchUp: catchUp, seconds: 90)
                let origin = LiveOrigin(stream: stream)
                for request in log.media {
                    #expect(
                        origin.existsAt(msn: request.msn, part: request.part) <= request.time + 1e-9,
                        "seed \(seed): \(request) before it exists")
                }
                let floor =
                    stream.partSeconds.map { stream.partHoldBackSeconds! - $0 }
                    ?? 3 * stream.targetDurationSeconds - stream.targetDurationSeconds
                let lowest = log.samples.map(\.latencySeconds).min() ?? .infinity
                #expect(lowest >= floor - 1e-9, "seed \(seed), parts \(stream.partSeconds != nil): latency \(lowest)")
                #expect(result.summary.latency != nil)
                for (before, after) in zip(log.playlists, log.playlists.dropFirst()) {
                    #expect(after.time >= before.answeredAt - 1e-9, "seed \(seed): two playlist requests in flight")
                    if stream.partSeconds != nil, let msn = after.msn {
                        #expect(
                            msn == before.answerSegmentInProgress && after.part == before.answerNextPart,
                            "seed \(seed): blocking reload for \(msn).\(after.part ?? -1) after \(before)")
                    } else {
                        #expect(
                            after.time - before.time >= stream.targetDurationSeconds / 2 - 1e-9,
                            "seed \(seed): reloads \(before.time) and \(after.time)")
                    }
                }
            }
        }
    }

    @Test func aConstantFastLinkPlaysNearTheTarget() throws {
        let (lowLatency, _) = Self.run(Self.lowLatency, Self.constant(5_000_000))
        let ll = try #require(lowLatency.summary.latency)
        #expect(ll.p50Seconds >= 1 && ll.p95Seconds <= 1.6, "\(ll)")  // PART-HOLD-BACK 1 s plus start-up
        #expect(lowLatency.summary.rebufferEvents == 0)
        let (plain, _) = Self.run(Self.plain, Self.constant(5_000_000))
        let p = try #require(plain.summary.latency)
        #expect(p.p50Seconds >= 6 && p.p95Seconds <= 6.6, "\(p)")  // three target durations
    }

    @Test func aStallRaisesTheTargetLatency() throws {
        let (result, log) = Self.run(Self.lowLatency, Self.outage(3))
        #expect(result.summary.rebufferEvents >= 1)
        let before = try #require(log.samples.first { $0.time > 10 })
        let after = try #require(log.samples.last)
        #expect(before.targetLatencySeconds == 1)
        #expect(after.targetLatencySeconds == 2)
        // Without catch-up the stall (the outage less the half second buffered) stays in the latency.
        #expect(after.latencySeconds >= before.latencySeconds + 1.5, "\(before) then \(after)")
    }

    @Test func theCatchUpRateBringsLatencyBack() throws {
        let (_, slow) = Self.run(Self.lowLatency, Self.outage(3), catchUp: 1)
        let (_, fast) = Self.run(Self.lowLatency, Self.outage(3), catchUp: 1.5)
        let stuck = try #require(slow.samples.last)
        let back = try #require(fast.samples.last)
        #expect(fast.samples.contains { $0.rate > 1 })
        #expect(back.latencySeconds <= back.targetLatencySeconds + 0.5, "\(back)")
        #expect(back.latencySeconds < stuck.latencySeconds - 1, "\(back) against \(stuck)")
    }

    @Test func aPlayerLeftBehindTheSlidingWindowJumpsToTheLiveSyncPosition() throws {
        let short = LiveStream(manifest: Self.ladder, partSeconds: 1.0 / 3, windowSegments: 3)
        let (result, log) = Self.run(short, Self.outage(10))
        #expect(result.summary.rebufferEvents >= 1)
        let last = try #require(log.samples.last)
        #expect(last.latencySeconds <= last.targetLatencySeconds + 0.5, "\(last)")
        let origin = LiveOrigin(stream: short)
        for request in log.media {
            #expect(request.msn >= origin.playlist(at: request.time).firstSegment, "\(request) outside the window")
        }
    }

    @Test func aLiveBatchReportsLatencyBesideQoEStallsAndSwitches() throws {
        let traces = [Self.constant(5_000_000), Self.outage(3)]
        let results = BatchSimulation.runLive(
            stream: Self.lowLatency, traces: traces, rules: [.throughput, .filterz],
            configuration: LiveSessionConfiguration(durationSeconds: 40))
        let report = BatchReport(results: results, rules: [.throughput, .filterz])
        let header = try #require(report.text().split(separator: "\n").first { $0.hasPrefix("abr") })
        #expect(header.hasSuffix("switches  lat p50  lat p95"), "\(header)")
        let row = try #require(report.rows.first)
        let p50 = try #require(row.meanLatencyP50Seconds)
        #expect(p50 >= 1 && p50 < 3)
        #expect(report.json().rendered(indent: nil).contains("\"mean_latency_p95_s\""))
        #expect(!BatchReport(results: [], rules: [.filterz]).text().contains("lat p50"))
    }
}
