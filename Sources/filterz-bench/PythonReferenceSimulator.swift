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

    private func run(rule: ABRRuleKind, arguments: [String]) throws(Problem) -> String {
        guard FileManager.default.fileExists(atPath: Self.script) else {
            throw Problem(description: "\(Self.script) not found")
        }
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("filterz-bench-simulate-\(getpid())")
        try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let input = folder.appendingPathComponent("input.json")
        let job = ReferenceSimulatorInput.json(
            manifest: manifest, traces: traces, configuration: SessionConfiguration(rule: rule))
        guard FileManager.default.createFile(atPath: input.path, contents: Data(job.utf8)) else {
            throw Problem(description: "cannot write \(input.path)")
        }
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
}
