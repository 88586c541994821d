import HLS
import Testing

@testable import Playback
@testable import Simulation

/// Extreme numbers in traces, manifests and sessions: each is refused with an error naming the value, or ends
/// at a documented bound, instead of trapping on a conversion, allocating without end or running for ever.
@Suite struct SimulationLimitsTests {
    static func period(_ ms: Double, _ kbps: Double, _ latency: Double = 20) -> NetworkTrace.Period {
        .init(durationMilliseconds: ms, bandwidthKilobitsPerSecond: kbps, latencyMilliseconds: latency)
    }

    struct TraceCase: Sendable, CustomTestStringConvertible {
        var period: NetworkTrace.Period
        var field: String
        var testDescription: String { "\(field) \(period)" }
    }

    @Test(arguments: [
        TraceCase(period: period(1e308, 1000), field: "samples[1].duration_ms"),
        TraceCase(period: period(1e-300, 1000), field: "samples[1].duration_ms"),
        TraceCase(period: period(-5, 1000), field: "samples[1].duration_ms"),
        TraceCase(period: period(.nan, 1000), field: "samples[1].duration_ms"),
        TraceCase(period: period(1000, 1e308), field: "samples[1].bandwidth_kbps"),
        TraceCase(period: period(1000, 1e-300), field: "samples[1].bandwidth_kbps"),
        TraceCase(period: period(1000, .infinity), field: "samples[1].bandwidth_kbps"),
        TraceCase(period: period(1000, 1000, 1e300), field: "samples[1].latency_ms"),
        TraceCase(period: period(1000, 1000, -1), field: "samples[1].latency_ms"),
    ])
    func aTraceValueOutsideItsRangeIsRefusedNamingTheSample(_ bad: TraceCase) {
        #expect {
            try NetworkTrace(name: "t", periods: [Self.period(1000, 1000), bad.period])
        } throws: { error in
            guard case TraceError.outOfRange(_, let field, _, _) = error else { return false }
            return field == bad.field && "\(error)".contains("outside")
        }
    }

    @Test func aTraceOfMoreThanAMillionPeriodsIsRefused() {
        let periods = Array(repeating: Self.period(1, 1000), count: TraceLimits.maximumPeriods + 1)
        #expect(throws: TraceError.self) { try NetworkTrace(name: "many", periods: periods) }
    }

    @Test func aNumberBeyondADoubleInATraceFileNamesItsSampleAndLine() {
        let list =
            "[\n {\"duration_ms\": 1000, \"bandwidth_kbps\": 800, \"latency_ms\": 20},\n"
            + " {\"duration_ms\": 1000, \"bandwidth_kbps\": 1e309, \"latency_ms\": 20}\n]"
        for json in ["{\"samples\": " + list + "}", list] {  // the normalised object and the bare Sabre list
            do {
                _ = try NetworkTrace(json: Array(json.utf8), fallbackName: "big")
                Issue.record("1e309 was accepted")
            } catch {
                #expect(
                    "\(error)".contains("samples[1].bandwidth_kbps: 1e309 is out of the range of a number"), "\(error)")
                #expect("\(error)".contains("at line 3"), "\(error)")
            }
        }
    }

    struct ManifestCase: Sendable, CustomTestStringConvertible {
        var duration: Double
        var bitrates: [Double]
        var sizes: [[Double]]
        var says: String
        var testDescription: String { says }
    }

    @Test(arguments: [
        ManifestCase(duration: 1e308, bitrates: [300], sizes: [[1e6]], says: "segment duration"),
        ManifestCase(duration: 1e-300, bitrates: [300], sizes: [[1e6]], says: "segment duration"),
        ManifestCase(duration: 4000, bitrates: [1e308], sizes: [[1e6]], says: "bitrate of level 0"),
        ManifestCase(duration: 4000, bitrates: [1e-300], sizes: [[1e6]], says: "bitrate of level 0"),
        ManifestCase(duration: 4000, bitrates: [300], sizes: [[1e308]], says: "segment 0 needs 1 sizes"),
        ManifestCase(duration: 4000, bitrates: [300], sizes: [[1e-300]], says: "segment 0 needs 1 sizes"),
        ManifestCase(
            duration: 600_000, bitrates: [300], sizes: Array(repeating: [1e6], count: 200), says: "stream length"),
        ManifestCase(
            duration: 4000, bitrates: (1...65).map(Double.init), sizes: [Array(repeating: 1e6, count: 65)],
            says: "65 levels"),
    ])
    func aManifestValueOutsideItsRangeIsRefused(_ bad: ManifestCase) {
        #expect {
            try StreamManifest(
                segmentDurationMilliseconds: bad.duration, bitratesKilobitsPerSecond: bad.bitrates,
                segmentSizesBits: bad.sizes)
        } throws: { error in
            "\(error)".contains(bad.says)
        }
    }

    /// 1 Tbit segments over 1 bit/s would take 31,700 years each: the session stops at the 7-day bound.
    @Test func aNetworkTooSlowForTheStreamEndsAtTheSessionBound() throws {
        let manifest = try StreamManifest(
            segmentDurationMilliseconds: 4000, bitratesKilobitsPerSecond: [300, 750],
            segmentSizesBits: Array(repeating: [1e12, 1e12], count: 3))
        let trace = try NetworkTrace(name: "trickle", periods: [Self.period(86_400_000, 0.001)])
        let fast = SessionSimulator.run(manifest: manifest, trace: trace, configuration: SessionConfiguration())
        #expect(fast.unfinished == .sessionTooLong(trace: "trickle", segment: 0, segmentCount: 3))
        let runner = PlaybackRunner.run(
            manifest: manifest, trace: trace, configuration: SessionConfiguration(),
            schedule: [ViewerAction(timeSeconds: 1, kind: .seek(toSeconds: 4))])
        // The seek to 4 s made the runner fetch segment 1 instead.
        #expect(runner.unfinished == .sessionTooLong(trace: "trickle", segment: 1, segmentCount: 3))
        #expect("\(try #require(fast.unfinished))".contains("did not finish within 7 days of virtual time"))
        #expect {
            try OfflineOptimum.compute(manifest: manifest, trace: trace, bufferCapSeconds: 60)
        } throws: { "\($0)".contains("longer than the session bound") }
    }

    /// Outages of a day between seconds of signal spread the optimum's request times over days: its buckets
    /// then live in a dictionary (a dense array over 1 ms buckets would take gigabytes), and the value is still
    /// that of a real level sequence.
    @Test func theOfflineOptimumOverTimesSpreadAcrossDaysStaysExact() throws {
        let manifest = try StreamManifest(
            segmentDurationMilliseconds: 2000, bitratesKilobitsPerSecond: [300, 1200, 4000],
            segmentSizesBits: (0..<8).map { k in [600_000, 2_400_000, 8_000_000].map { $0 * (1 + Double(k % 3) / 10) } }
        )
        let trace = try NetworkTrace(
            name: "days", periods: [Self.period(3000, 5000), Self.period(86_400_000, 0), Self.period(5000, 2000, 60)])
        let optimum = try OfflineOptimum.compute(
            manifest: manifest, trace: trace, bufferCapSeconds: 30, gridMilliseconds: 1)
        let replayed = SessionSimulator.replay(
            levels: optimum.levels, manifest: manifest, trace: trace, bufferCapSeconds: 30)
        #expect(abs(replayed.qoeLin - optimum.qoeLin) < 1e-6)
    }

    @Test func theOfflineOptimumSaysWhichOfItsLimitsACaseIsBeyond() throws {
        let manifest = try StreamManifest(
            segmentDurationMilliseconds: 2000, bitratesKilobitsPerSecond: [300, 1200, 4000],
            segmentSizesBits: Array(repeating: [600_000, 2_400_000, 8_000_000], count: 40))
        let trace = try NetworkTrace(name: "steps", periods: [Self.period(700, 3000, 60), Self.period(1300, 900, 5)])
        var limits = OfflineOptimum.Limits()
        limits.states = 50
        #expect {
            try OfflineOptimum.compute(manifest: manifest, trace: trace, bufferCapSeconds: 20, limits: limits)
        } throws: { "\($0)".contains("beyond the offline optimum's limits: more than 50 states") }
        limits = OfflineOptimum.Limits()
        limits.work = 200
        #expect {
            try OfflineOptimum.compute(manifest: manifest, trace: trace, bufferCapSeconds: 20, limits: limits)
        } throws: { "\($0)".contains("more than 200 steps of work") }
        limits = OfflineOptimum.Limits()
        limits.transitionsPerSegment = 9
        #expect {
            try OfflineOptimum.compute(manifest: manifest, trace: trace, bufferCapSeconds: 20, limits: limits)
        } throws: { "\($0)".contains("transitions, more than 9") }
    }

    /// A case beyond the optimum still gets its report, with the reason in place of the optimum.
    @Test func aReportWithoutItsOptimumSaysWhyAndKeepsTheRest() throws {
        let manifest = try StreamManifest(
            segmentDurationMilliseconds: 2000, bitratesKilobitsPerSecond: [300, 1200],
            segmentSizesBits: Array(repeating: [600_000, 2_400_000], count: 4))
        var result = SessionSimulator.run(
            manifest: manifest, trace: try .constant(bitsPerSecond: 2_000_000, latencySeconds: 0.02),
            configuration: SessionConfiguration())
        result.offlineOptimumError = .beyondOptimumLimits(what: "more than 50 states by segment 3 of 4")
        let text = SessionReport.text(result, manifest: manifest)
        #expect(
            text.contains("offline optimum    not computed: beyond the offline optimum's limits: more than 50 states"))
        #expect(text.contains("levels played"))
        let json = SessionReport.json(result, manifest: manifest)
        #expect(
            json["summary"]?["offline_optimum_error"]
                == .string("beyond the offline optimum's limits: more than 50 states by segment 3 of 4"))
        #expect(json["summary"]?["offline_optimal_qoe_lin"] == .null)
        #expect(json["segments"].map { if case .array(let items) = $0 { items.count } else { 0 } } == 4)
    }
}
