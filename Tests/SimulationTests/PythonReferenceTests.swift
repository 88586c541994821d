import FilterzTestSupport
import Foundation
import RealClients
import Testing

@testable import Playback
@testable import Simulation

/// `SessionSimulator` against the Python reference simulator (`Benchmarks/reference_simulator.py`), an independent
/// implementation of the same model and of the `throughput` and `bola` rules: the same played levels, and QoE_lin
/// within 1e-6 relative, on traces chosen to exercise each part of the model.
@Suite(
    .enabled(if: ExternalTool.isInstalled("python3"), "needs python3 to run Benchmarks/reference_simulator.py"),
    .slow)
struct PythonReferenceTests {
    static let script = SharedData.packageRoot.appendingPathComponent("Benchmarks/reference_simulator.py").path

    /// 60 segments of 4 s on the Pensieve ladder, sizes varying ±25 % around the nominal rate.
    static let manifest: StreamManifest = {
        let bitrates: [Double] = [300, 750, 1200, 1850, 2850, 4300]
        let sizes: [[Double]] = (0..<60).map { (k: Int) -> [Double] in
            let factor: Double = 0.75 + 0.5 * Double((k * 37 + 11) % 101) / 100
            return bitrates.map { $0 * 4000 * factor }
        }
        return try! StreamManifest(
            segmentDurationMilliseconds: 4000, bitratesKilobitsPerSecond: bitrates, segmentSizesBits: sizes)
    }()

    static func period(_ ms: Double, _ kbps: Double, _ latency: Double = 80) -> NetworkTrace.Period {
        .init(durationMilliseconds: ms, bandwidthKilobitsPerSecond: kbps, latencyMilliseconds: latency)
    }

    static let traces: [NetworkTrace] = [
        // Fast, then a step down to 1.5 Mbit/s 41.3 s in, in the middle of a download; recovers at 150 s.
        try! NetworkTrace(
            name: "step-down", periods: [period(41_300, 6000), period(108_700, 1500), period(300_000, 5000)]),
        // A 30 s outage (bandwidth 0) 2 s in, with little buffered: a stall, then recovery.
        try! NetworkTrace(name: "outage", periods: [period(2000, 3000), period(30_000, 0), period(400_000, 3000)]),
        // 23.5 s, looped about ten times over a 240 s session; latencies that cross period boundaries.
        try! NetworkTrace(
            name: "short-loop",
            periods: [
                period(9000, 4500, 40), period(500, 800, 700), period(6000, 1200, 150), period(8000, 2500, 60),
            ]),
        // A random walk of 700 ms periods between 0.2 and 7 Mbit/s, latency 20–220 ms, with outages.
        randomWalk(seed: 7), randomWalk(seed: 8),
    ]

    static func randomWalk(seed: UInt64) -> NetworkTrace {
        var generator = SeededGenerator(seed: seed)
        var kbps = 2000.0
        let periods = (0..<400).map { _ in
            kbps = min(max(kbps * (0.7 + 0.6 * generator.nextUnit()), 200), 7000)
            return period(700, generator.nextUnit() < 0.03 ? 0 : kbps, 20 + 200 * generator.nextUnit())
        }
        return try! NetworkTrace(name: "walk-\(seed)", periods: periods)
    }

    struct Reference {
        var trace: String
        var levels: [Int]
        var qoeLin: Double
    }

    /// The Python simulator's sessions, one per trace, in order.
    static func python(manifest: StreamManifest, traces: [NetworkTrace], configuration: SessionConfiguration) throws
        -> [Reference]
    {
        let folder = try TemporaryFolder(prefix: "filterz-pyref")
        let input = folder.url.appendingPathComponent("input.json")
        try ReferenceSimulatorInput.json(manifest: manifest, traces: traces, configuration: configuration)
            .write(to: input, atomically: true, encoding: .utf8)
        let result = try ExternalTool.run("python3", [script, input.path, "--check"], timeoutSeconds: 120)
        guard result.exitCode == 0 else {
            Issue.record("reference_simulator.py failed (\(result.exitCode)): \(result.stderr)")
            return []
        }
        return try result.stdout.split(separator: "\n").map { line in
            let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
            return Reference(
                trace: try #require(object["trace"] as? String), levels: try #require(object["levels"] as? [Int]),
                qoeLin: try #require((object["qoe_lin"] as? NSNumber)?.doubleValue))
        }
    }

    /// Both simulators on every trace: same levels, QoE_lin within 1e-6 relative (of at least 1).
    static func expectAgreement(manifest: StreamManifest, traces: [NetworkTrace], configuration: SessionConfiguration)
        throws
    {
        let reference = try python(manifest: manifest, traces: traces, configuration: configuration)
        try #require(reference.count == traces.count, "one Python session per trace")
        for (trace, python) in zip(traces, reference) {
            let ours = SessionSimulator.run(
                manifest: manifest, trace: trace, configuration: configuration, keepLog: false)
            let label = "\(trace.name), \(configuration.rule.rawValue), buffer \(configuration.bufferCapSeconds) s"
            #expect(python.trace == trace.name)
            #expect(ours.playedLevels == python.levels, "\(label)")
            let scale = max(abs(ours.summary.qoeLin), abs(python.qoeLin), 1)
            #expect(
                abs(ours.summary.qoeLin - python.qoeLin) <= 1e-6 * scale,
                "\(label): \(ours.summary.qoeLin) vs \(python.qoeLin)")
        }
    }

    @Test(arguments: [ABRRuleKind.throughput, .bola])
    func sameLevelsAndQoEAsThePythonReference(_ rule: ABRRuleKind) throws {
        // The default player, and a small buffer with a start-up threshold (idling at the cap, later start).
        try Self.expectAgreement(
            manifest: Self.manifest, traces: Self.traces, configuration: SessionConfiguration(rule: rule))
        try Self.expectAgreement(
            manifest: Self.manifest, traces: Self.traces,
            configuration: SessionConfiguration(rule: rule, bufferCapSeconds: 20, startupThresholdSeconds: 10))
    }

    /// The traces exercise what they are meant to: a download across the step down, a stall (the outage), idling
    /// at the cap, the loop.
    @Test func theTracesCoverStepsStallsIdlingAndLooping() {
        let configuration = SessionConfiguration(rule: .bola)
        let step = SessionSimulator.run(manifest: Self.manifest, trace: Self.traces[0], configuration: configuration)
        #expect(
            step.segments.contains { $0.requestTimeSeconds < 41.3 && $0.requestTimeSeconds + $0.downloadSeconds > 41.3 }
        )
        let outage = SessionSimulator.run(manifest: Self.manifest, trace: Self.traces[1], configuration: configuration)
        #expect(outage.summary.rebufferEvents > 0)
        let loop = SessionSimulator.run(manifest: Self.manifest, trace: Self.traces[2], configuration: configuration)
        #expect(loop.endSeconds > 2 * Self.traces[2].durationMilliseconds / 1000)
        let small = SessionConfiguration(rule: .bola, bufferCapSeconds: 20, startupThresholdSeconds: 10)
        let idling = SessionSimulator.run(manifest: Self.manifest, trace: Self.traces[2], configuration: small)
        #expect(idling.segments.contains { $0.idleBeforeSeconds > 0 })
    }

    /// The shared Pensieve manifest on all 171 shared traces (when ../shared is beside the clone).
    @Test(.enabled(if: SharedData.folder("traces/json") != nil), arguments: [ABRRuleKind.throughput, .bola])
    func sameLevelsAndQoEOnTheSharedTraces(_ rule: ABRRuleKind) throws {
        let manifest = try #require(ReferenceComparisonTests.manifest)
        let traces = ReferenceComparisonTests.allTraces.map(\.trace)
        #expect(traces.count == 171)
        try Self.expectAgreement(manifest: manifest, traces: traces, configuration: SessionConfiguration(rule: rule))
    }
}
