import FilterzTestSupport
import Foundation
import RealClients
import Testing

@testable import CLIKit
@testable import FilterzCLI
@testable import Inspect

/// The gate every recorded stream must pass over HTTP (`StreamGate`): a short `record`, TS and fMP4, played
/// by ffmpeg without a single warning and inspected with `--recursive --strict` through our server.
@Suite(.serialized, .slow) struct RecordedStreamGateTests {
    @Test(.enabled(if: !StreamGate.ffmpegMissing, "needs ffmpeg (make deps)"), arguments: ["ts", "fmp4"])
    func recordedStreamPlaysInFFmpegWithoutWarningsAndInspectsClean(format: String) throws {
        let folder = try TemporaryFolder(prefix: "filterz-gate")
        let video = folder.url.appendingPathComponent("gate-\(format)")
        let recorded = runFilterz(
            [
                "record", "--preset", "warm-film", "--duration", "4", "--fps", "15", "--size", "320x180",
                "--ladder", "320x180@400k,160x90@150k", "--segment-duration", "2", "--format", format,
                "--out", video.path,
            ],
            environment: samplePresets)
        try #require(recorded.code == 0, "record failed: \(recorded.err)")
        try StreamGate.check(video)
    }
}
