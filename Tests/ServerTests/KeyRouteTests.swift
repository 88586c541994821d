import FilterzTestSupport
import Foundation
import HLS
import RealClients
import Testing

@testable import Server

/// `/v1/videos/{id}/keys/{n}.key` from `--keys`: exactly the 16 bytes, never cached, only with the video's token.
@Suite struct KeyRouteTests {
    let keys: TemporaryFolder
    let site: InProcessSite
    let signer = URLSigner(secret: "s3cret")
    static let keyBytes: [UInt8] = Array(0x10...0x1F)

    init() throws {
        let keys = try TemporaryFolder(prefix: "filterz-keys")
        self.keys = keys
        let write = { (path: String, bytes: [UInt8]) in
            let url = keys.url.appendingPathComponent(path)
            try FileManager.default.createDirectory(
                at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(bytes).write(to: url)
        }
        try write("a/0.key", Self.keyBytes)
        try write("a/1.key", Array(repeating: 7, count: 15))
        try write("a/2.key", Array(repeating: 7, count: 17))
        try write("b/0.key", Array(repeating: 0xB0, count: 16))
        site = try InProcessSite(
            populate: { site in
                try site.addVideo("a")
                try site.addVideo("b")
                try site.write(
                    "a/v0/enc.m3u8",
                    """
                    #EXTM3U
                    #EXT-X-VERSION:6
                    #EXT-X-TARGETDURATION:4
                    #EXT-X-PLAYLIST-TYPE:VOD
                    #EXT-X-MAP:URI="init.mp4"
                    #EXT-X-KEY:METHOD=AES-128,URI="/v1/videos/a/keys/0.key",IV=0x00000000000000000000000000000001
                    #EXTINF:4.000,
                    seg_0.ts
                    #EXT-X-KEY:METHOD=AES-128,URI="/v1/videos/b/keys/0.key",IV=0x00000000000000000000000000000002
                    #EXTINF:4.000,
                    seg_1.ts
                    #EXT-X-ENDLIST

                    """)
            },
            configure: {
                $0.tokenSecret = "s3cret"
                $0.apiKey = "app-key"
                $0.keysFolder = keys.url.path
            })
    }

    var now: Int64 { site.secondsSinceEpoch }

    func token(_ id: String, expiresIn seconds: Int64 = 600) -> String {
        signer.token(videoID: id, expiresAt: now + seconds)
    }

    @Test func aKeyIsSixteenBytesPrivateAndNeverStored() throws {
        let response = try site.fetch("GET", "/v1/videos/a/keys/0.key?token=\(token("a"))")
        #expect(response.status == 200)
        #expect(response.body == Self.keyBytes)
        #expect(response.header("content-type") == "application/octet-stream")
        #expect(response.header("cache-control") == "private, no-store")
        #expect(response.header("content-length") == "16")
        #expect(response.header("etag") == nil)
        let ranged = try site.fetch(
            "GET", "/v1/videos/a/keys/0.key?token=\(token("a"))", headers: ["Range": "bytes=0-3"])
        #expect(ranged.status == 200 && ranged.body == Self.keyBytes)
    }

    @Test func withoutAValidTokenForThatVideoAKeyIs403WithoutAByte() throws {
        let good = token("a")
        let forged = String(good.dropLast()) + (good.last == "0" ? "1" : "0")
        for (name, query) in [
            ("none", ""), ("other video", "?token=\(token("b"))"), ("expired", "?token=\(token("a", expiresIn: -1))"),
            ("forged", "?token=\(forged)"),
        ] {
            let response = try site.fetch("GET", "/v1/videos/a/keys/0.key\(query)")
            #expect(response.status == 403, "\(name)")
            #expect(response.body.isEmpty, "\(name)")
        }
    }

    @Test(arguments: ["9.key", "1.key", "2.key", "0.txt", "x.key", ".key", "00000000001.key"])
    func unknownMalformedAndWrongSizedKeysAre404(name: String) throws {
        let response = try site.fetch("GET", "/v1/videos/a/keys/\(name)?token=\(token("a"))")
        #expect(response.status == 404)
        #expect(!response.body.starts(with: [7, 7, 7]))
    }

    @Test func theKeysFolderIsNotReachableThroughTheMediaRoutes() throws {
        for path in ["/a/keys/0.key", "/v1/videos/a/../../keys/a/0.key", "/v1/videos/a/keys/0.key/x"] {
            let response = try site.fetch("GET", "\(path)?token=\(token("a"))")
            #expect(response.status != 200, "\(path)")
            #expect(response.body != Self.keyBytes, "\(path)")
        }
    }

    @Test(arguments: ["/a/v0/enc.m3u8", "/v1/videos/a/v0/enc.m3u8"])
    func tokenRewritingSignsTheVideosKeyURIsAndNotAnotherVideos(path: String) throws {
        let token = token("a")
        let response = try site.fetch("GET", "\(path)?token=\(token)")
        #expect(response.status == 200)
        let text = response.bodyText
        #expect(text.contains("URI=\"/v1/videos/a/keys/0.key?token=\(token)\""), "\(text)")
        #expect(text.contains("URI=\"/v1/videos/b/keys/0.key\""), "\(text)")
        #expect(text.contains("#EXT-X-MAP:URI=\"init.mp4?token=\(token)\"\n#EXT-X-KEY"), "\(text)")
    }

    @Test func theCatalogueAndIndexNeverNameAKey() throws {
        let list = try site.fetch("GET", "/v1/videos", headers: ["X-API-Key": "app-key"])
        let stream = try site.fetch("GET", "/v1/videos/a/stream", headers: ["X-API-Key": "app-key"])
        #expect(list.status == 200 && stream.status == 200)
        for text in [list.bodyText, stream.bodyText] {
            #expect(!text.contains("keys/") && !text.contains(".key"), "\(text)")
        }
    }

    @Test func withoutAKeysFolderEveryKeyURIIs404() throws {
        let plain = try InProcessSite(populate: { try $0.addVideo("a") })
        #expect(try plain.fetch("GET", "/v1/videos/a/keys/0.key").status == 404)
    }

    @Test func theNginxEdgePassesKeysToTheOriginUncached() {
        let block = NginxEdgeConfig.serverBlock(
            upstream: "http://127.0.0.1:8080", listen: "8443", certificate: nil, key: nil, cacheFolder: "/tmp/c",
            longestHoldSeconds: 18)
        guard let start = block.range(of: "location ~ ^/v1/videos/[^/]+/keys/ {"),
            let cached = block.range(of: "location ~* \\.(m3u8")
        else {
            Issue.record("no key location:\n\(block)")
            return
        }
        #expect(start.lowerBound < cached.lowerBound)
        let body = block[start.upperBound...].prefix { $0 != "}" }
        for line in [
            "proxy_pass http://filterz_origin;", "proxy_cache off;", "proxy_no_cache 1;", "proxy_cache_bypass 1;",
        ] {
            #expect(body.contains(line), "\(line)")
        }
    }
}
