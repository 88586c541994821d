import FilterzTestSupport
import Foundation
import HLS
import RealClients
import Testing

@testable import Server

@Suite struct SignedURLTests {
    let site: InProcessSite
    let signer = URLSigner(secret: "s3cret")

    init() throws {
        site = try InProcessSite(
            populate: { site in
                try site.addVideo("a")
                try site.addVideo("b")
            },
            configure: {
                $0.tokenSecret = "s3cret"
                $0.apiKey = "app-key"
                $0.tokenLifetimeSeconds = 900
            })
    }

    var now: Int64 { site.secondsSinceEpoch }

    func token(_ id: String, expiresIn seconds: Int64 = 600) -> String {
        signer.token(videoID: id, expiresAt: now + seconds)
    }

    @Test func aValidTokenOpensEveryFileOfItsVideo() throws {
        let token = token("a")
        for path in ["/v1/videos/a/master.m3u8", "/a/v0/seg_0.ts", "/v1/videos/a/subs/ko_1.vtt"] {
            #expect(try site.fetch("GET", "\(path)?token=\(token)").status == 200, "\(path)")
        }
        // Until it expires.
        site.advance(seconds: 599)
        #expect(try site.fetch("GET", "/a/v0/seg_0.ts?token=\(token)").status == 200)
        site.advance(seconds: 1)
        #expect(try site.fetch("GET", "/a/v0/seg_0.ts?token=\(token)").status == 403)
    }

    @Test func missingExpiredForgedAndOtherVideosTokensAre403WithoutDetail() throws {
        let good = token("a")
        let expired = token("a", expiresIn: -1)
        let forged = String(good.dropLast()) + (good.last == "0" ? "1" : "0")
        let otherSecret = URLSigner(secret: "guess").token(videoID: "a", expiresAt: now + 600)
        let laterExpiry = "\(now + 99999)." + good.split(separator: ".")[1]
        let parts = good.split(separator: ".")
        for (name, query) in [
            ("missing", ""), ("empty", "?token="), ("expired", "?token=\(expired)"), ("forged", "?token=\(forged)"),
            ("other video", "?token=\(token("b"))"), ("other secret", "?token=\(otherSecret)"),
            ("extended expiry", "?token=\(laterExpiry)"), ("garbage", "?token=%00%01"),
            // The same numbers spelt otherwise: one spelling only.
            ("leading zeros", "?token=00\(good)"), ("encoded plus sign", "?token=%2B\(good)"),
            ("plus sign", "?token=+\(good)"),
            ("capital hex", "?token=\(parts[0]).\(parts[1].uppercased())"),
            ("escaped digit", "?token=%3\(good.prefix(1))\(good.dropFirst())"),
            ("escaped name", "?%74oken=\(good)"), ("repeated", "?token=\(good)&token=\(good)"),
            ("repeated, the other one bad", "?token=\(good)&token=x"), ("name only", "?token"),
        ] {
            for path in [
                "/v1/videos/a/master.m3u8", "/a/v0/seg_0.ts", "/a/nonexistent.ts", "/v1/videos/a/keys/0.key",
            ] {
                let response = try site.fetch("GET", path + query)
                #expect(response.status == 403, "\(name) \(path)")
                #expect(response.body.isEmpty, "\(name) \(path)")
            }
        }
    }

    @Test func theCatalogueNeedsTheAppsKeyAndLinksSignedURLs() throws {
        for headers in [[:], ["X-API-Key": "wrong"], ["X-API-Key": "app-ke"]] {
            #expect(try site.fetch("GET", "/v1/videos", headers: headers).status == 403)
            #expect(try site.fetch("GET", "/v1/videos/a/stream", headers: headers).status == 403)
        }
        let list = try site.fetch("GET", "/v1/videos", headers: ["X-API-Key": "app-key"])
        #expect(list.status == 200)
        let body = try #require(JSONSerialization.jsonObject(with: Data(list.body)) as? [String: Any])
        let entries = try #require(body["data"] as? [[String: Any]])
        #expect(entries.count == 2)
        for entry in entries {
            let thumbnail = try #require(entry["thumbnail_url"] as? String)
            #expect(thumbnail.contains("?token="))
            #expect(try site.fetch("GET", thumbnail).status == 200, "\(thumbnail)")
        }
        // The index would link tokenless URLs: it is off unless asked for.
        #expect(try site.fetch("GET", "/").status == 404)
    }

    @Test func playlistsComeBackWithTheTokenOnEveryURI() throws {
        let token = token("a")
        let master = try site.fetch("GET", "/v1/videos/a/master.m3u8?token=\(token)")
        guard case .multivariant(let parsed) = HLS.parse(master.body).playlist else {
            Issue.record("not a multivariant playlist: \(master.bodyText)")
            return
        }
        let uris = parsed.variants.map(\.uri) + parsed.renditions.compactMap(\.uri)
        #expect(uris.count == 4)
        for uri in uris {
            #expect(uri.hasSuffix("?token=\(token)"), "\(uri)")
            // The player resolves it against the master URL and gets in.
            let media = try site.fetch("GET", "/v1/videos/a/" + uri)
            #expect(media.status == 200, "\(uri)")
            guard case .media(let playlist) = HLS.parse(media.body).playlist else {
                Issue.record("not a media playlist")
                continue
            }
            for segment in playlist.segments {
                #expect(segment.uri.hasSuffix("?token=\(token)"))
                let folder = uri.split(separator: "?")[0].split(separator: "/").dropLast().joined(separator: "/")
                #expect(try site.fetch("GET", "/v1/videos/a/\(folder)/\(segment.uri)").status == 200)
            }
        }
        // Different tokens give different validators for the different bodies.
        let other = try site.fetch("GET", "/v1/videos/a/master.m3u8?token=\(self.token("a", expiresIn: 900))")
        #expect(other.header("etag") != master.header("etag"))
    }

    /// What carries a token is for one viewer only: no shared cache may keep it. Segments carry none.
    @Test func answersThatCarryATokenArePrivate() throws {
        let token = token("a")
        for path in ["/v1/videos/a/master.m3u8", "/a/v0/index.m3u8"] {
            let playlist = try site.fetch("GET", "\(path)?token=\(token)")
            #expect(playlist.status == 200)
            #expect(playlist.header("cache-control")?.hasPrefix("private, max-age=") == true, "\(path)")
        }
        let segment = try site.fetch("GET", "/a/v0/seg_0.ts?token=\(token)")
        #expect(segment.header("cache-control") == CachePolicy.immutable)
        for path in ["/v1/videos/a/stream", "/v1/videos"] {
            let answer = try site.fetch("GET", path, headers: ["X-API-Key": "app-key"])
            #expect(answer.status == 200)
            #expect(answer.header("cache-control") == "private, no-cache", "\(path)")
        }
        let unsigned = try InProcessSite(populate: { try $0.addVideo("a") })
        let plain = try unsigned.fetch("GET", "/v1/videos/a/master.m3u8")
        #expect(plain.header("cache-control") == CachePolicy.multivariantPlaylist)
    }

    @Test func theStreamEndpointHandsOutSignedURLs() throws {
        let response = try site.fetch("GET", "/v1/videos/b/stream", headers: ["X-API-Key": "app-key"])
        let body = try #require(JSONSerialization.jsonObject(with: Data(response.body)) as? [String: Any])
        let stream = try #require(body["stream_url"] as? String)
        let token = try #require(stream.split(separator: "=").last.map(String.init))
        #expect(stream == "/v1/videos/b/master.m3u8?token=\(token)")
        #expect(signer.isValid(token, videoID: "b", now: now + 800))
        #expect(!signer.isValid(token, videoID: "b", now: now + 1000))
        #expect(!signer.isValid(token, videoID: "a", now: now))
        #expect(try site.fetch("GET", stream).status == 200)
        let qualities = try #require(body["qualities"] as? [[String: Any]])
        for quality in qualities {
            #expect(try site.fetch("GET", try #require(quality["stream_url"] as? String)).status == 200)
        }
    }

    @Test func withoutAnAPIKeyTheSignedCatalogueIsClosedAndTheIndexCanBeAskedFor() throws {
        let closed = try InProcessSite(populate: { try $0.addVideo("a") }, configure: { $0.tokenSecret = "s3cret" })
        #expect(try closed.fetch("GET", "/v1/videos").status == 403)
        #expect(try closed.fetch("GET", "/v1/videos/a/stream").status == 403)
        let open = try InProcessSite(
            populate: { try $0.addVideo("a") },
            configure: {
                $0.tokenSecret = "s3cret"
                $0.servesIndexWhenSigned = true
            })
        let page = try open.fetch("GET", "/")
        #expect(page.status == 200)
        #expect(page.header("cache-control") == "private, no-cache")
        let master = try #require(
            page.bodyText.components(separatedBy: "data-master=\"").dropFirst().first?.components(separatedBy: "\"")
                .first)
        #expect(master.contains("?token="))
        #expect(try open.fetch("GET", master).status == 200)
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
        let rewritten = String(
            decoding: TokenRewriter.appendingToken("1.ab", to: Array(text.utf8), directory: ["a", "v0"], root: ["a"]),
            as: UTF8.self)
        #expect(rewritten.contains("URI=\"init.mp4?token=1.ab\""))
        #expect(rewritten.contains("URI=\"key.bin?v=1&token=1.ab\""))
        #expect(rewritten.contains("\nseg_0.m4s?token=1.ab\n"))
        #expect(rewritten.contains("\nhttps://cdn.example/seg_1.m4s\n"))
        #expect(rewritten.contains("#EXT-X-ENDLIST"))
    }
}
