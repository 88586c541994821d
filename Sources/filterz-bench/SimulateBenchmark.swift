import Foundation
import Playback
import Simulation

/// `filterz-bench simulate`: simulated 10-minute sessions per second on one core (150 segments of 4 s on the
/// Pensieve ladder, `filterz` rule, seeded synthetic traces), with the fast segment loop. The anchor measured
/// in the same run is the machine-driven path (`PlaybackRunner` over `PlaybackMachine`), which must give the
/// same numbers; the published Python simulators (Sabre) manage about 30–50 sessions/s here.
///
/// Each path is timed in `windows` consecutive windows of CPU time (5 × 0.6 s by default) and its figure is the
/// median window's rate, with the slowest and fastest window printed beside it: on a shared machine one window
/// can lose a quarter of its speed to cache and memory contention from other processes, and the median keeps
/// one such moment (or one unusually quiet one) from deciding the figure.
enum SimulateBenchmark {
    /// CPU seconds each path is timed for in all (`FILTERZ_BENCH_SECONDS`, default 3).
    static let seconds = Double(ProcessInfo.processInfo.environment["FILTERZ_BENCH_SECONDS"] ?? "") ?? 3
    /// Windows the time is split into (`FILTERZ_BENCH_WINDOWS`, default 5, odd so the median is one window's).
    static let windows = max(Int(ProcessInfo.processInfo.environment["FILTERZ_BENCH_WINDOWS"] ?? "") ?? 5, 1)

    static func run() -> Int32 {
        let manifest = makeManifest(segments: 150)
        let traces = (0..<32).map { makeTrace(seed: UInt64($0) + 1) }
        // `FILTERZ_BENCH_RULE=throughput` (etc.) times another rule, to see what the look-ahead costs.
        let rule = ProcessInfo.processInfo.environment["FILTERZ_BENCH_RULE"].flatMap(ABRRuleKind.init) ?? .filterz
        let configuration = SessionConfiguration(rule: rule)

        // Both paths agree (spot check), then each is timed for a few seconds.
        for trace in traces.prefix(4) {
            let fast = SessionSimulator.run(manifest: manifest, trace: trace, configuration: configuration, keepLog: false)
            let machine = PlaybackRunner.run(manifest: manifest, trace: trace, configuration: configuration, schedule: [])
            guard fast.playedLevels == machine.playedLevels else {
                print("simulate benchmark: fast loop and machine-driven run disagree on \(trace.name)")
                return 1
            }
        }
        var checksum = 0.0
        if let count = Int(ProcessInfo.processInfo.environment["FILTERZ_BENCH_SESSIONS"] ?? "") {
            // Fixed work for a profiler (`valgrind --tool=callgrind`: instruction counts do not depend on the load).
            for i in 0..<count {
                checksum += SessionSimulator.run(
                    manifest: manifest, trace: traces[i % traces.count], configuration: configuration, keepLog: false
                ).summary.qoeLin
            }
            print("\(count) sessions, checksum \(checksum)")
            return 0
        }
        let fast = measure { i in
            checksum += SessionSimulator.run(
                manifest: manifest, trace: traces[i % traces.count], configuration: configuration, keepLog: false
            ).summary.qoeLin
        }
        let machine = measure { i in
            checksum += PlaybackRunner.run(
                manifest: manifest, trace: traces[i % traces.count], configuration: configuration, schedule: []
            ).summary.qoeLin
        }
        let (fastRate, machineRate) = (fast.median, machine.median)
        let python = 40.0
        print("simulated 10-minute sessions (150 x 4 s segments, \(rule.rawValue) rule, one core; per second of CPU time)")
        print("fast segment loop:        \(Int(fastRate.rounded())) sessions/s   \(spread(fast))")
        print("machine-driven (anchor):  \(Int(machineRate.rounded())) sessions/s   \(spread(machine))")
        print("ratio fast/anchor \(String(format: "%.1f", fastRate / machineRate))x")
        print("vs Python reference ~\(Int(python))/s: \(String(format: "%.0f", fastRate / python))x (target >= 100x)   [checksum \(String(format: "%.1f", checksum))]")
        print("{\"bench\":\"simulate\",\"sessions_per_s\":\(Int(fastRate.rounded())),\"machine_sessions_per_s\":\(Int(machineRate.rounded())),\"ratio_vs_python_40\":\(Int((fastRate / python).rounded()))}")
        return 0
    }

    /// Runs `body` repeatedly for `seconds` of this thread's CPU time, in `windows` equal windows; returns the
    /// calls per CPU second of each window and their median. CPU time, not wall time, so a loaded machine (other
    /// processes on the same cores) slows the figure far less.
    static func measure(_ body: (Int) -> Void) -> (median: Double, rates: [Double]) {
        var count = 0
        var rates: [Double] = []
        for _ in 0..<windows {
            let start = Measuring.threadCPUSeconds()
            var calls = 0
            var elapsed = 0.0
            repeat {
                for _ in 0..<8 {
                    body(count)
                    count += 1
                    calls += 1
                }
                elapsed = Measuring.threadCPUSeconds() - start
            } while elapsed < seconds / Double(windows)
            rates.append(Double(calls) / elapsed)
        }
        return (Measuring.median(rates), rates)
    }

    /// "median of N windows, slowest–fastest", for the text lines.
    static func spread(_ measured: (median: Double, rates: [Double])) -> String {
        let low = Int((measured.rates.min() ?? 0).rounded())
        let high = Int((measured.rates.max() ?? 0).rounded())
        return "(median of \(measured.rates.count) windows of \(String(format: "%.1f", seconds / Double(windows))) s; \(low)–\(high))"
    }


    static func makeManifest(segments: Int) -> StreamManifest {
        let bitrates: [Double] = [300, 750, 1200, 1850, 2850, 4300]
        var random = SplitMix(seed: 42)
        let sizes = (0..<segments).map { _ in
            let factor = 0.8 + 0.4 * random.unit()
            return bitrates.map { $0 * 4000 * factor }
        }
        return try! StreamManifest(
            segmentDurationMilliseconds: 4000, bitratesKilobitsPerSecond: bitrates, segmentSizesBits: sizes)
    }

    /// A 1 s-period random walk between 0.2 and 8 Mbit/s with occasional outages, 80 ms latency, 10 minutes.
    static func makeTrace(seed: UInt64) -> NetworkTrace {
        var random = SplitMix(seed: seed)
        var kbps = 500 + 3000 * random.unit()
        var periods: [NetworkTrace.Period] = []
        for _ in 0..<600 {
            kbps = min(max(kbps * (0.75 + 0.5 * random.unit()), 200), 8000)
            let outage = random.unit() < 0.01
            periods.append(.init(durationMilliseconds: 1000, bandwidthKilobitsPerSecond: outage ? 0 : kbps, latencyMilliseconds: 80))
        }
        return try! NetworkTrace(name: "synthetic-\(seed)", periods: periods)
    }

    struct SplitMix {
        var state: UInt64
        init(seed: UInt64) { state = seed }
        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
        mutating func unit() -> Double { Double(next() >> 11) / Double(1 << 53) }
    }
}
