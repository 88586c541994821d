import FilterzTestSupport
import Foundation
import RealClients
import Server
import Testing

@testable import CLIKit
@testable import FilterzCLI
@testable import Inspect

/// The gate every stream the tests record must pass, over HTTP, with a client we did not write: the folder
/// holding the video is served by the Server module on 127.0.0.1, then `ffmpeg -nostdin -v warning -xerror
/// -i URL -map 0 -f null -` decodes every stream without a word (only the HLS demuxer's "Can't support the
/// subtitle" notice is expected), and `filterz inspect --recursive --strict URL` finds no error.
enum StreamGate {
    /// Checks `video` (a folder with a `master.m3u8`) through a server on its parent folder, recording
    /// failures as test issues. Returns the ffmpeg and inspect outputs for further checks.
    @discardableResult
    static func check(_ video: URL, sourceLocation: SourceLocation = #_sourceLocation) throws -> (
        ffmpeg: String, inspect: String
    ) {
        var configuration = ServerConfiguration(root: video.deletingLastPathComponent().path)
        configuration.host = "127.0.0.1"
        configuration.port = 0
        let server = try HTTPServer(configuration: configuration)
        defer { server.stop(graceSeconds: 1) }
        let master = "\(server.baseURL)/v1/videos/\(video.lastPathComponent)/master.m3u8"

        let played = try ExternalTool.run(
            "ffmpeg", ["-nostdin", "-v", "warning", "-xerror", "-i", master, "-map", "0", "-f", "null", "-"],
            timeoutSeconds: 120)
        #expect(
            played.exitCode == 0, "ffmpeg exit \(played.exitCode) on \(master): \(played.stderr)",
            sourceLocation: sourceLocation)
        let complaints = played.stderr.split(separator: "\n").filter { !$0.contains("Can't support the subtitle") }
        #expect(
            complaints.isEmpty, "ffmpeg on \(master) said:\n\(complaints.joined(separator: "\n"))",
            sourceLocation: sourceLocation)

        let inspected = try inspect(["--recursive", "--strict", master])
        #expect(
            inspected.code == 0, "inspect --recursive --strict \(master): \(inspected.output)",
            sourceLocation: sourceLocation)
        #expect(inspected.output.contains("Playlists ("), "\(inspected.output)", sourceLocation: sourceLocation)
        return (played.stderr, inspected.output)
    }

    /// `filterz inspect` as its own process when the binary is built (as a user runs it: in the busy test
    /// process, its blocking HTTP loads can wait long for a dispatch thread), else in process.
    static func inspect(_ arguments: [String]) throws -> (code: Int32, output: String) {
        if let binary = FilterzChild.binary {
            let result = try ExternalTool.run(binary, ["inspect"] + arguments, timeoutSeconds: 120)
            return (result.exitCode, result.stdout + result.stderr)
        }
        let run = runFilterz(["inspect"] + arguments)
        return (run.code, run.out + run.err)
    }

    static var ffmpegMissing: Bool { !ExternalTool.isInstalled("ffmpeg") }
}
