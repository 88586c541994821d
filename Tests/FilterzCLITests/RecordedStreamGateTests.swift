import FilterzTestSupport
import Foundation
import Testing

@testable import CLIKit
@testable import FilterzCLI
@testable import Inspect

/// The gate every recorded stream must pass over HTTP (`StreamGate`): a short `record`, TS and fMP4, played
/// by ffmpeg without a single warning and inspected with `--recursive --strict` through our server.
@Suite(.serialized, .tags(.slow), .fullRunOnly) struct RecordedStreamGateTests {
    @Test(.enabled(if: !StreamGate.ffmpegMissing, "needs ffmpeg (make deps)"), arguments: ["ts", "fmp4"])
    func recordedStreamPlaysInFFmpegWithoutWarningsAndInspectsClean(format: String) throws {
        let folder = try TemporaryFolder(prefix: "filterz-gate")
        let video = folder.url.appendingPathComponent("gate-\(format)")
        let out = CapturedOutput(), err = CapturedOutput()
        let recorded = CLI.run(
            arguments: [
                "record", "--preset", "warm-film", "--duration", "4", "--fps", "15", "--size", "320x180",
                "--ladder", "320x180@400k,160x90@150k", "--segment-duration", "2", "--format", format,
                "--out", video.path,
            ],
            stdout: out, stderr: err,
            environment: ["FILTERZ_PRESETS": SharedData.packageRoot.appendingPathComponent("SampleMedia/presets").path])
        try #require(recorded == 0, "record failed: \(err.text)")
        try StreamGate.check(video)
    }
}
