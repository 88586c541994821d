import FilterzTestSupport
import Foundation
import RealClients
import Testing

@testable import CLIKit
@testable import FilterzCLI
@testable import Inspect

/// A clean `filterz record` output copied for one manufactured defect, and `inspect --deep --json` on it.
struct DeepInspectFixture {
    /// Records a tiny two-rung ladder (320x180 + 160x90, 3 × 1 s segments) into `folder/name`.
    static func record(_ extra: [String], into folder: URL, name: String) throws -> URL {
        let out = folder.appendingPathComponent(name)
        let run = runFilterz(
            [
                "record", "--out", out.path, "--preset", "neutral", "--size", "320x180",
                "--ladder", "320x180@400k,160x90@150k", "--duration", "3", "--segment-duration", "1",
            ] + extra)
        try #require(run.code == 0, "record failed: \(run.err)")
        return out
    }

    /// A copy of `clean` named `name` in `folder`.
    static func copy(_ clean: URL, as name: String, in folder: URL) throws -> URL {
        let copy = folder.appendingPathComponent(name)
        try FileManager.default.copyItem(at: clean, to: copy)
        return copy
    }

    /// What `inspect --deep --json` reports: exit code, finding codes (sorted, distinct), the `deep` object.
    struct Outcome {
        var code: Int32
        var codes: [String]
        var deep: [String: Any]
        var stderr: String

        /// Each distinct finding as `code playlist`, with how many segments it names: what a failed expectation
        /// prints.
        var places: [String] {
            var counts: [String: Int] = [:]
            for finding in deep["findings"] as? [[String: Any]] ?? [] {
                counts["\(finding["code"] as? String ?? "?") \(finding["playlist"] as? String ?? "?")", default: 0] += 1
            }
            return counts.sorted { $0.key < $1.key }.map { "\($0.key) ×\($0.value)" }
        }
    }

    static func inspect(_ playlist: URL, _ extra: [String] = []) throws -> Outcome {
        let location = playlist.isFileURL ? playlist.path : playlist.absoluteString
        let run = runFilterz(["inspect", "--deep", "--json"] + extra + [location])
        let object = try JSONSerialization.jsonObject(with: Data(run.out.utf8)) as? [String: Any]
        let deep = try #require(
            object?["deep"] as? [String: Any], "no deep object in: \(run.out.prefix(400)) \(run.err)")
        let findings = deep["findings"] as? [[String: Any]] ?? []
        let codes = Set(findings.compactMap { $0["code"] as? String }).sorted()
        return Outcome(code: run.code, codes: codes, deep: deep, stderr: run.err)
    }

    /// Replaces `old` by `new` in the text file at `path` (relative to `folder`), requiring that it occurs.
    static func edit(_ folder: URL, _ path: String, _ old: String, _ new: String) throws {
        let file = folder.appendingPathComponent(path)
        let text = try String(contentsOf: file, encoding: .utf8)
        try #require(text.contains(old), "\(path) does not contain \(old)")
        try text.replacingOccurrences(of: old, with: new).write(to: file, atomically: true, encoding: .utf8)
    }

    /// Every line of a text file with `fragment` removed.
    static func dropLines(_ folder: URL, _ path: String, containing fragment: String) throws {
        let file = folder.appendingPathComponent(path)
        let lines = try String(contentsOf: file, encoding: .utf8).split(
            separator: "\n", omittingEmptySubsequences: false)
        try lines.filter { !$0.contains(fragment) }.joined(separator: "\n").write(
            to: file, atomically: true, encoding: .utf8)
    }

    static func ffmpeg(_ arguments: [String]) throws {
        let result = try ExternalTool.run("ffmpeg", ["-nostdin", "-v", "error", "-y"] + arguments, timeoutSeconds: 120)
        try #require(result.exitCode == 0, "ffmpeg \(arguments.joined(separator: " ")): \(result.stderr)")
    }
}
