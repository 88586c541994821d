import CLIKit
import FilterKit
import FilterzCLI
import Foundation
import Inspect
import JSON
import Playback
import Simulation

/// `filterz-bench simulate`: simulated 10-minute sessions per second on one core (150 segments of 4 s on the
/// Pensieve ladder, seeded synthetic traces), with the fast segment loop, against anchors measured in the same
/// run on the same manifest and traces:
/// - Sabre (UMass-LIDS/sabre, the Python simulator of the published ABR evaluations and of `shared/reference/`;
///   its own speed is printed beside ours), when `--sabre` names its
///   `src/sabre.py`: its unmodified source, one session per run inside one Python process
///   (`Benchmarks/sabre_anchor.py`); `ratio_vs_sabre` (target ≥ 100×) is our `filterz` rule over Sabre's
///   `bola -ab`. Sabre is not part of Filterz, so without it the fields are null;
/// - our own Python reference simulator (`Benchmarks/reference_simulator.py`, an independent plain-Python
///   implementation of the same model, BOLA and throughput rules, much faster than Sabre); `ratio_vs_python`
///   is our `filterz` rule over its `bola`, `same_rule_ratio` our `bola` over its `bola`;
/// - the machine-driven path (`PlaybackRunner` over `PlaybackMachine`).
///
/// Our paths are timed in `windows` consecutive windows of CPU time (5 × 0.6 s by default) and each figure is the
/// median window's rate, with the slowest and fastest window printed beside it: on a shared machine one window
/// can lose a quarter of its speed to cache and memory contention from other processes, and the median keeps
/// one such moment (or one unusually quiet one) from deciding the figure. Python runs in a child process for
/// the same CPU time and reports sessions per second of its own CPU time.
enum SimulateBenchmark {
    struct Settings: Sendable {
        /// CPU seconds each path is timed for in all.
        var seconds = 3.0
        /// Windows the time is split into (odd, so the median is one window's).
        var windows = 5
        /// The rule timed as ours (another rule shows what the look-ahead costs).
        var rule = ABRRuleKind.filterz
        /// A fixed number of sessions instead of timing, for a profiler (instruction counts do not depend on load).
        var sessions: Int?
        /// Sabre's `src/sabre.py` (not part of Filterz), timed in the same run when given.
        var sabre: String?
    }

    /// What the command line asked for, bound for the run.
    @TaskLocal static var settings = Settings()
    static var seconds: Double { settings.seconds }
    static var windows: Int { settings.windows }

    static let secondsOption = Option.decimal(
        "--seconds", placeholder: "S", default: 3, in: 0.1...600, help: "CPU seconds each path is timed for in all.")
    static let windowsOption = Option.integer(
        "--windows", placeholder: "N", default: 5, in: 1...99,
        help: "Windows the time is split into (the median is kept).")
    static let ruleOption = Option.choice(
        "--rule", placeholder: "RULE", from: ABRRuleKind.allCases.map(\.rawValue), default: "filterz",
        help: "The rule timed as ours.")
    static let sessionsOption = Option.optionalInteger(
        "--sessions", placeholder: "N", in: 1...100_000_000,
        help: "Run exactly N sessions and print a checksum (for valgrind, perf).")
    static let sabreOption = Option.optional(
        "--sabre", placeholder: "FILE", help: "Sabre's src/sabre.py, timed in the same run.")

    static var command: Command {
        Command(
            CommandSpec(
                name: "simulate",
                abstract: "Simulated 10-minute sessions per CPU second, against the Python reference and Sabre.",
                options: [
                    secondsOption.spec, windowsOption.spec, ruleOption.spec, sessionsOption.spec, sabreOption.spec,
                ]),
            action: { args, _ in
                let settings = Settings(
                    seconds: try args.get(secondsOption), windows: try args.get(windowsOption),
                    rule: ABRRuleKind(rawValue: try args.get(ruleOption)) ?? .filterz,
                    sessions: try args.get(sessionsOption), sabre: try args.get(sabreOption))
                return $settings.withValue(settings) { run() }
            })
    }

    static func run() -> Int32 {
        let manifest: StreamManifest, traces: [NetworkTrace]
        do {
            manifest = try makeManifest(segments: 150)
            traces = try (0..<32).map { try makeTrace(seed: UInt64($0) + 1) }
        } catch {
            print("simulate benchmark: the generated inputs are invalid: \(error)")
            return 1
        }
        let rule = settings.rule
        let configuration = SessionConfiguration(rule: rule)

        // Both paths agree (spot check), then each is timed for a few seconds.
        for trace in traces.prefix(4) {
            let fast = SessionSimulator.run(
                manifest: manifest, trace: trace, configuration: configuration, keepLog: false)
            let machine = PlaybackRunner.run(
                manifest: manifest, trace: trace, configuration: configuration, schedule: [])
            guard fast.playedLevels == machine.playedLevels else {
                print("simulate benchmark: fast loop and machine-driven run disagree on \(trace.name)")
                return 1
            }
        }
        var checksum = 0.0
        if let count = settings.sessions {
            for i in 0..<count {
                checksum +=
                    SessionSimulator.run(
                        manifest: manifest, trace: traces[i % traces.count], configuration: configuration,
                        keepLog: false
                    ).summary.qoeLin
            }
            print("\(count) sessions, checksum \(checksum)")
            return 0
        }
        func fastLoop(_ configuration: SessionConfiguration) -> (median: Double, rates: [Double]) {
            measure { i in
                checksum +=
                    SessionSimulator.run(
                        manifest: manifest, trace: traces[i % traces.count], configuration: configuration,
                        keepLog: false
                    ).summary.qoeLin
            }
        }
        // The Python anchor simulates the same thing: its `bola` levels are ours on every trace.
        let python = PythonReferenceSimulator(manifest: manifest, traces: traces)
        let bolaLevels = traces.map {
            SessionSimulator.run(
                manifest: manifest, trace: $0, configuration: SessionConfiguration(rule: .bola), keepLog: false
            )
            .playedLevels
        }
        var pythonProblem: String?
        do throws(PythonReferenceSimulator.Problem) {
            guard try python.playedLevels(rule: .bola) == bolaLevels else {
                print(
                    "simulate benchmark: the Python reference and the fast loop disagree on bola (see PythonReferenceTests)"
                )
                return 1
            }
        } catch {
            pythonProblem = error.description
        }
        /// A Python rate, or nil (with the reason kept) once one measurement has failed.
        func timePython(_ measurement: () throws(PythonReferenceSimulator.Problem) -> Double) -> Double? {
            guard pythonProblem == nil else { return nil }
            do throws(PythonReferenceSimulator.Problem) {
                return try measurement()
            } catch {
                pythonProblem = error.description
                return nil
            }
        }

        // Ours and Python's alternate, so that a slow spell of the host does not fall on one side only.
        let fast = fastLoop(configuration)
        let pythonRate = timePython { () throws(PythonReferenceSimulator.Problem) in
            try python.sessionsPerSecond(rule: .bola, cpuSeconds: seconds)
        }
        let bola = fastLoop(SessionConfiguration(rule: .bola))
        let machine = measure { i in
            checksum +=
                PlaybackRunner.run(
                    manifest: manifest, trace: traces[i % traces.count], configuration: configuration, schedule: []
                ).summary.qoeLin
        }
        // Sabre itself, when a checkout is named (`--sabre`): as the shared reference ran it (`bola -ab`,
        // abandoning downloads), and without abandonment (`-noa`), our model, where it must play our `bola` levels.
        var sabre = SabreFigures()
        if let path = settings.sabre, !path.isEmpty {
            do throws(PythonReferenceSimulator.Problem) {
                let theirs = try python.sabrePlayedLevels(sabre: path, rule: .bola, abandons: false)
                sabre.sameLevels = zip(bolaLevels, theirs).filter { $0 == $1 }.count
                sabre.rate = try python.sabreSessionsPerSecond(
                    sabre: path, rule: .bola, abandons: true, cpuSeconds: seconds)
                sabre.noAbandonRate = try python.sabreSessionsPerSecond(
                    sabre: path, rule: .bola, abandons: false, cpuSeconds: seconds)
            } catch {
                sabre.problem = error.description
            }
        }
        let pythonThroughputRate = timePython { () throws(PythonReferenceSimulator.Problem) in
            try python.sessionsPerSecond(rule: .throughput, cpuSeconds: seconds / 2)
        }
        let throughput = fastLoop(SessionConfiguration(rule: .throughput))
        // Python as the published simulators are run: a process per session (`perProcessSessionsPerSecond`).
        let pythonPerProcessRate = timePython { () throws(PythonReferenceSimulator.Problem) in
            try python.perProcessSessionsPerSecond(rule: .bola, sessions: 24)
        }

        let (fastRate, machineRate) = (fast.median, machine.median)
        let ratio = pythonRate.map { fastRate / $0 }
        let sameRule = pythonRate.map { bola.median / $0 }
        let throughputRatio = pythonThroughputRate.map { throughput.median / $0 }
        let sabreRatio = sabre.rate.map { fastRate / $0 }
        let sabreNoAbandonRatio = sabre.noAbandonRate.map { fastRate / $0 }
        let bolaSabreNoAbandonRatio = sabre.noAbandonRate.map { bola.median / $0 }
        print("simulated 10-minute sessions (150 x 4 s segments, 32 traces, one core; per second of CPU time)")
        print("fast loop, \(rule.rawValue) rule:       \(whole(fastRate)) sessions/s   \(spread(fast))")
        print("machine-driven, \(rule.rawValue) rule:  \(whole(machineRate)) sessions/s   \(spread(machine))")
        print("fast loop, bola:               \(whole(bola.median)) sessions/s   \(spread(bola))")
        print("fast loop, throughput:         \(whole(throughput.median)) sessions/s   \(spread(throughput))")
        if let pythonProblem {
            print("Python reference simulator unavailable: \(pythonProblem); no ratio")
        }
        if let pythonRate, let ratio, let sameRule {
            print(
                "Python reference, bola:        \(format(pythonRate)) sessions/s (same levels as ours on all 32 traces)"
            )
            if let pythonThroughputRate, let throughputRatio {
                print(
                    "Python reference, throughput:  \(format(pythonThroughputRate)) sessions/s; ours/Python \(format(throughputRatio))x"
                )
            }
            print(
                "ratio \(rule.rawValue) / Python reference bola: \(format(ratio))x; same rule, bola / Python bola: \(format(sameRule))x"
            )
        }
        if let sabreRate = sabre.rate, let sabreRatio, let noAbandon = sabre.noAbandonRate, let sabreNoAbandonRatio,
            let bolaSabreNoAbandonRatio
        {
            print(
                "Sabre (--sabre), bola -ab, in one python3 process: \(format(sabreRate)) sessions/s; "
                    + "ratio \(rule.rawValue) / Sabre: \(format(sabreRatio))x (target >= 100x)")
            print(
                "Sabre, bola -ab -noa (no abandonment: our model; our bola levels on \(sabre.sameLevels) of "
                    + "\(traces.count) traces): \(format(noAbandon)) sessions/s; ratio \(rule.rawValue) / it: "
                    + "\(format(sabreNoAbandonRatio))x; same sessions, our bola / it: \(format(bolaSabreNoAbandonRatio))x"
            )
        } else if let problem = sabre.problem {
            print("Sabre unavailable: \(problem); no ratio to Sabre")
        } else {
            print(
                "Sabre not timed: give --sabre the src/sabre.py of a UMass-LIDS/sabre checkout to time it in this run")
        }
        if let pythonPerProcessRate {
            // Not the anchor: mostly interpreter start-up, which depends on the Python installation.
            print(
                "Python reference, bola, one python3 process per session, start-up included (as a command-line "
                    + "simulator such as Sabre is run, one trace per run): \(format(pythonPerProcessRate)) sessions/s")
        }
        print(
            "ratio fast/machine-driven \(fixedNumber(fastRate / machineRate, digits: 1))x   "
                + "[checksum \(fixedNumber(checksum, digits: 1))]"
        )
        /// Whole sessions per second at 10 and above, two decimals below (as the text lines print them).
        func rate(_ value: Double?) -> JSONValue {
            guard let value else { return .null }
            return ResultLine.number(value, places: value < 10 ? 2 : 0)
        }
        ResultLine.print(
            "simulate",
            [
                ("sessions_per_s", .integer(whole(fastRate))), ("rule", .string(rule.rawValue)),
                ("python_sessions_per_s", rate(pythonRate)), ("ratio_vs_python", rate(ratio)),
                ("sabre_sessions_per_s", rate(sabre.rate)), ("ratio_vs_sabre", rate(sabreRatio)),
                ("sabre_noa_sessions_per_s", rate(sabre.noAbandonRate)),
                ("ratio_vs_sabre_noa", rate(sabreNoAbandonRatio)),
                ("bola_ratio_vs_sabre_noa", rate(bolaSabreNoAbandonRatio)),
                ("sabre_noa_same_levels", sabre.rate == nil ? .null : .integer(sabre.sameLevels)),
                ("bola_sessions_per_s", .integer(whole(bola.median))), ("same_rule_ratio", rate(sameRule)),
                ("python_throughput_sessions_per_s", rate(pythonThroughputRate)),
                ("throughput_ratio", rate(throughputRatio)),
                ("python_per_process_sessions_per_s", rate(pythonPerProcessRate)),
                ("machine_sessions_per_s", .integer(whole(machineRate))),
            ])
        return 0
    }

    /// What was measured of Sabre (nil rates: not timed, or `problem`).
    struct SabreFigures {
        /// `bola -ab` as the shared reference ran it (downloads may be abandoned).
        var rate: Double?
        /// `bola -ab -noa`: our model.
        var noAbandonRate: Double?
        /// Traces on which `-noa` plays our `bola` levels.
        var sameLevels = 0
        var problem: String?
    }

    static func whole(_ rate: Double) -> Int { Int(rate.rounded()) }
    /// Two decimals below 10, whole numbers above.
    static func format(_ value: Double) -> String { fixedNumber(value, digits: value < 10 ? 2 : 0) }

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
        return
            "(median of \(measured.rates.count) windows of \(fixedNumber(seconds / Double(windows), digits: 1)) s; \(low)–\(high))"
    }

    static func makeManifest(segments: Int) throws -> StreamManifest {
        let bitrates: [Double] = [300, 750, 1200, 1850, 2850, 4300]
        var random = SplitMix64(seed: 42)
        let sizes = (0..<segments).map { _ in
            let factor = 0.8 + 0.4 * random.nextUnit()
            return bitrates.map { $0 * 4000 * factor }
        }
        return try StreamManifest(
            segmentDurationMilliseconds: 4000, bitratesKilobitsPerSecond: bitrates, segmentSizesBits: sizes)
    }

    /// A 1 s-period random walk between 0.2 and 8 Mbit/s with occasional outages, 80 ms latency, 10 minutes.
    static func makeTrace(seed: UInt64) throws -> NetworkTrace {
        var random = SplitMix64(seed: seed)
        var kbps = 500 + 3000 * random.nextUnit()
        var periods: [NetworkTrace.Period] = []
        for _ in 0..<600 {
            kbps = min(max(kbps * (0.75 + 0.5 * random.nextUnit()), 200), 8000)
            let outage = random.nextUnit() < 0.01
            periods.append(
                .init(
                    durationMilliseconds: 1000, bandwidthKilobitsPerSecond: outage ? 0 : kbps, latencyMilliseconds: 80))
        }
        return try NetworkTrace(name: "synthetic-\(seed)", periods: periods)
    }
}
