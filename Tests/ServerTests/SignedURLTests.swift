import Foundation
import Testing
import HLS
@testable import Server

@Suite struct SignedURLTests {
    let site: TestSite
    let signer = URLSigner(secret: "s3cret")
    let now = Int64(Date().timeIntervalSince1970)

    init() throws {
        site = try TestSite(populate: { site in
            try site.addVideo("a")
            try site.addVideo("b")
        }, configure: { $0.tokenSecret = "s3cret" })
    }

    func token(_ id: String, expiresIn seconds: Int64 = 600) -> String {
        signer.token(videoID: id, expiresAt: now + seconds)
    }

    @Test func aValidTokenOpensEveryFileOfItsVideo() throws {
        let token = token("a")
        for path in ["/v1/videos/a/master.m3u8", "/a/v0/seg_0.ts", "/v1/videos/a/subs/ko_1.vtt", "/v1/videos/a/stream"] {
            #expect(try fetch(site.port, "GET", "\(path)?token=\(token)").status == 200, "\(path)")
        }
    }

    @Test func missingExpiredForgedAndOtherVideosTokensAre403WithoutDetail() throws {
        let good = token("a")
        let expired = token("a", expiresIn: -1)
        let forged = String(good.dropLast()) + (good.last == "0" ? "1" : "0")
        let otherSecret = URLSigner(secret: "guess").token(videoID: "a", expiresAt: now + 600)
        let laterExpiry = "\(now + 99999)." + good.split(separator: ".")[1]
        for (name, query) in [
            ("missing", ""), ("empty", "?token="), ("expired", "?token=\(expired)"), ("forged", "?token=\(forged)"),
            ("other video", "?token=\(token("b"))"), ("other secret", "?token=\(otherSecret)"),
            ("extended expiry", "?token=\(laterExpiry)"), ("garbage", "?token=%00%01"),
        ] {
            for path in ["/v1/videos/a/master.m3u8", "/a/v0/seg_0.ts", "/v1/videos/a/stream", "/a/nonexistent.ts"] {
                let response = try fetch(site.port, "GET", path + query)
                #expect(response.status == 403, "\(name) \(path)")
                #expect(response.body.isEmpty, "\(name) \(path)")
            }
        }
        // The catalogue list itself is public metadata.
        #expect(try fetch(site.port, "GET", "/v1/videos").status == 200)
    }

    @Test func playlistsComeBackWithTheTokenOnEveryURI() throws {
        let token = token("a")
        let master = try fetch(site.port, "GET", "/v1/videos/a/master.m3u8?token=\(token)")
        guard case .multivariant(let parsed) = HLS.parse(master.body).playlist else {
            Issue.record("not a multivariant playlist: \(master.bodyText)")
            return
        }
        let uris = parsed.variants.map(\.uri) + parsed.renditions.compactMap(\.uri)
        #expect(uris.count == 4)
        for uri in uris {
            #expect(uri.hasSuffix("?token=\(token)"), "\(uri)")
            // The player resolves it against the master URL and gets in.
            let media = try fetch(site.port, "GET", "/v1/videos/a/" + uri)
            #expect(media.status == 200, "\(uri)")
            guard case .media(let playlist) = HLS.parse(media.body).playlist else {
                Issue.record("not a media playlist")
                continue
            }
            for segment in playlist.segments {
                #expect(segment.uri.hasSuffix("?token=\(token)"))
                let folder = uri.split(separator: "?")[0].split(separator: "/").dropLast().joined(separator: "/")
                #expect(try fetch(site.port, "GET", "/v1/videos/a/\(folder)/\(segment.uri)").status == 200)
            }
        }
        // Different tokens give different validators for the different bodies.
        let other = try fetch(site.port, "GET", "/v1/videos/a/master.m3u8?token=\(self.token("a", expiresIn: 900))")
        #expect(other.header("etag") != master.header("etag"))
    }

    @Test func theStreamEndpointHandsOutSignedURLs() throws {
        let token = token("b")
        let response = try fetch(site.port, "GET", "/v1/videos/b/stream?token=\(token)")
        let body = try #require(JSONSerialization.jsonObject(with: Data(response.body)) as? [String: Any])
        let stream = try #require(body["stream_url"] as? String)
        #expect(stream == "/v1/videos/b/master.m3u8?token=\(token)")
        #expect(try fetch(site.port, "GET", stream).status == 200)
    }

    @Test func rewritingKeepsAbsoluteURLsAndAddsToExistingQueries() {
        let text = """
            #EXTM3U
            #EXT-X-TARGETDURATION:4
            #EXT-X-MAP:URI="init.mp4"
            #EXT-X-KEY:METHOD=AES-128,URI="key.bin?v=1"
            #EXTINF:4,
            seg_0.m4s
            #EXTINF:4,
            https://cdn.example/seg_1.m4s
            #EXT-X-ENDLIST

            """
        let rewritten = String(decoding: TokenRewriter.appendingToken("1.ab", to: Array(text.utf8)), as: UTF8.self)
        #expect(rewritten.contains("URI=\"init.mp4?token=1.ab\""))
        #expect(rewritten.contains("URI=\"key.bin?v=1&token=1.ab\""))
        #expect(rewritten.contains("\nseg_0.m4s?token=1.ab\n"))
        #expect(rewritten.contains("\nhttps://cdn.example/seg_1.m4s\n"))
        #expect(rewritten.contains("#EXT-X-ENDLIST"))
    }
}
