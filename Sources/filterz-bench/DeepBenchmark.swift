import CLIKit
import FilterKit
import FilterzCLI
import Foundation
import JSON
import RealClients

/// `filterz-bench deep`: `filterz inspect --deep` on the 20 s 3-rung demo recording (720p/540p/360p, 2 s
/// MPEG-TS segments, audio, subtitles, I-frame playlists) against ffprobe doing the nearest job in the same
/// run: `ffprobe -v error -show_packets SEGMENT` over every segment file, one after another.
///
/// Ours: the built `filterz` binary as its own process (whole-process wall time), median of 3.
/// Anchor: the ffprobe runs' summed wall time, median of 3 passes.
/// `--folder DIR` reuses a recording (a folder with master.m3u8) instead of making one.
/// Last line: `{"bench":"deep","ours_s":…,"anchor_s":…,"ratio":…}`; ratio = ours / anchor (lower is better).
enum DeepBenchmark {
    static let folderOption = Option.optional(
        "--folder", placeholder: "DIR", help: "Reuse this recording (a folder with master.m3u8) instead of making one.")

    static var command: Command {
        Command(
            CommandSpec(
                name: "deep",
                abstract:
                    "inspect --deep on the 20 s 3-rung recording against ffprobe -show_packets over every segment.",
                options: [folderOption.spec]),
            action: { args, _ in run(folder: try args.get(folderOption)) })
    }

    static func run(folder given: String?) -> Int32 {
        guard let ffprobe = ExternalTool.path(of: "ffprobe") else {
            print("deep benchmark needs ffprobe (make deps)")
            return 2
        }
        guard let filterz = ChildProcess.builtFilterz() else {
            print("deep benchmark needs the filterz binary beside filterz-bench (swift build -c release)")
            return 2
        }
        let work = FileManager.default.temporaryDirectory.appendingPathComponent("filterz-bench-deep-\(getpid())")
        try? FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: work) }

        var folder = work.appendingPathComponent("demo")
        if let given {
            folder = URL(fileURLWithPath: given)
        } else {
            let preset = work.appendingPathComponent("neutral.json")
            _ = FileManager.default.createFile(
                atPath: preset.path, contents: Data(Preset(name: "neutral", values: .neutral).jsonBytes()))
            let stdout = CapturedOutput(), stderr = CapturedOutput()
            let code = CLI.run(
                arguments: [
                    "record", "--preset", preset.path, "--duration", "20", "--size", "1280x720",
                    "--segment-duration", "2", "--out", folder.path,
                ],
                stdout: stdout, stderr: stderr)
            guard code == 0 else {
                print("filterz record failed: \(stderr.text)")
                return 1
            }
        }
        let master = folder.appendingPathComponent("master.m3u8").path
        let segments = segmentFiles(under: folder)
        print("filterz-bench deep: \(segments.count) segments in \(folder.path)")

        var ours: [Double] = []
        for _ in 0..<3 {
            guard let measured = ChildProcess.run(filterz, ["inspect", "--deep", master]) else {
                print("cannot run \(filterz)")
                return 1
            }
            guard measured.exitCode == 0 else {
                print("inspect --deep found must-fix problems in the demo recording (exit \(measured.exitCode))")
                return 1
            }
            ours.append(measured.seconds)
        }
        var anchor: [Double] = []
        for _ in 0..<3 {
            var total = 0.0
            for segment in segments {
                guard let measured = ChildProcess.run(ffprobe, ["-v", "error", "-show_packets", segment]),
                    measured.exitCode == 0
                else {
                    print("ffprobe failed on \(segment)")
                    return 1
                }
                total += measured.seconds
            }
            anchor.append(total)
        }
        let oursSeconds = Measuring.median(ours), anchorSeconds = Measuring.median(anchor)
        print(String(format: "  ours    inspect --deep (whole process)          %.3f s", oursSeconds))
        print(String(format: "  anchor  ffprobe -show_packets × %d segments  %.3f s", segments.count, anchorSeconds))
        ResultLine.print(
            "deep",
            [
                ("ours_s", ResultLine.number(oursSeconds, places: 3)),
                ("anchor_s", ResultLine.number(anchorSeconds, places: 3)),
                ("ratio", ResultLine.number(oursSeconds / anchorSeconds, places: 3)),
            ])
        return 0
    }

    static func segmentFiles(under folder: URL) -> [String] {
        let files = FileManager.default.enumerator(atPath: folder.path)?.compactMap { $0 as? String } ?? []
        return files.filter { $0.hasSuffix(".ts") }.sorted().map { folder.appendingPathComponent($0).path }
    }
}
