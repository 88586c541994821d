import FilterzTestSupport
import Foundation
import RealClients
import Testing

/// The hls.js harness tells hls.js 1.6's known stalls in encrypted LL-HLS (which a test may excuse) from any
/// other: a scripted stand-in for hls.js replays the event sequences the real one produced.
@Suite(
    .serialized, .browser,
    .enabled(if: HeadlessChromium.unavailableReason == nil, Comment(rawValue: HeadlessChromium.unavailableReason ?? ""))
)
struct HLSJSHarnessTests {
    /// An ES module shaped like the wheel's hls.js (`n` is `isSupported`, `t` returns a player) whose player,
    /// once attached, fires `script`'s events (`[milliseconds, event, data]`) and then nothing.
    static func standIn(_ script: String) -> String {
        """
        const Events = Object.fromEntries(["MANIFEST_PARSED", "LEVEL_LOADED", "LEVEL_LOADING", "LEVEL_SWITCHING",
          "LEVEL_SWITCHED", "FRAG_LOADING", "FRAG_LOADED", "FRAG_BUFFERED", "KEY_LOADING", "KEY_LOADED", "ERROR"]
          .map(name => [name, name]));
        class Player {
          static Events = Events;
          constructor() { this.handlers = {}; this.levels = []; this.currentLevel = 0; }
          on(name, handler) { (this.handlers[name] ||= []).push(handler); }
          loadSource() {}
          attachMedia() {
            for (const [at, name, data] of \(script))
              setTimeout(() => (this.handlers[name] || []).forEach(handler => handler(name, data)), at);
          }
          destroy() {}
        }
        export const n = () => true;
        export const t = () => new Player();
        """
    }

    func play(_ script: String) async throws -> HLSJSPlayer.Report {
        let browser = try await HeadlessChromium.start()
        do {
            try await browser.open("about:blank")
            let report = try await HLSJSPlayer.play(
                "data:,", in: browser, seconds: 4, lowLatency: true, module: Self.standIn(script))
            await browser.quit()
            return report
        } catch {
            await browser.quit()
            throw error
        }
    }

    /// hls.js#7975 as seen in CI: the audio stream armed the key of sn 1, asked for part 0 of sn 2 in the same
    /// call, the chain of sn 1's parts finished, and then the stream never moved again.
    @Test func aPartAskedForWhileAnotherSegmentsKeyLoadsAndNeverLoadedIsAParkedStream() async throws {
        let report = try await play(
            """
            [[100, "KEY_LOADING", {frag: {type: "audio", sn: 1}}],
             [100, "FRAG_LOADING", {frag: {type: "audio", sn: 2, level: 0}, part: {index: 0}}],
             [110, "FRAG_LOADED", {frag: {type: "audio", sn: 1, level: 0}, part: {index: 5}}],
             [120, "FRAG_BUFFERED", {frag: {type: "audio", sn: 1, level: 0}, part: {index: 5}}]]
            """)
        #expect(report.error == nil, "\(report.error ?? "")")
        #expect(report.parkedAfterKeyLoad.count == 1, "\(report.parkedAfterKeyLoad)")
        let line = try #require(report.parkedAfterKeyLoad.first)
        #expect(line.hasPrefix("audio never loaded sn 2 part 0"), "\(line)")
        #expect(line.contains("key of sn 1"), "\(line)")
    }

    /// The same swap when hls.js does go on to load the part is no stall; neither is a key load followed by media.
    @Test func aSwapWhosePartLoadsAndAKeyFollowedByMediaAreNotParked() async throws {
        let report = try await play(
            """
            [[100, "KEY_LOADING", {frag: {type: "audio", sn: 1}}],
             [100, "FRAG_LOADING", {frag: {type: "audio", sn: 2, level: 0}, part: {index: 0}}],
             [300, "FRAG_LOADED", {frag: {type: "audio", sn: 2, level: 0}, part: {index: 0}}],
             [100, "KEY_LOADING", {frag: {type: "main", sn: 3}}],
             [150, "FRAG_LOADING", {frag: {type: "main", sn: 3, level: 0}, part: {index: 0}}],
             [200, "FRAG_LOADED", {frag: {type: "main", sn: 3, level: 0}, part: {index: 0}}]]
            """)
        #expect(report.error == nil, "\(report.error ?? "")")
        #expect(report.parkedAfterKeyLoad.isEmpty, "\(report.parkedAfterKeyLoad)")
    }

    /// hls.js#7871's shape: a key load and then no request at all.
    @Test func aKeyLoadFollowedByNothingIsAParkedStream() async throws {
        let report = try await play(
            """
            [[100, "FRAG_LOADED", {frag: {type: "main", sn: 4, level: 0}, part: {index: 3}}],
             [200, "KEY_LOADING", {frag: {type: "main", sn: 5}}]]
            """)
        #expect(report.parkedAfterKeyLoad.count == 1, "\(report.parkedAfterKeyLoad)")
        #expect(report.parkedAfterKeyLoad.first?.hasPrefix("main quiet") == true, "\(report.parkedAfterKeyLoad)")
    }
}
