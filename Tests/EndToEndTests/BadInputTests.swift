import FilterzTestSupport
import Foundation
import RealClients
import Testing

@testable import CLIKit
@testable import FilterzCLI
@testable import Inspect

/// Bad input to every command, as one table: each case gives one clear line naming what is wrong and exit
/// code 2 (usage, unreadable input) or 1 (the work failed, invalid content), and leaves nothing (no file,
/// not even a temporary one) in the output folder. Runs in process through `CLI.run`; the only network
/// traffic is one refused connection to a closed port on 127.0.0.1.
@Suite struct BadInputTests {
    struct Case: CustomTestStringConvertible, Sendable {
        var arguments: [String]
        var code: Int32
        /// Text the first line of stderr must contain (placeholders substituted).
        var says: String
        /// Lines a runtime failure may print (a checker adds a one-line verdict after the problem).
        var runtimeLines = 1
        var testDescription: String { "filterz " + arguments.joined(separator: " ") }

        init(_ arguments: [String], exits code: Int32, says: String, runtimeLines: Int = 1) {
            self.arguments = arguments
            self.code = code
            self.says = says
            self.runtimeLines = runtimeLines
        }
    }

    /// `$TMP` is a fresh folder holding `bad-preset.json`, `negative.json` (a trace), `manifest.json`,
    /// `not-a-video.mp4`; `$OUT` is an output folder inside it; `$CLOSED` is a closed port on 127.0.0.1.
    static let cases: [Case] = [
        // Unknown command, unknown and missing flags.
        Case(["frobnicate"], exits: 2, says: "unknown command 'frobnicate'"),
        Case(["inspect"], exits: 2, says: "missing argument <playlist>"),
        Case(["inspect", "--frobnicate", "x.m3u8"], exits: 2, says: "unknown option '--frobnicate'"),
        Case(["preview", "-o", "$OUT/p.png"], exits: 2, says: "--preset"),
        Case(["preview", "--preset", "warm-film"], exits: 2, says: "--output"),
        Case(["record", "--preset", "warm-film", "--duration", "1"], exits: 2, says: "--out"),
        Case(["record", "--out", "$OUT", "--duration", "1"], exits: 2, says: "--preset"),
        Case(
            ["record", "--preset", "warm-film", "--out", "$OUT", "--duration"], exits: 2,
            says: "--duration needs a value"),
        Case(["package", "--preset", "warm-film", "--out", "$OUT"], exits: 2, says: "missing argument"),
        Case(["serve"], exits: 2, says: "missing argument <dir>"),
        Case(["serve", "$TMP", "--bogus"], exits: 2, says: "unknown option '--bogus'"),
        Case(["sign"], exits: 2, says: "missing argument"),
        Case(["simulate", "$TMP/manifest.json"], exits: 2, says: "missing network"),
        Case(["simulate"], exits: 2, says: "missing argument <stream>"),
        Case(["preset", "frobnicate"], exits: 2, says: "unknown command 'frobnicate'"),
        Case(["preset", "show"], exits: 2, says: "missing argument"),
        Case(["preset", "check"], exits: 2, says: "missing argument"),
        Case(["preset", "show", "warm-film", "--bogus"], exits: 2, says: "unknown option '--bogus'"),
        Case(
            ["preview", "--preset", "warm-film", "-o", "$OUT/p.png", "--bogus"], exits: 2,
            says: "unknown option '--bogus'"),
        Case(
            ["record", "--preset", "warm-film", "--out", "$OUT", "--bogus"], exits: 2, says: "unknown option '--bogus'"),
        Case(
            ["package", "$TMP/not-a-video.mp4", "--preset", "warm-film", "--out", "$OUT", "--bogus"], exits: 2,
            says: "unknown option '--bogus'"),
        Case(["sign", "warm-film", "--token-secret", "s", "--bogus"], exits: 2, says: "unknown option '--bogus'"),
        Case(["sign", "warm-film"], exits: 2, says: "secret"),
        Case(["sign", "..", "--token-secret", "s"], exits: 2, says: "cannot be a video id"),
        Case(["sign", ".hidden", "--token-secret", "s"], exits: 2, says: "cannot be a video id"),
        Case(
            ["simulate", "$TMP/manifest.json", "--bandwidth", "3mbps", "--bogus"], exits: 2,
            says: "unknown option '--bogus'"),

        // Bad values.
        Case(["preview", "--preset", "warm-film", "--size", "0x0", "-o", "$OUT/p.png"], exits: 2, says: "--size"),
        Case(
            ["record", "--preset", "warm-film", "--size", "0x0", "--duration", "1", "--out", "$OUT"], exits: 2,
            says: "--size"),
        Case(
            ["record", "--preset", "warm-film", "--fps", "-1", "--duration", "1", "--out", "$OUT"], exits: 2,
            says: "--fps"),
        Case(
            ["record", "--preset", "warm-film", "--fps", "many", "--duration", "1", "--out", "$OUT"], exits: 2,
            says: "--fps"),
        Case(["record", "--preset", "warm-film", "--duration", "0", "--out", "$OUT"], exits: 2, says: "--duration"),
        Case(
            ["record", "--preset", "warm-film", "--ladder", "99999x1@1k", "--duration", "1", "--out", "$OUT"], exits: 2,
            says: "99999x1"),
        Case(
            ["record", "--preset", "warm-film", "--ladder", "640x360", "--duration", "1", "--out", "$OUT"], exits: 2,
            says: "--ladder"),
        Case(
            ["record", "--preset", "warm-film", "--format", "avi", "--duration", "1", "--out", "$OUT"], exits: 2,
            says: "--format"),
        Case(
            ["record", "--preset", "warm-film", "--segment-duration", "0", "--duration", "1", "--out", "$OUT"],
            exits: 2, says: "--segment-duration"),
        Case(
            ["record", "--preset", "warm-film", "--orientation", "sideways", "--duration", "1", "--out", "$OUT"],
            exits: 2, says: "--orientation"),
        Case(
            ["record", "--preset", "warm-film", "--window", "3", "--duration", "1", "--out", "$OUT"], exits: 2,
            says: "--window needs --live"),
        Case(["serve", "$TMP", "--port", "70000"], exits: 2, says: "--port"),
        Case(["simulate", "$TMP/manifest.json", "--bandwidth", "-3mbps"], exits: 2, says: "--bandwidth"),
        Case(["simulate", "$TMP/manifest.json", "--bandwidth", "3mbps", "--abr", "magic"], exits: 2, says: "--abr"),
        Case(
            ["simulate", "$TMP/manifest.json", "--bandwidth", "3mbps", "--select", "5:4k"], exits: 2, says: "--select"),
        Case(["simulate", "$TMP/manifest.json", "--bandwidth", "3mbps", "--buffer", "0"], exits: 2, says: "--buffer"),

        // Bad content: a preset with a string for a number, a trace with negative bandwidth, not a video.
        Case(["preview", "--preset", "$TMP/bad-preset.json", "-o", "$OUT/p.png"], exits: 1, says: "bad-preset.json"),
        Case(
            ["record", "--preset", "$TMP/bad-preset.json", "--duration", "1", "--out", "$OUT"], exits: 1,
            says: "bad-preset.json"),
        Case(["preset", "check", "$TMP/bad-preset.json"], exits: 1, says: "bad-preset.json", runtimeLines: 2),
        Case(["simulate", "$TMP/manifest.json", "--trace", "$TMP/negative.json"], exits: 1, says: "negative.json"),
        Case(
            ["package", "$TMP/not-a-video.mp4", "--preset", "warm-film", "--out", "$OUT"], exits: 1,
            says: "not-a-video.mp4"),

        // Missing files and unreachable URLs.
        Case(["inspect", "$TMP/missing.m3u8"], exits: 2, says: "missing.m3u8"),
        Case(["inspect", "http://127.0.0.1:$CLOSED/master.m3u8"], exits: 2, says: "127.0.0.1:$CLOSED"),
        Case(["preview", "--preset", "no-such-preset", "-o", "$OUT/p.png"], exits: 2, says: "no-such-preset"),
        Case(
            ["preview", "--preset", "warm-film", "-o", "$TMP/missing-folder/p.png"], exits: 2,
            says: "missing-folder/p.png: cannot write: No such file or directory"),
        Case(
            ["record", "--preset", "$TMP/missing-preset.json", "--duration", "1", "--out", "$OUT"], exits: 2,
            says: "missing-preset.json"),
        Case(["package", "$TMP/missing.mp4", "--preset", "warm-film", "--out", "$OUT"], exits: 1, says: "missing.mp4"),
        Case(["serve", "$TMP/missing-folder", "--port", "0"], exits: 2, says: "missing-folder"),
        Case(["simulate", "$TMP/missing.m3u8", "--bandwidth", "3mbps"], exits: 2, says: "missing.m3u8"),
        Case(
            ["simulate", "$TMP/manifest.json", "--trace", "$TMP/missing-trace.json"], exits: 2,
            says: "missing-trace.json"),
        Case(
            ["simulate", "http://127.0.0.1:$CLOSED/v1/videos/x/master.m3u8", "--bandwidth", "3mbps"], exits: 2,
            says: "127.0.0.1:$CLOSED"),
    ]

    @Test(arguments: cases)
    func badInputGivesOneClearLineTheRightExitCodeAndNothingHalfWritten(_ badCase: Case) throws {
        let folder = try TemporaryFolder(prefix: "filterz-bad-input")
        let tmp = folder.url.path
        try Self.writeFixtures(into: folder.url)
        let closed = try LoopbackPort.unused()
        let substitute = { (text: String) in
            text.replacingOccurrences(of: "$OUT", with: tmp + "/out").replacingOccurrences(of: "$TMP", with: tmp)
                .replacingOccurrences(of: "$CLOSED", with: String(closed))
        }
        let run = runFilterz(badCase.arguments.map(substitute), environment: samplePresets)

        #expect(run.code == badCase.code, "stderr: \(run.err)")
        let lines = run.err.split(separator: "\n", omittingEmptySubsequences: false).dropLast().map(String.init)
        let first = lines.first ?? ""
        #expect(first.contains(substitute(badCase.says)), "first line: \(first)")
        #expect(first.contains("error") || first.hasPrefix("Error:"), "first line: \(first)")
        if run.code == 1 {
            #expect(lines.count <= badCase.runtimeLines, "a runtime failure is one line, got:\n\(run.err)")
        } else {
            // A usage error: the error line, then the usage synopsis and where to find help.
            #expect(lines.count <= 3, "got:\n\(run.err)")
        }
        // Nothing half-written: no file at all in the output folder (hidden temporary files included).
        let left = (FileManager.default.enumerator(atPath: tmp + "/out")?.allObjects as? [String]) ?? []
        let files = left.filter { !Self.isFolder(tmp + "/out/" + $0) }
        #expect(files.isEmpty, "left behind in the output folder: \(files)")
    }

    static func isFolder(_ path: String) -> Bool {
        var isDirectory: ObjCBool = false
        return FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) && isDirectory.boolValue
    }

    static func writeFixtures(into folder: URL) throws {
        let files: [(String, String)] = [
            ("bad-preset.json", #"{"name": "bad", "values": {"contrast": "high", "temperature": 5000}}"#),
            (
                "negative.json",
                #"{"name": "negative", "source": "test", "samples": [{"duration_ms": 1000, "bandwidth_kbps": -5, "latency_ms": 20}]}"#
            ),
            (
                "manifest.json",
                #"{"segment_duration_ms": 2000, "bitrates_kbps": [400, 1200], "segment_sizes_bits": [[800000, 2400000], [800000, 2400000]]}"#
            ),
            ("not-a-video.mp4", "this is a text file, not a video\n"),
        ]
        for (name, text) in files {
            try Data(text.utf8).write(to: folder.appendingPathComponent(name))
        }
    }
}
