import FilterzTestSupport
import Foundation
import RealClients
import Server
import Testing

@testable import FilterzCLI

/// `filterz simulate` on live streams: a live LL-HLS folder served by `filterz serve` (its playlists read once) and
/// a synthetic live ladder; both report latency behind the live edge.
@Suite struct SimulateLiveTests {
    /// A media playlist as `record --live --low-latency --window 6` writes it: six 2 s segments, parts of the
    /// last two and of the segment in progress, a preload hint, no EXT-X-ENDLIST.
    static func mediaPlaylist() -> String {
        var lines = [
            "#EXTM3U", "#EXT-X-VERSION:9", "#EXT-X-TARGETDURATION:2", "#EXT-X-MEDIA-SEQUENCE:10",
            "#EXT-X-SERVER-CONTROL:CAN-SKIP-UNTIL=12.0,HOLD-BACK=6.0,PART-HOLD-BACK=1.0,CAN-BLOCK-RELOAD=YES",
            "#EXT-X-PART-INF:PART-TARGET=0.3333333333333333", "#EXT-X-MAP:URI=\"init.mp4\"",
        ]
        for msn in 10..<16 {
            if msn >= 14 {
                for part in 0..<6 {
                    lines.append(
                        "#EXT-X-PART:DURATION=0.3333333333333333,URI=\"seg_\(msn).p\(part).m4s\""
                            + (part == 0 ? ",INDEPENDENT=YES" : ""))
                }
            }
            lines += ["#EXTINF:2.000,", "seg_\(msn).m4s"]
        }
        lines += [
            "#EXT-X-PART:DURATION=0.3333333333333333,URI=\"seg_16.p0.m4s\",INDEPENDENT=YES",
            "#EXT-X-PRELOAD-HINT:TYPE=PART,URI=\"seg_16.p1.m4s\"",
        ]
        return lines.joined(separator: "\n") + "\n"
    }

    @Test func aServedLowLatencyLiveFolderReportsLatencyNearPartHoldBack() throws {
        let folder = try TemporaryFolder(prefix: "filterz-simulate-live")
        let video = folder.url.appendingPathComponent("live")
        for (name, kbps) in [("360p", 800), ("720p", 2500)] {
            let level = video.appendingPathComponent(name)
            try FileManager.default.createDirectory(at: level, withIntermediateDirectories: true)
            try Self.mediaPlaylist().write(
                to: level.appendingPathComponent("index.m3u8"), atomically: true, encoding: .utf8)
            for msn in 10..<16 {
                try Data(count: kbps * 2000 / 8).write(to: level.appendingPathComponent("seg_\(msn).m4s"))
            }
        }
        try """
        #EXTM3U
        #EXT-X-VERSION:9
        #EXT-X-STREAM-INF:BANDWIDTH=800000,RESOLUTION=640x360,CODECS="avc1.64001e"
        360p/index.m3u8
        #EXT-X-STREAM-INF:BANDWIDTH=2500000,RESOLUTION=1280x720,CODECS="avc1.64001f"
        720p/index.m3u8

        """.write(to: video.appendingPathComponent("master.m3u8"), atomically: true, encoding: .utf8)

        var configuration = ServerConfiguration(root: folder.url.path)
        configuration.host = "127.0.0.1"
        configuration.port = 0
        let server = try HTTPServer(configuration: configuration)
        defer { server.stop(graceSeconds: 1) }
        let url = server.baseURL + "/v1/videos/live/master.m3u8"
        let run = runFilterz(["simulate", url, "--bandwidth", "5mbps", "--watch", "30s", "--json"])
        try #require(run.code == 0, "\(run.err)")
        let report = try #require(try JSONSerialization.jsonObject(with: Data(run.out.utf8)) as? [String: Any])
        let summary = try #require(report["summary"] as? [String: Any])
        let p50 = try #require(summary["latency_p50_s"] as? Double)
        let p95 = try #require(summary["latency_p95_s"] as? Double)
        #expect(p50 >= 1 && p95 < 2, "latency p50 \(p50), p95 \(p95): PART-HOLD-BACK is 1 s")
        let segments = try #require(report["segments"] as? [[String: Any]])
        #expect(
            segments.contains { ($0["bytes"] as? Int) == 33_333 },
            "a sixth of a 200,000-byte segment: \(segments.prefix(3))")
    }

    @Test func aSyntheticLadderIsPublishedLive() {
        let run = runFilterz([
            "simulate", "--live", "--ladder", "1280x720@2500k,640x360@800k", "--part-duration", "0.333s",
            "--bandwidth", "5mbps", "--watch", "20s",
        ])
        #expect(run.code == 0, "\(run.err)")
        #expect(run.out.contains("latency            p50 1."), "\(run.out)")
        #expect(runFilterz(["simulate", "--ladder", "640x360@800k", "--bandwidth", "5mbps"]).code == 2)
        #expect(
            runFilterz(["simulate", "--live", "--ladder", "640x360@800k", "--bandwidth", "5mbps", "--seek", "5:1"]).code
                == 2)
        #expect(runFilterz(["simulate", "--live", "--ladder", "640x360", "--bandwidth", "5mbps"]).code == 2)
        #expect(runFilterz(["simulate", "--live", "--bandwidth", "5mbps"]).code == 2)
        let vod = SharedData.folder("manifests")?.appendingPathComponent("pensieve_envivio_48.json").path ?? "none.json"
        let refused = runFilterz(["simulate", vod, "--bandwidth", "5mbps", "--watch", "20s", "--no-optimum"])
        #expect(refused.code == 2 && refused.err.contains("--watch applies to live streams"), "\(refused.err)")
    }
}
