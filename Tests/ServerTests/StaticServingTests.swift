import FilterzTestSupport
import Foundation
import Testing

@testable import Server

/// Files as the handler answers them: types, validators, conditions, ranges, cache rules, CORS (in process;
/// what needs a connection is in `StaticServingSocketTests`).
@Suite struct StaticServingTests {
    let site: InProcessSite

    init() throws {
        site = try InProcessSite { site in
            try site.addVideo("vod")
            try site.addVideo("live", live: true, targetDuration: 6)
        }
    }

    var segment: [UInt8] { SiteFolder.bytes(count: 2000, seed: 0) }

    @Test func servesWholeFilesWithTypeValidatorsAndCORS() throws {
        let response = try site.fetch("GET", "/vod/v0/seg_0.ts")
        #expect(response.status == 200)
        #expect(response.body == segment)
        #expect(response.header("content-type") == "video/mp2t")
        #expect(response.header("content-length") == "2000")
        #expect(response.header("accept-ranges") == "bytes")
        #expect(response.header("etag")?.hasPrefix("\"") == true)
        #expect(response.header("last-modified").flatMap(HTTPDate.parse) != nil)
        #expect(response.header("access-control-allow-origin") == "*")
        #expect(response.header("access-control-expose-headers") == "Content-Length, Content-Range")
    }

    @Test(
        arguments: [
            ("bytes=0-9", 206, "bytes 0-9/2000", 0..<10),
            ("bytes=1990-", 206, "bytes 1990-1999/2000", 1990..<2000),
            ("bytes=-5", 206, "bytes 1995-1999/2000", 1995..<2000),
            ("bytes=1999-5000", 206, "bytes 1999-1999/2000", 1999..<2000),
            ("bytes=0-0", 206, "bytes 0-0/2000", 0..<1),
            ("bytes=2000-", 416, "bytes */2000", 0..<0),
            ("bytes=-0", 416, "bytes */2000", 0..<0),
            ("bytes=0-1,4-5", 200, nil, 0..<2000),
            ("bytes=9-3", 200, nil, 0..<2000),
        ] as [(String, Int, String?, Range<Int>)])
    func rangeRequestsAnswerTheRightBytes(range: String, status: Int, contentRange: String?, bytes: Range<Int>) throws {
        let response = try site.fetch("GET", "/vod/v0/seg_0.ts", headers: ["Range": range])
        #expect(response.status == status)
        #expect(response.header("content-range") == contentRange)
        #expect(response.body == Array(segment[bytes]))
    }

    @Test func ifRangeWithAnOldTagGetsTheWholeFile() throws {
        let response = try site.fetch(
            "GET", "/vod/v0/seg_0.ts", headers: ["Range": "bytes=0-9", "If-Range": "\"old\""])
        #expect(response.status == 200)
        #expect(response.body.count == 2000)
    }

    @Test func conditionalRequestsAnswer304WithoutABody() throws {
        let first = try site.fetch("GET", "/vod/v0/seg_1.ts")
        let tag = try #require(first.header("etag"))
        let modified = try #require(first.header("last-modified"))
        for headers in [["If-None-Match": tag], ["If-Modified-Since": modified], ["If-None-Match": "\"x\", \(tag)"]] {
            let again = try site.fetch("GET", "/vod/v0/seg_1.ts", headers: headers)
            #expect(again.status == 304)
            #expect(again.body.isEmpty)
            #expect(again.header("etag") == tag)
            #expect(again.header("cache-control") == CachePolicy.immutable)
        }
        let changed = try site.fetch("GET", "/vod/v0/seg_1.ts", headers: ["If-None-Match": "\"x\""])
        #expect(changed.status == 200)
        let older = try site.fetch(
            "GET", "/vod/v0/seg_1.ts", headers: ["If-Modified-Since": "Thu, 01 Jan 1970 00:00:00 GMT"])
        #expect(older.status == 200)
    }

    @Test func rewrittenFileGetsANewTag() throws {
        let before = try site.fetch("GET", "/vod/poster.jpg")
        try site.write("vod/poster.jpg", [1, 2, 3])
        let after = try site.fetch("GET", "/vod/poster.jpg", headers: ["If-None-Match": before.header("etag") ?? ""])
        #expect(after.status == 200)
        #expect(after.body == [1, 2, 3])
    }

    @Test func preflightAnswers204WithTheAllowedMethodsAndHeaders() throws {
        let response = try site.fetch(
            "OPTIONS", "/vod/master.m3u8",
            headers: [
                "Origin": "https://app.example", "Access-Control-Request-Method": "GET",
                "Access-Control-Request-Headers": "range",
            ])
        #expect(response.status == 204)
        #expect(response.header("access-control-allow-origin") == "*")
        #expect(response.header("access-control-allow-methods") == "GET, HEAD, OPTIONS")
        #expect(response.header("access-control-allow-headers")?.contains("Range") == true)
        #expect(response.header("access-control-max-age") == "86400")
    }

    @Test func otherMethodsAre405() throws {
        for method in ["POST", "PUT", "DELETE", "PATCH", "BREW"] {
            let response = try site.fetch(method, "/vod/master.m3u8")
            #expect(response.status == 405, "\(method)")
            #expect(response.header("allow") == "GET, HEAD, OPTIONS")
        }
    }

    @Test(arguments: [
        ("/live/v0/index.m3u8", "public, max-age=3"),
        ("/vod/v0/index.m3u8", "public, max-age=60"),
        ("/vod/master.m3u8", "public, max-age=10"),
        ("/live/master.m3u8", "public, max-age=10"),
        ("/vod/v0/seg_0.ts", "public, max-age=31536000, immutable"),
        ("/vod/subs/ko_0.vtt", "public, max-age=31536000, immutable"),
        ("/vod/poster.jpg", "public, max-age=60"),
        ("/v1/videos", "no-cache"),
    ])
    func cacheControlFollowsWhatTheFileIs(path: String, cacheControl: String) throws {
        let response = try site.fetch("GET", path)
        #expect(response.status == 200)
        #expect(response.header("cache-control") == cacheControl)
    }

    @Test func aLivePlaylistThatEndsBecomesFinished() throws {
        let path = "/live/v1/index.m3u8"
        #expect(try site.fetch("GET", path).header("cache-control") == "public, max-age=3")
        let text = try String(contentsOf: site.root.appendingPathComponent("live/v1/index.m3u8"), encoding: .utf8)
        try site.write("live/v1/index.m3u8", text + "#EXT-X-ENDLIST\n")
        #expect(try site.fetch("GET", path).header("cache-control") == "public, max-age=60")
    }

    @Test func contentTypesFollowExtensions() throws {
        #expect(
            try site.fetch("GET", "/vod/master.m3u8").header("content-type") == "application/vnd.apple.mpegurl")
        #expect(try site.fetch("GET", "/vod/subs/en_1.vtt").header("content-type") == "text/vtt")
        #expect(try site.fetch("GET", "/vod/filter.json").header("content-type") == "application/json")
    }

    @Test func restrictedOriginIsNamedAndVaried() throws {
        let restricted = try InProcessSite(
            populate: { try $0.addVideo("a") }, configure: { $0.corsOrigin = "https://app.example" })
        let response = try restricted.fetch("GET", "/a/master.m3u8")
        #expect(response.header("access-control-allow-origin") == "https://app.example")
        #expect(response.header("vary") == "Origin")
    }

    @Test func missingFilesAndFoldersAre404() throws {
        #expect(try site.fetch("GET", "/vod/v0/seg_9.ts").status == 404)
        #expect(try site.fetch("GET", "/vod/v0").status == 404)
        #expect(try site.fetch("GET", "/nothing").status == 404)
    }
}
