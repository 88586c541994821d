import FilterzTestSupport
import Foundation
import JSON
import RealClients
import Testing

@testable import Playback
@testable import Simulation

/// Sessions with the `hlsjs` rule: hls.js's buffer profile, its start at the first listed level, and loads
/// abandoned from the progress the runner reports.
@Suite struct HLSJSSessionTests {
    /// 200, 400 and 4000 kbit/s, ten segments of 4 s, the top level listed first.
    static let steep: StreamManifest = {
        let bitrates: [Double] = [200, 400, 4000]
        var manifest = try! StreamManifest(
            segmentDurationMilliseconds: 4000, bitratesKilobitsPerSecond: bitrates,
            segmentSizesBits: Array(repeating: bitrates.map { $0 * 4000 }, count: 10))
        manifest.firstListedLevel = 2
        return manifest
    }()

    static func link(_ periods: [(seconds: Double, kilobits: Double)]) -> NetworkTrace {
        try! NetworkTrace(
            name: "steps",
            periods: periods.map {
                .init(
                    durationMilliseconds: $0.seconds * 1000, bandwidthKilobitsPerSecond: $0.kilobits,
                    latencyMilliseconds: 40)
            })
    }

    @Test func aDropInTheMiddleOfALoadIsAbandonedAndEverySegmentPlaysOnce() {
        // 20 Mbit/s for 2.6 s (three segments of 2 MB, 10 s buffered), then 1 Mbit/s: the fourth segment would
        // take 14 s more. hls.js gives it up when 400 kbit/s could arrive in time (its abort needs the buffer
        // to hold a lower level's segment at that level's rate, more than 4 s here).
        let trace = Self.link([(2.6, 20_000), (600, 1000)])
        let result = SimulatedSession.run(
            manifest: Self.steep, trace: trace, configuration: SessionConfiguration(rule: .hlsjs))
        #expect(result.unfinished == nil)
        #expect(result.abandonedLoads >= 1)
        #expect(result.playedLevels.count == Self.steep.segmentCount)
        #expect(result.playedLevels.first == 2)
        #expect(Set(result.segments.map(\.index)).count == result.segments.count, "each segment arrives once")
        let summary = SessionReport.json(result, manifest: Self.steep)["summary"]
        #expect(summary?["abandoned_loads"] == .integer(result.abandonedLoads))
        #expect(
            SessionReport.text(result, manifest: Self.steep).contains("abandoned loads    \(result.abandonedLoads)"))
    }

    @Test func onlyTheHLSJSRuleIsToldTheAverageBandwidth() {
        var manifest = Self.steep
        manifest.averageBitratesKilobitsPerSecond = [180, nil, 3600]
        let trace = Self.link([(10, 5000)])
        let hlsjs = Runner(
            manifest: manifest, trace: trace, configuration: SessionConfiguration(rule: .hlsjs), schedule: [])
        #expect(hlsjs.stream.variantInfos.map(\.averageBandwidthBitsPerSecond) == [180_000, nil, 3_600_000])
        #expect(hlsjs.stream.firstListedIndex == 2)
        let filterz = Runner(manifest: manifest, trace: trace, configuration: SessionConfiguration(), schedule: [])
        #expect(filterz.stream.variantInfos.map(\.averageBandwidthBitsPerSecond) == [nil, nil, nil])
    }

    @Test func anAudioSegmentSharesTheLinkWithEachLoad() throws {
        // 1 Mbit/s, 40 ms latency; 2 MB video (top level, listed first) and 64 kB audio per segment: the first
        // video segment arrives when both have crossed the link.
        var manifest = Self.steep
        manifest.audioSegmentSizesBits = Array(repeating: 512_000, count: 10)
        let trace = Self.link([(600, 1000)])
        let withAudio = SimulatedSession.run(
            manifest: manifest, trace: trace, configuration: SessionConfiguration(rule: .hlsjs))
        let first = try #require(withAudio.segments.first)
        #expect(abs(first.downloadSeconds - (0.04 + (16_000_000 + 512_000) / 1_000_000)) < 1e-9)
        let alone = SimulatedSession.run(
            manifest: Self.steep, trace: trace, configuration: SessionConfiguration(rule: .hlsjs))
        #expect(abs(try #require(alone.segments.first).downloadSeconds - 16.04) < 1e-9)
        // Other rules model Sabre's player, which loads no audio.
        let filterz = SimulatedSession.run(manifest: manifest, trace: trace, configuration: SessionConfiguration())
        #expect(abs(try #require(filterz.segments.first).downloadSeconds - 0.04 - 0.8) < 1e-9)
    }

    @Test func theRuleSeesOnlyTheVideoBytesOfASharedLoad() {
        // Video 1,000,000 bits, audio 200,000: shared halves until 400,000 bits have crossed, then video alone.
        var manifest = Self.steep
        manifest.audioSegmentSizesBits = [200_000]
        var runner = Runner(
            manifest: manifest, trace: Self.link([(600, 1000)]), configuration: SessionConfiguration(rule: .hlsjs),
            schedule: [])
        let audio = runner.nextAudioBits(forSegment: 0)
        #expect(audio == 200_000)
        #expect(runner.nextAudioBits(forSegment: 1) == 0, "no more audio segments")
        let flight = Runner.InFlight(
            id: .init(1),
            request: .init(
                id: .init(1), variantIndex: 2, mediaSequence: 0, uri: "s0", playlistURL: "v2", byteRange: nil,
                startSeconds: 0, durationSeconds: 4),
            segmentIndex: 0, startedAt: 0, arrivesAt: 1.24, clockAfter: runner.clock,
            download: .init(latencyMilliseconds: 40, transferMilliseconds: 1200), bytes: 125_000, audioBits: audio,
            reason: "", clockAtStart: runner.clock)
        #expect(flight.progress(at: 0.03).bytesLoaded == 0)
        #expect(flight.progress(at: 0.34).bytesLoaded == 150_000 / 8)  // 300,000 bits crossed, half of them video
        #expect(flight.progress(at: 0.84).bytesLoaded == 600_000 / 8)  // 800,000 crossed, audio done at 400,000
    }

    @Test func loadingStopsAtHLSJSBufferLimit() throws {
        // With maxBufferSize out of the way the limit is maxBufferLength: a segment is asked for only while
        // less than that is buffered, and on a fast link within a tick of the buffer dropping below it.
        var configuration = SessionConfiguration(rule: .hlsjs)
        configuration.hlsjs.maxBufferSizeBytes = 1
        configuration.hlsjs.maxBufferLengthSeconds = 12
        let result = SimulatedSession.run(
            manifest: Self.steep, trace: Self.link([(10, 50_000)]), configuration: configuration)
        #expect(result.unfinished == nil)
        #expect(result.playedLevels.count == Self.steep.segmentCount)
        for (previous, segment) in zip(result.segments, result.segments.dropFirst()) {
            let arrival = previous.requestTimeSeconds + previous.downloadSeconds
            let buffered = previous.bufferAfterSeconds - (segment.requestTimeSeconds - arrival)
            #expect(buffered < 12 + 1e-9, "segment \(segment.index)")
            if segment.requestTimeSeconds > arrival + 1e-9 {
                #expect(buffered > 12 - 0.1 - 1e-9, "segment \(segment.index) waited past a tick")
            }
        }
    }

    @Test(.enabled(if: SharedData.folder("traces/json") != nil, "needs ../shared/traces"))
    func aSessionOnASharedTraceStartsAtTheFirstListedLevelAndPlaysToTheEnd() throws {
        let url = try #require(
            SharedData.folder("traces/json/pensieve_norway")?.appendingPathComponent("norway_bus_10.json"))
        let trace = try NetworkTrace(json: Data(contentsOf: url), fallbackName: "norway_bus_10")
        let sizes = (0..<48).map { k in
            [300.0, 750, 1200, 1850, 2850, 4300].map { $0 * 4000 * (1 + 0.1 * sin(Double(k))) }
        }
        var manifest = try StreamManifest(
            segmentDurationMilliseconds: 4000, bitratesKilobitsPerSecond: [300, 750, 1200, 1850, 2850, 4300],
            segmentSizesBits: sizes)
        manifest.firstListedLevel = 4
        let result = SimulatedSession.run(
            manifest: manifest, trace: trace, configuration: SessionConfiguration(rule: .hlsjs))
        #expect(result.unfinished == nil)
        #expect(result.playedLevels.count == 48)
        #expect(result.playedLevels.first == 4)
        #expect(result.rule == "hlsjs")
    }
}
