import CLIKit
import Foundation
import RealClients

/// The parse bench's whole-process part: `filterz inspect FILE` and `filterz inspect --json FILE` on the
/// 100,000-segment playlist as processes of their own (reading, parsing, validating, reporting, writing),
/// against `python3 -c 'm3u8.loads(…)'` as a process of its own on the same file: median of 5 each after one untimed run.
extension ParseBenchmark {
    struct WholeProcess {
        var textSeconds: Double
        var jsonSeconds: Double
        var pythonSeconds: Double
    }

    static func measureWholeProcess(media: [UInt8]) -> WholeProcess? {
        guard let filterz = ChildProcess.builtFilterz(), let python = ExternalTool.path(of: "python3") else {
            return nil
        }
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("filterz-bench-inspect-\(getpid())")
        try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("media.m3u8").path
        guard FileManager.default.createFile(atPath: path, contents: Data(media)) else { return nil }
        func median(_ program: String, _ arguments: [String]) -> Double? {
            // One untimed run first, so that no program is timed reading itself from disk.
            guard ChildProcess.run(program, arguments)?.exitCode == 0 else { return nil }
            var times: [Double] = []
            for _ in 0..<5 {
                guard let run = ChildProcess.run(program, arguments), run.exitCode == 0 else { return nil }
                times.append(run.seconds)
            }
            return Measuring.median(times)
        }
        let script =
            "import sys, m3u8; p = m3u8.loads(open(sys.argv[1], encoding='utf-8').read()); assert len(p.segments) == 100000"
        guard let text = median(filterz, ["inspect", path]), let json = median(filterz, ["inspect", "--json", path]),
            let python = median(python, ["-c", script, path])
        else { return nil }
        return WholeProcess(textSeconds: text, jsonSeconds: json, pythonSeconds: python)
    }
}
