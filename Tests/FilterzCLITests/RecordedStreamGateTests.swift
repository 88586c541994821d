import Foundation
import FilterzTestSupport
import Server
import Testing

@testable import FilterzCLI

/// The gate every recorded stream must pass over HTTP, with clients we did not write: a short `record`
/// (TS and fMP4) served by the Server module on 127.0.0.1, then `ffmpeg` decodes every stream of it without
/// a single warning (only the HLS demuxer's "Can't support the subtitle" notice is expected), and
/// `filterz inspect --recursive --strict` finds no error in any playlist.
@Suite(.serialized) struct RecordedStreamGateTests {
    @Test(.enabled(if: ExternalTool.isInstalled("ffmpeg"), "needs ffmpeg (make deps)"), arguments: ["ts", "fmp4"])
    func recordedStreamPlaysInFFmpegWithoutWarningsAndInspectsClean(format: String) throws {
        let folder = try TemporaryFolder(prefix: "filterz-gate")
        let video = folder.url.appendingPathComponent("gate-\(format)")
        let out = CapturedOutput(), err = CapturedOutput()
        let recorded = CLI.run(
            arguments: ["record", "--preset", "warm-film", "--duration", "4", "--fps", "15", "--size", "320x180",
                        "--ladder", "320x180@400k,160x90@150k", "--segment-duration", "2", "--format", format,
                        "--out", video.path],
            stdout: out, stderr: err,
            environment: ["FILTERZ_PRESETS": SharedData.packageRoot.appendingPathComponent("SampleMedia/presets").path])
        try #require(recorded == 0, "record failed: \(err.text)")

        var configuration = ServerConfiguration(root: folder.url.path)
        configuration.host = "127.0.0.1"
        configuration.port = 0
        let server = try HTTPServer(configuration: configuration)
        defer { server.stop(graceSeconds: 1) }
        let master = "\(server.baseURL)/v1/videos/gate-\(format)/master.m3u8"

        let played = try ExternalTool.run(
            "ffmpeg", ["-nostdin", "-v", "warning", "-xerror", "-i", master, "-map", "0", "-f", "null", "-"],
            timeoutSeconds: 60)
        #expect(played.exitCode == 0, "ffmpeg exit \(played.exitCode): \(played.stderr)")
        let complaints = played.stderr.split(separator: "\n").filter { !$0.contains("Can't support the subtitle") }
        #expect(complaints.isEmpty, "ffmpeg said:\n\(complaints.joined(separator: "\n"))")

        let inspectOut = CapturedOutput(), inspectErr = CapturedOutput()
        let inspected = CLI.run(
            arguments: ["inspect", "--recursive", "--strict", master], stdout: inspectOut, stderr: inspectErr)
        #expect(inspected == 0, "inspect: \(inspectOut.text)\n\(inspectErr.text)")
        #expect(inspectOut.text.contains("Playlists ("), "\(inspectOut.text)")
    }
}
