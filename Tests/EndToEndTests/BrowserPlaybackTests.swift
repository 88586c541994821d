import FilterzTestSupport
import Foundation
import RealClients
import Server
import Testing

@testable import CLIKit
@testable import FilterzCLI
@testable import Inspect

#if canImport(Glibc)
    import Glibc
#endif

/// A real browser nobody here wrote: Debian's headless Chromium, driven over WebDriver, opens the index page
/// of our server and plays a recorded stream from the page's `<video>` element for 10 s — through the
/// browser's own decoders, fed by native HLS or by the page's small Media Source player, whichever the page
/// picks (the test prints which). Then the same frame of a `warm-film` and a `neutral` recording,
/// as the browser paints it, shows the filter: the warm one has the higher red/blue ratio.
@Suite(.serialized, .needsHeadlessChromium, .browser)
struct BrowserPlaybackTests {
    /// What the page's `<video>` reports while playing.
    struct VideoState: Decodable, CustomStringConvertible {
        var time: Double
        var paused: Bool
        var readyState: Int
        var networkState: Int
        var error: String?
        var errors: [String]
        var description: String {
            "currentTime \(time), paused \(paused), readyState \(readyState), networkState \(networkState), "
                + "error \(error ?? "none"), error events \(errors)"
        }
    }

    struct ScriptOutcome: Decodable {
        var error: String?
        var canPlayHLS: String?
        /// The page's choice: `mse` (its Media Source player), `native` or `none`.
        var player: String?
    }

    @Test func chromiumPlaysTheServedStreamAndShowsTheFilter() async throws {
        let folder = try TemporaryFolder(prefix: "filterz-browser")
        // Same seed, size and time for both, one rendition, so "the same frame" is the same camera frame.
        // Small and 5 fps: the filter is slow in debug builds.
        for preset in ["warm-film", "neutral"] {
            let recorded = runFilterz(
                [
                    "record", "--preset", preset, "--duration", "12", "--fps", "5", "--size", "160x90",
                    "--ladder", "160x90@200k", "--segment-duration", "2", "--out",
                    folder.url.appendingPathComponent(preset).path,
                ],
                environment: samplePresets)
            try #require(recorded.code == 0, "record \(preset): \(recorded.err)")
            try StreamGate.check(folder.url.appendingPathComponent(preset))
        }

        var configuration = ServerConfiguration(root: folder.url.path)
        configuration.host = "127.0.0.1"
        configuration.port = 0
        let server = try HTTPServer(configuration: configuration)
        defer { server.stop(graceSeconds: 1) }

        let browser = try await HeadlessChromium.start()
        do {
            try await playAndCompare(in: browser, index: server.baseURL + "/", folder: folder.url)
        } catch {
            await browser.quit()
            throw error
        }
        await browser.quit()
    }

    func playAndCompare(in browser: HeadlessChromium, index: String, folder: URL) async throws {
        try await browser.open(index)
        let started = try await browser.runAsync(Self.startPlaying, ["warm-film"], as: ScriptOutcome.self)
        try #require(started.error == nil, "play() on the index page's warm-film video: \(started.error ?? "")")
        print(
            "Chromium canPlayType('application/vnd.apple.mpegurl') = '\(started.canPlayHLS ?? "")', page player: \(started.player ?? "undecided")"
        )

        // Plays for at least 10 s of wall time and until currentTime passes 8 s (a loaded machine may lag).
        let clock = ContinuousClock()
        let start = clock.now
        var state = try await browser.run(Self.readState, ["warm-film"], as: VideoState.self)
        while clock.now - start < .seconds(10) || state.time <= 8, clock.now - start < .seconds(60),
            state.error == nil, state.errors.isEmpty
        {
            try await Task.sleep(nanoseconds: 500_000_000)
            state = try await browser.run(Self.readState, ["warm-film"], as: VideoState.self)
        }
        #expect(state.time > 8, "playback did not pass 8 s: \(state)")
        #expect(state.error == nil && state.errors.isEmpty, "media error: \(state)")
        #expect(state.networkState != 3, "no playable source (NETWORK_NO_SOURCE): \(state)")

        var redOverBlue: [String: Double] = [:]
        for preset in ["warm-film", "neutral"] {
            let shown = try await browser.runAsync(Self.showFrame, [preset, 5.0], as: ScriptOutcome.self)
            try #require(shown.error == nil, "showing the frame at 5 s of \(preset): \(shown.error ?? "")")
            let png = try await browser.screenshot(of: "article[id=\"\(preset)\"] video")
            let colour = try Self.meanColour(of: png, scratch: folder.appendingPathComponent("\(preset).png"))
            #expect(colour.red + colour.green + colour.blue > 60, "\(preset): the screenshot is black: \(colour)")
            redOverBlue[preset] = colour.red / max(colour.blue, 1)
        }
        let warm = try #require(redOverBlue["warm-film"]), neutral = try #require(redOverBlue["neutral"])
        print("Chromium screenshot red/blue at 5 s: warm-film \(warm), neutral \(neutral)")
        #expect(warm > neutral * 1.05, "warm-film (red/blue \(warm)) is not warmer than neutral (\(neutral))")
    }

    /// A live recording on the index page: a viewer who paused for 3 s is back at the stream's hold-back (three
    /// target durations) behind the live edge within 20 s, by playing faster for a while, as hls.js does with
    /// `maxLiveSyncPlaybackRate: 1.5`; a player that never plays faster keeps the pause in its latency for good.
    @Test func aLiveViewerWhoPausedCatchesUpToTheHoldBack() async throws {
        let folder = try TemporaryFolder(prefix: "filterz-browser-live")
        let video = folder.url.appendingPathComponent("live")
        let child = try FilterzChild(
            [
                "record", "--preset", "neutral", "--size", "160x90", "--ladder", "160x90@150k", "--live",
                "--segment-duration", "1", "--duration", "90", "--out", video.path,
            ],
            logs: folder.url)
        defer {
            child.signal(SIGKILL)
            _ = child.waitForExit(timeoutSeconds: 10)
        }
        // Four segments listed, so that the page starts three from the end.
        let playlist = video.appendingPathComponent("90p/index.m3u8")
        var listed = 0
        for _ in 0..<600 where listed < 4 {
            listed =
                ((try? String(contentsOf: playlist, encoding: .utf8)) ?? "").components(separatedBy: "#EXTINF").count
                - 1
            try await Task.sleep(nanoseconds: 100_000_000)
        }
        try #require(listed >= 4, "record --live listed \(listed) segments in 60 s: \(child.stderr)")
        var configuration = ServerConfiguration(root: folder.url.path)
        configuration.host = "127.0.0.1"
        configuration.port = 0
        let server = try HTTPServer(configuration: configuration)
        defer { server.stop(graceSeconds: 1) }

        let browser = try await HeadlessChromium.start()
        do {
            try await browser.open(server.baseURL + "/")
            let started = try await browser.runAsync(Self.startPlaying, ["live"], as: ScriptOutcome.self)
            try #require(started.error == nil, "play() on the index page's live video: \(started.error ?? "")")
            try #require(started.player == "mse", "the page played the live stream with \(started.player ?? "nothing")")
            try await Task.sleep(nanoseconds: 3_000_000_000)
            _ = try await browser.run(Self.pauseOrPlay, ["live", true], as: LiveState.self)
            try await Task.sleep(nanoseconds: 3_000_000_000)
            let resumed = try await browser.run(Self.pauseOrPlay, ["live", false], as: LiveState.self)
            // Watched until it is back at the hold-back and plays at normal speed, in rounds of 20 s and for a
            // minute at most: on a loaded machine the page may have stalled and start the watch further behind.
            let holdBack = 3.0
            var samples: [LiveState] = []
            for _ in 0..<3 {
                samples += try await browser.runAsync(Self.watch, ["live", 20], as: [LiveState].self)
                let last = samples.suffix(6)
                if last.allSatisfy({ ($0.behind ?? .infinity) <= holdBack + 0.6 }), last.last?.rate == 1 { break }
            }
            let settled = samples.suffix(6).compactMap(\.behind)
            print(
                "index page, live: \(resumed.behind.map { String(format: "%.2f", $0) } ?? "?") s behind the edge after "
                    + "a 3 s pause; then \(samples.compactMap(\.behind).map { String(format: "%.1f", $0) })")
            #expect(samples.contains { $0.rate > 1 }, "the page never played faster: \(samples)")
            #expect(
                (settled.min() ?? .infinity) <= holdBack + 0.6,
                "still \(settled) s behind the live edge \(samples.count / 2) s after the pause (hold-back \(holdBack) s)"
            )
            #expect(samples.last?.rate == 1, "still playing at \(samples.last?.rate ?? 0)x after catching up")
        } catch {
            await browser.quit()
            throw error
        }
        await browser.quit()
    }

    struct LiveState: Decodable, CustomStringConvertible {
        var time: Double
        var rate: Double
        var behind: Double?
        var description: String { "t \(time) rate \(rate) behind \(behind.map { String($0) } ?? "?")" }
    }

    /// Pauses (true) or plays (false) the article's video, or only reads it (null): its time, rate and how far
    /// behind the live edge the page's player says it plays.
    static let pauseOrPlay = """
        const [id, pause] = arguments;
        const video = document.querySelector('article[id="' + id + '"] video');
        if (pause === true) video.pause(); else if (pause === false) video.play();
        const behind = video.getAttribute('data-behind-live-edge');
        return {time: video.currentTime, rate: video.playbackRate, behind: behind === null ? null : Number(behind)};
        """

    /// The article's video every half second for `seconds`: its time, rate and distance from the live edge.
    static let watch = """
        const [id, seconds, done] = arguments;
        const video = document.querySelector('article[id="' + id + '"] video');
        const samples = [];
        const timer = setInterval(() => {
            const behind = video.getAttribute('data-behind-live-edge');
            samples.push({time: video.currentTime, rate: video.playbackRate, behind: behind === null ? null : Number(behind)});
            if (samples.length >= seconds * 2) { clearInterval(timer); done(samples); }
        }, 500);
        """

    /// Finds the article's `<video>`, records error events (also those of its `<source>`, which do not
    /// bubble), and starts playback.
    static let startPlaying = """
        const [id, done] = arguments;
        const video = document.querySelector('article[id="' + id + '"] video');
        if (!video) { done({error: 'no <video> for ' + id + ' on the index page'}); return; }
        window.mediaErrors = window.mediaErrors || {};
        const errors = window.mediaErrors[id] = [];
        video.addEventListener('error', (event) => {
            errors.push(event.target.tagName + ': ' + (video.error ? video.error.code + ' ' + video.error.message : 'error'));
        }, true);
        video.muted = true;
        const canPlayHLS = video.canPlayType('application/vnd.apple.mpegurl');
        // The page's player decides (Media Source or native) after reading the playlists: wait for it.
        const waitStarted = Date.now();
        const play = () => {
            const player = video.getAttribute('data-player');
            if (!player && Date.now() - waitStarted < 20000) { setTimeout(play, 100); return; }
            if (player === 'none') { done({error: 'the page cannot play it here', canPlayHLS, player}); return; }
            video.play().then(() => done({canPlayHLS, player}), (reason) => done({error: String(reason), canPlayHLS, player}));
        };
        play();
        """

    static let readState = """
        const video = document.querySelector('article[id="' + arguments[0] + '"] video');
        return {time: video.currentTime, paused: video.paused, readyState: video.readyState,
                networkState: video.networkState, error: video.error ? video.error.code + ' ' + video.error.message : null,
                errors: (window.mediaErrors || {})[arguments[0]] || []};
        """

    /// Pauses the article's video on the frame at `at` seconds (loading it first if it never played) and
    /// answers once that frame is on screen.
    static let showFrame = """
        const [id, at, done] = arguments;
        const video = document.querySelector('article[id="' + id + '"] video');
        if (!video) { done({error: 'no <video> for ' + id}); return; }
        video.muted = true;
        const seek = () => {
            video.pause();
            video.addEventListener('seeked', () => {
                let answered = false;
                const answer = () => { if (!answered) { answered = true; done({}); } };
                if (video.requestVideoFrameCallback) video.requestVideoFrameCallback(answer);
                setTimeout(answer, 1000);
            }, {once: true});
            video.currentTime = at;
        };
        video.play().then(seek, (reason) => done({error: String(reason)}));
        """

    /// The mean red, green and blue of a PNG (decoded by ffmpeg to raw RGB).
    static func meanColour(of png: Data, scratch: URL) throws -> (red: Double, green: Double, blue: Double) {
        try png.write(to: scratch)
        let raw = scratch.deletingPathExtension().appendingPathExtension("rgb")
        let decoded = try ExternalTool.run(
            "ffmpeg",
            ["-nostdin", "-v", "error", "-y", "-i", scratch.path, "-f", "rawvideo", "-pix_fmt", "rgb24", raw.path])
        try #require(decoded.exitCode == 0, "ffmpeg could not read the screenshot: \(decoded.stderr)")
        let bytes = [UInt8](try Data(contentsOf: raw))
        try #require(bytes.count >= 3)
        var sums = [0.0, 0.0, 0.0]
        for index in stride(from: 0, to: bytes.count - 2, by: 3) {
            sums[0] += Double(bytes[index])
            sums[1] += Double(bytes[index + 1])
            sums[2] += Double(bytes[index + 2])
        }
        let pixels = Double(bytes.count / 3)
        return (sums[0] / pixels, sums[1] / pixels, sums[2] / pixels)
    }
}
