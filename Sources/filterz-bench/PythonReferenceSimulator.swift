import CLIKit
import Foundation
import JSON
import Playback
import RealClients
import Simulation

/// The Python reference simulator (`Benchmarks/reference_simulator.py`) run as a child process on the bench's
/// manifest and traces: the same-run anchor of `filterz-bench simulate`. Like the parse bench's Python m3u8 run,
/// the input goes through a temporary file and `/usr/bin/env python3`; the script is found beside this source
/// file in the package.
struct PythonReferenceSimulator {
    let manifest: StreamManifest
    let traces: [NetworkTrace]

    /// Why the anchor could not be measured, for the printout.
    struct Problem: Error, CustomStringConvertible {
        var description: String
    }

    /// The `Benchmarks` folder of the package this bench was built from.
    static let benchmarks = SharedData.packageRoot.appendingPathComponent("Benchmarks")
    /// Our reference simulator.
    static let script = benchmarks.appendingPathComponent("reference_simulator.py").path
    /// The driver that times Sabre in process (`sabreSessionsPerSecond`).
    static let sabreDriver = benchmarks.appendingPathComponent("sabre_anchor.py").path

    /// The levels Python plays on each trace with `rule` (default buffer and start-up).
    func playedLevels(rule: ABRRuleKind) throws(Problem) -> [[Int]] {
        try levels(from: try run(rule: rule, arguments: ["--check"]))
    }

    /// The `levels` of each `--check` line.
    private func levels(from output: String) throws(Problem) -> [[Int]] {
        try output.split(separator: "\n").map { line throws(Problem) in
            guard case .array(let items)? = (try? JSONValue(parsing: Array(line.utf8)))?["levels"] else {
                throw Problem(description: "unreadable --check line: \(line.prefix(80))")
            }
            return try items.map { item throws(Problem) in
                guard case .integer(let level) = item else {
                    throw Problem(description: "unreadable --check line: \(line.prefix(80))")
                }
                return level
            }
        }
    }

    /// Sessions per CPU second of the Python process, round-robin over the traces for `cpuSeconds`.
    func sessionsPerSecond(rule: ABRRuleKind, cpuSeconds: Double) throws(Problem) -> Double {
        try rate(from: try run(rule: rule, arguments: ["--bench", String(cpuSeconds)]))
    }

    /// Sessions per CPU second of Sabre itself, `sabre` being its `src/sabre.py` (not part of Filterz: the
    /// simulator that made `shared/reference/`), on the same manifest and traces with its equivalent of `rule`,
    /// round-robin for `cpuSeconds`: its unmodified source run once per session inside one Python process by
    /// `Benchmarks/sabre_anchor.py`, so without interpreter start-up. `abandons` false passes Sabre's `-noa`
    /// (no download is abandoned: our model).
    func sabreSessionsPerSecond(sabre: String, rule: ABRRuleKind, abandons: Bool, cpuSeconds: Double) throws(Problem)
        -> Double
    {
        try rate(from: try runSabre(sabre, rule: rule, abandons: abandons, arguments: ["--bench", String(cpuSeconds)]))
    }

    /// The levels Sabre plays on each trace (`sabreSessionsPerSecond`'s sessions, from Sabre's own log).
    func sabrePlayedLevels(sabre: String, rule: ABRRuleKind, abandons: Bool) throws(Problem) -> [[Int]] {
        try levels(from: try runSabre(sabre, rule: rule, abandons: abandons, arguments: ["--check"]))
    }

    private func runSabre(_ sabre: String, rule: ABRRuleKind, abandons: Bool, arguments: [String]) throws(Problem)
        -> String
    {
        guard FileManager.default.isReadableFile(atPath: sabre) else {
            throw Problem(description: "--sabre \(sabre): no such file")
        }
        return try run(
            rule: rule, script: Self.sabreDriver, arguments: arguments + (abandons ? [] : ["--no-abandon"]),
            before: [sabre])
    }

    /// The `sessions_per_s` of a `--bench` line.
    private func rate(from output: String) throws(Problem) -> Double {
        guard let rate = (try? JSONValue(parsing: Array(output.utf8)))?["sessions_per_s"]?.doubleValue, rate > 0
        else { throw Problem(description: "unreadable timing output: \(output.prefix(80))") }
        return rate
    }

    /// Sessions per CPU second of Python run the way the published simulators are run (Sabre is a command taking
    /// one trace): one `python3` process per session, reading a one-trace input, start-up included; `sessions`
    /// processes round-robin over the traces, timed by their CPU time (`RUSAGE_CHILDREN`). Mostly interpreter
    /// start-up (which depends on the installation's site packages), so the bench prints it for information and
    /// does not use it as an anchor; `sessionsPerSecond` is the loop alone.
    func perProcessSessionsPerSecond(rule: ABRRuleKind, sessions: Int) throws(Problem) -> Double {
        let folder = try temporaryFolder(for: Self.script)
        defer { try? FileManager.default.removeItem(at: folder) }
        var inputs: [URL] = []
        for (index, trace) in traces.enumerated() {
            inputs.append(
                try write(rule: rule, traces: [trace], to: folder.appendingPathComponent("trace-\(index).json")))
        }
        let before = Measuring.childrenCPUSeconds()
        for session in 0..<sessions {
            _ = try launch(script: Self.script, arguments: [inputs[session % inputs.count].path, "--check"])
        }
        let seconds = Measuring.childrenCPUSeconds() - before
        guard seconds > 0 else { throw Problem(description: "no CPU time measured for the python3 processes") }
        return Double(sessions) / seconds
    }

    /// `python3 script before… INPUT arguments…`, INPUT holding all the traces and `rule`.
    private func run(
        rule: ABRRuleKind, script: String = Self.script, arguments: [String], before: [String] = []
    ) throws(Problem) -> String {
        let folder = try temporaryFolder(for: script)
        defer { try? FileManager.default.removeItem(at: folder) }
        let input = try write(rule: rule, traces: traces, to: folder.appendingPathComponent("input.json"))
        return try launch(script: script, arguments: before + [input.path] + arguments)
    }

    private func temporaryFolder(for script: String) throws(Problem) -> URL {
        guard FileManager.default.fileExists(atPath: script) else {
            throw Problem(description: "\(script) not found")
        }
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("filterz-bench-simulate-\(getpid())")
        try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return folder
    }

    private func write(rule: ABRRuleKind, traces: [NetworkTrace], to input: URL) throws(Problem) -> URL {
        let job = ReferenceSimulatorInput.json(
            manifest: manifest, traces: traces, configuration: SessionConfiguration(rule: rule))
        guard FileManager.default.createFile(atPath: input.path, contents: Data(job.utf8)) else {
            throw Problem(description: "cannot write \(input.path)")
        }
        return input
    }

    private func launch(script: String, arguments: [String]) throws(Problem) -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", script] + arguments
        let pipe = Pipe()
        process.standardOutput = pipe
        do { try process.run() } catch { throw Problem(description: "cannot start python3: \(error)") }
        let output = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw Problem(
                description: process.terminationStatus == 127
                    ? "python3 not found" : "python3 exited with status \(process.terminationStatus)")
        }
        return String(decoding: output, as: UTF8.self)
    }
}
