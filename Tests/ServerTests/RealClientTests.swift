import FilterzTestSupport
import Foundation
import RealClients
import Testing

@testable import Server

/// ffmpeg and ffprobe play through our server; nginx with the generated configuration answers the same key
/// headers for the same folder.
@Suite(.serialized, .enabled(if: TinyStream.isAvailable), .network) struct RealClientTests {
    static let site: TestSite? = try? TestSite { site in
        try TinyStream.make(in: site.root, id: "clip")
        try Data("secret".utf8).write(to: site.root.appendingPathComponent(".env"))
    }

    @Test func ffmpegCopiesTheWholeStreamThroughTheCatalogueURL() throws {
        let site = try #require(Self.site)
        let result = try ExternalTool.run(
            "ffmpeg",
            [
                "-v", "error", "-nostdin", "-i", "\(site.server.baseURL)/v1/videos/clip/master.m3u8", "-map", "0", "-c",
                "copy", "-f", "null", "-",
            ],
            timeoutSeconds: 60)
        #expect(result.exitCode == 0, "\(result.stderr)")
    }

    @Test func ffprobeReadsTheDuration() throws {
        let site = try #require(Self.site)
        let result = try ExternalTool.run(
            "ffprobe",
            [
                "-v", "error", "-show_entries", "format=duration", "-of", "csv=p=0",
                "\(site.server.baseURL)/clip/v0/index.m3u8",
            ],
            timeoutSeconds: 60)
        #expect(result.exitCode == 0, "\(result.stderr)")
        let duration = Double(result.stdout.trimmingCharacters(in: .whitespacesAndNewlines)) ?? 0
        #expect(abs(duration - 4) < 0.25)
    }

    @Test func ffmpegPlaysASignedURLAndNothingWithoutIt() throws {
        let signed = try TestSite(
            populate: { try TinyStream.make(in: $0.root, id: "clip") }, configure: { $0.tokenSecret = "k" })
        let url =
            signed.server.baseURL
            + URLSigner(secret: "k").signedMasterURL(
                videoID: "clip", expiresAt: Int64(Date().timeIntervalSince1970) + 60)
        let played = try ExternalTool.run(
            "ffmpeg", ["-v", "error", "-nostdin", "-i", url, "-map", "0", "-c", "copy", "-f", "null", "-"],
            timeoutSeconds: 60)
        #expect(played.exitCode == 0, "\(played.stderr)")
        let refused = try ExternalTool.run(
            "ffmpeg",
            [
                "-v", "error", "-nostdin", "-i", signed.server.baseURL + "/v1/videos/clip/master.m3u8", "-f", "null",
                "-",
            ],
            timeoutSeconds: 60)
        #expect(refused.exitCode != 0)
    }

    struct Probe: Sendable, CustomTestStringConvertible {
        var method = "GET"
        var path: String
        var headers: [String: String] = [:]
        /// Headers that must be equal (lower case).
        var compared: [String]
        var testDescription: String { "\(method) \(path) \(headers)" }
    }

    static let keyHeaders = [
        "content-type", "cache-control", "access-control-allow-origin", "access-control-expose-headers",
        "content-length",
        "last-modified",
    ]

    static let probes: [Probe] = [
        Probe(path: "/clip/master.m3u8", compared: keyHeaders + ["accept-ranges"]),
        Probe(path: "/clip/v0/index.m3u8", compared: keyHeaders + ["accept-ranges"]),
        Probe(path: "/clip/v0/seg_000.ts", compared: keyHeaders + ["accept-ranges"]),
        Probe(path: "/v1/videos/clip/v0/seg_001.ts", compared: keyHeaders),
        Probe(path: "/clip/subs/en_0.vtt", compared: keyHeaders),
        Probe(path: "/clip/subs/en.m3u8", compared: keyHeaders),
        Probe(path: "/clip/poster.jpg", compared: keyHeaders),
        Probe(method: "HEAD", path: "/clip/v0/seg_002.ts", compared: keyHeaders),
        Probe(path: "/clip/v0/seg_000.ts", headers: ["Range": "bytes=0-99"], compared: keyHeaders + ["content-range"]),
        Probe(path: "/clip/v0/seg_000.ts", headers: ["Range": "bytes=-10"], compared: keyHeaders + ["content-range"]),
        Probe(
            path: "/clip/v0/seg_000.ts", headers: ["Range": "bytes=99999999-"],
            compared: ["content-range", "access-control-allow-origin"]),
        Probe(
            path: "/clip/v0/seg_000.ts", headers: ["If-Modified-Since": "Fri, 01 Jan 2100 00:00:00 GMT"],
            compared: ["cache-control", "access-control-allow-origin", "last-modified"]),
        Probe(
            method: "OPTIONS", path: "/clip/master.m3u8",
            headers: ["Origin": "https://app.example", "Access-Control-Request-Method": "GET"],
            compared: [
                "access-control-allow-origin", "access-control-allow-methods", "access-control-allow-headers",
                "access-control-max-age",
            ]),
        Probe(path: "/.env", compared: ["access-control-allow-origin"]),
        Probe(path: "/clip/missing.ts", compared: ["access-control-allow-origin"]),
    ]

    /// A real nginx with the generated configuration for the same folder. One per test, stopped when the test
    /// drops it: a process kept in a static would outlive the test run (statics are never deinitialised).
    static func startNginx() -> RunningNginx? {
        guard RunningNginx.isAvailable, let site, let port = try? LoopbackPort.unused() else { return nil }
        var configuration = site.server.configuration
        configuration.port = port
        guard let block = try? NginxConfig.serverBlock(for: configuration) else { return nil }
        return try? RunningNginx(serverBlock: block, port: port)
    }

    @Test(.enabled(if: RunningNginx.isAvailable), arguments: probes)
    func nginxWithTheGeneratedConfigAnswersLikeUs(_ probe: Probe) throws {
        let site = try #require(Self.site)
        let nginx = try #require(Self.startNginx(), "nginx failed to start")
        let ours = try fetch(site.port, probe.method, probe.path, headers: probe.headers)
        let theirs = try fetch(nginx.port, probe.method, probe.path, headers: probe.headers)
        #expect(ours.status == theirs.status)
        for name in probe.compared {
            #expect(ours.header(name) == theirs.header(name), "\(name)")
        }
    }

    @Test(.enabled(if: RunningNginx.isAvailable))
    func ffprobePlaysThroughNginx() throws {
        let nginx = try #require(Self.startNginx(), "nginx failed to start")
        let result = try ExternalTool.run(
            "ffprobe",
            [
                "-v", "error", "-show_entries", "format=duration", "-of", "csv=p=0",
                "http://127.0.0.1:\(nginx.port)/v1/videos/clip/master.m3u8",
            ],
            timeoutSeconds: 60)
        #expect(result.exitCode == 0, "\(result.stderr)")
    }
}
