import FilterzTestSupport
import Foundation
import HLS
import RealClients

@testable import CLIKit
@testable import FilterzCLI
@testable import Inspect

/// What a player finds in a folder a recording left behind after it was killed, interrupted or ran out of
/// space: every playlist on disk passes `filterz inspect --strict` (the master with `--recursive`), lists
/// only complete segments (present, non-empty, whole 188-byte TS packets, byte ranges inside their file),
/// and ffmpeg plays each audio and video playlist without a warning. Returns problems as text instead of
/// recording issues, so it can run on worker threads.
struct LeftBehindCheck {
    let folder: URL
    /// true: every media playlist must have EXT-X-ENDLIST; false: none may; nil: either.
    var expectEnded: Bool?

    struct Report {
        var playlists = 0
        var segments = 0
        var problems: [String] = []
    }

    func run() -> Report {
        var report = Report()
        let playlists = Self.files(under: folder).filter { $0.pathExtension == "m3u8" }
        for playlist in playlists {
            report.playlists += 1
            check(playlist, into: &report)
        }
        let master = folder.appendingPathComponent("master.m3u8")
        if FileManager.default.fileExists(atPath: master.path) {
            let (code, output) =
                (try? StreamGate.inspect(["--recursive", "--strict", master.path])) ?? (-1, "did not run")
            if code != 0 { report.problems.append("inspect --recursive --strict master.m3u8 exit \(code): \(output)") }
        }
        return report
    }

    private func check(_ playlist: URL, into report: inout Report) {
        let name = String(playlist.path.dropFirst(folder.path.count + 1))
        let (code, output) = (try? StreamGate.inspect(["--strict", playlist.path])) ?? (-1, "did not run")
        if code != 0 { report.problems.append("inspect --strict \(name) exit \(code): \(output)") }
        guard let text = try? String(contentsOf: playlist, encoding: .utf8),
            let media = HLS.parse(text).playlist?.media
        else { return }
        if let expectEnded, media.endList != expectEnded {
            report.problems.append("\(name): EXT-X-ENDLIST \(media.endList ? "present" : "missing")")
        }
        let base = playlist.deletingLastPathComponent()
        for segment in media.segments {
            report.segments += 1
            let file = base.appendingPathComponent(segment.uri)
            let size = (try? FileManager.default.attributesOfItem(atPath: file.path)[.size] as? Int) ?? nil
            guard let size, size > 0 else {
                report.problems.append("\(name) lists \(segment.uri), which is missing or empty")
                continue
            }
            if segment.uri.hasSuffix(".ts"), size % 188 != 0 {
                report.problems.append("\(name) lists \(segment.uri), \(size) bytes: not whole TS packets")
            }
            if let range = segment.byteRange, let offset = range.offset, offset + range.length > size {
                report.problems.append(
                    "\(name): \(segment.uri) byte range \(range.length)@\(offset) past its \(size) bytes")
            }
        }
        let playable =
            !media.iFramesOnly && !media.segments.isEmpty
            && !media.segments.contains { $0.uri.hasSuffix(".vtt") }
        if playable { play(playlist, ended: media.endList, name: name, into: &report) }
    }

    /// ffmpeg on the playlist; a live one (no ENDLIST) is copied with ENDLIST added, so ffmpeg plays what is
    /// there and stops instead of waiting for more.
    private func play(_ playlist: URL, ended: Bool, name: String, into report: inout Report) {
        var input = playlist
        if !ended {
            input = playlist.deletingLastPathComponent().appendingPathComponent(".ended-\(playlist.lastPathComponent)")
            guard let text = try? String(contentsOf: playlist, encoding: .utf8),
                (try? Data((text + (text.hasSuffix("\n") ? "" : "\n") + "#EXT-X-ENDLIST\n").utf8).write(to: input))
                    != nil
            else { return report.problems.append("\(name): could not copy it for ffmpeg") }
        }
        defer { if !ended { try? FileManager.default.removeItem(at: input) } }
        guard
            let played = try? ExternalTool.run(
                "ffmpeg", ["-nostdin", "-v", "warning", "-xerror", "-i", input.path, "-map", "0", "-f", "null", "-"],
                timeoutSeconds: 60)
        else { return report.problems.append("\(name): ffmpeg did not run") }
        if played.exitCode != 0 || !played.stderr.isEmpty {
            report.problems.append("ffmpeg \(name) exit \(played.exitCode): \(played.stderr)")
        }
    }

    /// Regular files under `folder`, hidden names (temporary files) left out.
    static func files(under folder: URL) -> [URL] {
        guard
            let walker = FileManager.default.enumerator(
                at: folder, includingPropertiesForKeys: [.isRegularFileKey], options: [.skipsHiddenFiles])
        else { return [] }
        return walker.compactMap { $0 as? URL }
            .filter { (try? $0.resourceValues(forKeys: [.isRegularFileKey]).isRegularFile) == true }
            .sorted { $0.path < $1.path }
    }
}
