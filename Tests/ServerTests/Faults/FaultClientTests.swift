import FilterzTestSupport
import Foundation
import RealClients
import Testing

@testable import Server

/// Each `--faults` action seen by the clients players are built on: curl sees the status, the cut body and the
/// delay; ffmpeg's HLS reader reports the failed segment and carries on; hls.js retries a 503 and plays on.
@Suite(.serialized, .network, .enabled(if: TinyStream.isAvailable && ExternalTool.isInstalled("curl")))
struct FaultClientTests {
    static func site(_ rules: [String]) throws -> TestSite {
        let plan = FaultPlan(rules: try rules.map { rule throws(FaultRuleError) in try FaultRule(parsing: rule) })
        return try TestSite(
            populate: { site in try TinyStream.make(in: site.root, id: "clip") },
            configure: { $0.faults = plan })
    }

    static func curl(_ arguments: [String]) throws -> ExternalTool.Result {
        try ExternalTool.run("curl", ["-s", "-o", "/dev/null"] + arguments, timeoutSeconds: 30)
    }

    @Test func curlSeesTheStatusOnTheNthRequestTheCutBodyAndTheDelay() throws {
        let site = try Self.site([
            "path=*/seg_000.ts,status=404,nth=2", "path=*/seg_001.ts,cut=1000", "path=*/index.m3u8,delay=1s",
        ])
        let segment = "\(site.server.baseURL)/clip/v0/seg_000.ts"
        let codes = try (1...3).map { _ in try Self.curl(["-w", "%{http_code}", segment]).stdout }
        #expect(codes == ["200", "404", "200"])
        let cut = try Self.curl(["-w", "%{size_download}", "\(site.server.baseURL)/clip/v0/seg_001.ts"])
        #expect(cut.exitCode == 18, "curl: \(cut.exitCode) \(cut.stderr)")  // CURLE_PARTIAL_FILE
        #expect(cut.stdout == "1000")
        let delayed = try Self.curl(["-w", "%{time_starttransfer}", "\(site.server.baseURL)/clip/v0/index.m3u8"])
        #expect((Double(delayed.stdout) ?? 0) >= 1.0, "first byte after \(delayed.stdout) s")
    }

    @Test func ffmpegReportsTheFailedSegmentAndReadsTheRest() throws {
        let site = try Self.site(["path=*/seg_001.ts,status=503"])
        let result = try ExternalTool.run(
            "ffmpeg",
            [
                "-v", "warning", "-nostdin", "-i", "\(site.server.baseURL)/clip/master.m3u8", "-map", "0:v", "-c",
                "copy", "-f", "null", "-",
            ], timeoutSeconds: 60)
        #expect(result.stderr.contains("HTTP error 503"), "\(result.stderr)")
        #expect(result.stderr.contains("Failed to open segment 1"), "\(result.stderr)")
    }

    @Test(.browser, .needsHeadlessChromium, .enabled(if: HLSJSPlayer.unavailableReason == nil))
    func hlsJSRetriesASegmentAnsweredWith503AndPlaysOn() async throws {
        let site = try Self.site(["path=*/seg_001.ts,status=503,nth=1"])
        let browser = try await HeadlessChromium.start()
        let report: HLSJSPlayer.Report
        do {
            try await browser.open("\(site.server.baseURL)/")
            report = try await HLSJSPlayer.play(
                "\(site.server.baseURL)/clip/master.m3u8", in: browser, seconds: 8, lowLatency: false)
            await browser.quit()
        } catch {
            await browser.quit()
            throw error
        }
        #expect(report.error == nil, "\(report.error ?? "")")
        #expect(report.httpErrors.contains { $0.contains("HTTP 503") && $0.contains("sn 1") }, "\(report.httpErrors)")
        #expect(report.endTime >= 3, "played to \(report.endTime) s of 4; \(report.recentEvents)")
    }
}
