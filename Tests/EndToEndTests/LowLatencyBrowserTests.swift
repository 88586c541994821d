import FilterzTestSupport
import Foundation
import RealClients
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// hls.js (not ours) in headless Chromium plays a live low-latency recording that `filterz serve` serves while
/// `filterz record --live --low-latency` writes it: it loads parts, makes blocking playlist reloads, and keeps
/// playing across a quality switch.
@Suite(
    .serialized, .browser,
    .enabled(
        if: HLSJSPlayer.unavailableReason == nil && LiveRecording.binary != nil,
        Comment(rawValue: HLSJSPlayer.unavailableReason ?? "needs the built filterz binary")))
struct LowLatencyBrowserTests {
    /// Clear, and encrypted (AES-128, a key per segment: each part decrypted with its segment's key and IV).
    @Test(arguments: [false, true])
    func hlsJSPlaysPartsWithBlockingReloadsAcrossAQualitySwitch(encrypted: Bool) async throws {
        let temporary = try TemporaryFolder(prefix: "filterz-ll-browser")
        let video = temporary.url.appendingPathComponent("live")
        let keys = try TemporaryFolder(prefix: "filterz-ll-keys")
        let encryption = encrypted ? ["--encrypt", "aes-128", "--key-rotation", "1", "--keys", keys.url.path] : []
        let server = try FilterzChild(
            ["serve", temporary.url.path, "--port", "0", "--quiet"] + (encrypted ? ["--keys", keys.url.path] : []),
            logs: temporary.url)
        defer { server.signal(SIGKILL) }
        let deadline = Date().addingTimeInterval(20)
        while server.stdout.isEmpty && Date() < deadline { try await Task.sleep(nanoseconds: 50_000_000) }
        let base = try #require(server.stdout.split(whereSeparator: \.isWhitespace).first { $0.hasPrefix("http") })
        let root = base.hasSuffix("/") ? String(base) : base + "/"
        // The browser is up before the recording starts (on a loaded machine it can take longer to start than a
        // short recording lasts), and the recording outlasts the playback; it is killed at the end.
        let browser = try await HeadlessChromium.start()
        let report: HLSJSPlayer.Report
        do {
            try await browser.open(root)
            // Small and neutral: the debug build has to keep up with real time while other suites run (at
            // 320×180 it needs about 1.1 cores, at 192×108 about 0.4).
            let recorder = try FilterzChild(
                [
                    "record", "--preset", "neutral", "--size", "192x108", "--ladder", "192x108@200k,128x72@100k",
                    "--live",
                    "--low-latency", "--duration", "600", "--out", video.path,
                ] + encryption,
                logs: temporary.url)
            defer { recorder.signal(SIGKILL) }
            #expect(recorder.waitFor(video.appendingPathComponent("master.m3u8"), timeoutSeconds: 60))
            let playlist = try String(contentsOf: video.appendingPathComponent("72p/index.m3u8"), encoding: .utf8)
            #expect(!playlist.contains("#EXT-X-ENDLIST"), "the recording ended before playback began")
            if encrypted { #expect(playlist.contains("#EXT-X-KEY:METHOD=AES-128"), "\(playlist)") }
            report = try await HLSJSPlayer.play(
                root + "live/master.m3u8", in: browser, seconds: 16, lowLatency: true, switchAt: 8)
            await browser.quit()
        } catch {
            await browser.quit()
            throw error
        }
        #expect(report.error == nil, "\(report.error ?? "")")
        #expect(report.levelCount == 2)
        #expect(
            report.partsLoaded > 0,
            "hls.js loaded no parts (\(report.fragmentsLoaded) segments, latencies \(report.latencies))")
        #expect(report.blockingRequests > 0, "hls.js made no blocking reload")
        let switchTime = try #require(report.switchTime, "no quality switch was asked for")
        #expect(!report.levelsSwitched.isEmpty)
        let stoppedAt = """
            playback stopped at \(report.endTime) after the switch at \(switchTime); stalls: \(report.stallDetails); \
            parked after a key load: \(report.parkedAfterKeyLoad); HTTP errors: \(report.httpErrors); \
            last events: \(report.recentEvents)
            """
        if encrypted {
            #expect(report.keysLoaded >= 2, "hls.js loaded \(report.keysLoaded) keys: no rotation seen")
        }
        if encrypted && report.endTime <= switchTime + 1 && !report.parkedAfterKeyLoad.isEmpty
            && report.httpErrors.isEmpty
        {
            // hls.js 1.6.15 (the pinned wheel's) can leave a stream waiting after a key load in LL-HLS, for seconds
            // or for ever: with no request after it (video-dev/hls.js#7871), or with a part of the next segment
            // asked for and never loaded (#7975; HLSJSHarnessTests checks both are recognised). Only those shapes
            // are excused, only with encryption, only when the server answered every request, and they are reported.
            withKnownIssue("hls.js 1.6.15 parked \(report.parkedAfterKeyLoad) after a key load", isIntermittent: true) {
                Issue.record(Comment(rawValue: stoppedAt))
            }
        } else {
            #expect(report.endTime > switchTime + 1, Comment(rawValue: stoppedAt))
        }
        #expect(!report.latencies.isEmpty, "no program date time while playing")
        print(
            "hls.js\(encrypted ? " (encrypted)" : ""): latency median \(report.latencies.sorted()[report.latencies.count / 2]) s, parts \(report.partsLoaded), "
                + "blocking reloads \(report.blockingRequests), stalls \(report.stalls) \(report.stallDetails), levels \(report.levelsSwitched)"
        )
    }
}
