import FilterzTestSupport
import Foundation
import RealClients
import Testing

@testable import Server

/// The index page's documented structure and its player script (run under Node where it is installed).
@Suite struct IndexPageTests {
    static func script(in html: String) throws -> String {
        let start = try #require(html.range(of: "<script>\n"))
        let end = try #require(html.range(of: "</script>", range: start.upperBound..<html.endIndex))
        return String(html[start.upperBound..<end.lowerBound])
    }

    @Test func eachVideoElementNamesItsMasterPlaylistAndThePageCarriesThePlayer() throws {
        let site = try TestSite { try $0.addVideo("a") }
        let html = try fetch(site.port, "GET", "/").bodyText
        #expect(html.contains(#"<video id="video-a" data-master="/v1/videos/a/master.m3u8" controls"#))
        #expect(html.contains(#"<source src="/v1/videos/a/master.m3u8" type="application/vnd.apple.mpegurl">"#))
        #expect(try Self.script(in: html) == IndexPagePlayer.script)
        #expect(html.components(separatedBy: "</script>").count == 2)
    }

    @Test(.enabled(if: ExternalTool.isInstalled("node")))
    func thePlayerFindsTheVariantsAudioAndSegmentsOfAServedStream() throws {
        let site = try TestSite { site in
            try site.addVideo("a")
            try site.write(
                "a/master.m3u8",
                """
                #EXTM3U
                #EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID="aud",NAME="Mic",DEFAULT=YES,URI="audio/index.m3u8"
                #EXT-X-STREAM-INF:BANDWIDTH=3000000,CODECS="avc1.64001f,mp4a.40.2",AUDIO="aud"
                v0/index.m3u8
                #EXT-X-STREAM-INF:BANDWIDTH=730000,CODECS="avc1.64001e,mp4a.40.2",AUDIO="aud"
                v1/index.m3u8

                """)
        }
        let folder = try TemporaryFolder(prefix: "filterz-player")
        let player = folder.url.appendingPathComponent("player.js")
        try Self.script(in: try fetch(site.port, "GET", "/").bodyText).write(
            to: player, atomically: true, encoding: .utf8)
        #expect(try ExternalTool.run("node", ["--check", player.path], timeoutSeconds: 30).exitCode == 0)
        let base = "http://127.0.0.1:\(site.port)/v1/videos/a/"
        let program = """
            const player = require(\(String(reflecting: player.path)));
            (async () => {
              const master = player.parseMultivariant(await (await fetch("\(base)master.m3u8")).text(), "\(base)master.m3u8");
              const media = player.parseMedia(await (await fetch(master.variants[1].url)).text(), master.variants[1].url);
              console.log(JSON.stringify({ master, media }));
            })();
            """
        let result = try ExternalTool.run("node", ["-e", program], timeoutSeconds: 30)
        try #require(result.exitCode == 0, "\(result.stderr)")
        let parsed = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        let master = try #require(parsed["master"] as? [String: Any])
        let variants = try #require(master["variants"] as? [[String: Any]])
        #expect(variants.map { $0["url"] as? String } == [base + "v0/index.m3u8", base + "v1/index.m3u8"])
        #expect(variants.first?["codecs"] as? [String] == ["avc1.64001f", "mp4a.40.2"])
        #expect((master["audio"] as? [String: String])?["aud"] == base + "audio/index.m3u8")
        let media = try #require(parsed["media"] as? [String: Any])
        let segments = try #require(media["segments"] as? [String])
        #expect(segments == (0..<3).map { base + "v1/seg_\($0).ts" })
        #expect(media["ended"] as? Bool == true)
        #expect(media["targetSeconds"] as? Double == 4)
        for segment in segments {
            #expect(
                try fetch(site.port, "GET", String(segment.dropFirst("http://127.0.0.1:\(site.port)".count))).status
                    == 200)
        }
    }

    /// The live catch-up rule (hls.js's `maxLiveSyncPlaybackRate: 1.5` in the page's own player): faster only
    /// while more than half a second behind the hold-back with a second buffered, easing off as it nears it.
    @Test(.enabled(if: ExternalTool.isInstalled("node")))
    func aLivePlayerBehindItsHoldBackPlaysFasterUntilItIsBack() throws {
        let folder = try TemporaryFolder(prefix: "filterz-player")
        let player = folder.url.appendingPathComponent("player.js")
        try IndexPagePlayer.script.write(to: player, atomically: true, encoding: .utf8)
        // behind the edge, hold-back, buffered ahead, rate now → rate wanted
        let cases: [(Double, Double, Double, Double, Double)] = [
            (6.0, 6, 3, 1, 1),  // at its hold-back
            (6.3, 6, 3, 1, 1),  // a little behind: not worth a change of speed
            (7.0, 6, 3, 1, 1.5),  // a second behind
            (16, 6, 3, 1, 1.5),  // far behind: never above 1.5
            (6.3, 6, 3, 1.2, 1.15),  // catching up, nearly there: eases off
            (6.05, 6, 3, 1.5, 1),  // back
            (9.0, 6, 0.5, 1, 1),  // behind, but the buffer runs low
        ]
        let calls = cases.map { "p.catchUpRate(\($0.0), \($0.1), \($0.2), \($0.3))" }.joined(separator: ", ")
        let result = try ExternalTool.run(
            "node",
            ["-e", "const p = require(\(String(reflecting: player.path))); console.log(JSON.stringify([\(calls)]))"],
            timeoutSeconds: 30)
        try #require(result.exitCode == 0, "\(result.stderr)")
        let rates = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [Double])
        #expect(rates == cases.map(\.4))
    }
}
