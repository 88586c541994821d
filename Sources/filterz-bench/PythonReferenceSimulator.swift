import Foundation
import Playback
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

    /// `Benchmarks/reference_simulator.py` of the package this bench was built from.
    static let script: String = {
        var folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        while folder.path != "/", !FileManager.default.fileExists(atPath: folder.appendingPathComponent("Package.swift").path) {
            folder.deleteLastPathComponent()
        }
        return folder.appendingPathComponent("Benchmarks/reference_simulator.py").path
    }()

    /// The levels Python plays on each trace with `rule` (default buffer and start-up).
    func playedLevels(rule: ABRRuleKind) throws(Problem) -> [[Int]] {
        let output = try run(rule: rule, arguments: ["--check"])
        return try output.split(separator: "\n").map { line throws(Problem) in
            guard let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
                let levels = object["levels"] as? [Int]
            else { throw Problem(description: "unreadable --check line: \(line.prefix(80))") }
            return levels
        }
    }

    /// Sessions per CPU second of the Python process, round-robin over the traces for `cpuSeconds`.
    func sessionsPerSecond(rule: ABRRuleKind, cpuSeconds: Double) throws(Problem) -> Double {
        let output = try run(rule: rule, arguments: ["--bench", String(cpuSeconds)])
        guard let object = try? JSONSerialization.jsonObject(with: Data(output.utf8)) as? [String: Any],
            let rate = (object["sessions_per_s"] as? NSNumber)?.doubleValue, rate > 0
        else { throw Problem(description: "unreadable --bench output: \(output.prefix(80))") }
        return rate
    }

    /// Sessions per CPU second of Python run the way the published simulators are run (Sabre is a command taking
    /// one trace): one `python3` process per session, reading a one-trace input, start-up included; `sessions`
    /// processes round-robin over the traces, timed by their CPU time (`RUSAGE_CHILDREN`). Mostly interpreter
    /// start-up (which depends on the installation's site packages), so the bench prints it to explain the
    /// issue's "30–50 sessions/s" and does not use it as its anchor; `sessionsPerSecond` is the loop alone.
    func perProcessSessionsPerSecond(rule: ABRRuleKind, sessions: Int) throws(Problem) -> Double {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        var inputs: [URL] = []
        for (index, trace) in traces.enumerated() {
            inputs.append(try write(rule: rule, traces: [trace], to: folder.appendingPathComponent("trace-\(index).json")))
        }
        let before = childrenCPUSeconds()
        for session in 0..<sessions {
            _ = try launch(input: inputs[session % inputs.count], arguments: ["--check"])
        }
        let seconds = childrenCPUSeconds() - before
        guard seconds > 0 else { throw Problem(description: "no CPU time measured for the python3 processes") }
        return Double(sessions) / seconds
    }

    private func run(rule: ABRRuleKind, arguments: [String]) throws(Problem) -> String {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let input = try write(rule: rule, traces: traces, to: folder.appendingPathComponent("input.json"))
        return try launch(input: input, arguments: arguments)
    }

    private func temporaryFolder() throws(Problem) -> URL {
        guard FileManager.default.fileExists(atPath: Self.script) else {
            throw Problem(description: "\(Self.script) not found")
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

    private func launch(input: URL, arguments: [String]) throws(Problem) -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", Self.script, input.path] + arguments
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

    /// User + system CPU seconds of this process's waited-for children.
    private func childrenCPUSeconds() -> Double {
        var usage = rusage()
        getrusage(__rusage_who_t(RUSAGE_CHILDREN.rawValue), &usage)
        func seconds(_ t: timeval) -> Double { Double(t.tv_sec) + Double(t.tv_usec) / 1e6 }
        return seconds(usage.ru_utime) + seconds(usage.ru_stime)
    }
}
