import FilterzTestSupport
import Foundation
import RealClients
import Testing

@testable import Server

/// The prepared-answer path (`PreparedAnswers`) against the reference path that builds every answer afresh:
/// the same status, headers (but Date) and body, before and after the files change.
@Suite struct PreparedAnswersTests {
    let site: TestSite
    /// The same folder served with `reusesAnswers` off: every answer made from scratch.
    let reference: HTTPServer

    init() throws {
        site = try TestSite { site in
            try site.addVideo("a")
            try site.addVideo("live", live: true, targetDuration: 6)
        }
        var configuration = site.server.configuration
        configuration.reusesAnswers = false
        reference = try HTTPServer(configuration: configuration)
    }

    static let targets = [
        "/a/master.m3u8", "/v1/videos/a/master.m3u8", "/a/v0/index.m3u8", "/live/v1/index.m3u8", "/a/v0/seg_1.ts",
        "/a/subs/ko_0.vtt", "/a/poster.jpg", "/a/filter.json", "/a/missing.m3u8", "/a/master.m3u8?x=1",
    ]

    func expectSameAnswers(_ note: String) throws {
        for target in Self.targets {
            for method in ["GET", "HEAD", "GET"] {
                let fresh = try fetch(reference.port, method, target)
                let reused = try fetch(site.port, method, target)
                #expect(reused.status == fresh.status, "\(note) \(method) \(target)")
                #expect(reused.body == fresh.body, "\(note) \(method) \(target)")
                var freshHeaders = fresh.headers, reusedHeaders = reused.headers
                freshHeaders["date"] = nil
                reusedHeaders["date"] = nil
                #expect(reusedHeaders == freshHeaders, "\(note) \(method) \(target)")
            }
        }
    }

    @Test func reusedAnswersAreTheOnesMadeAfresh() throws {
        try expectSameAnswers("first")
        try expectSameAnswers("again")
    }

    @Test func aPlaylistRewrittenInPlaceOrRenamedIntoPlaceIsNeverAnsweredFromTheOldVersion() throws {
        let path = "live/v1/index.m3u8"
        let original = try String(contentsOf: site.root.appendingPathComponent(path), encoding: .utf8)
        _ = try fetch(site.port, "GET", "/" + path)  // prepared
        // Same size, new content, in place (same inode): only the modification time tells.
        let sameSize = original.replacingOccurrences(of: "seg_2.ts", with: "seg_9.ts")
        try sameSize.write(to: site.root.appendingPathComponent(path), atomically: false, encoding: .utf8)
        #expect(try fetch(site.port, "GET", "/" + path).bodyText == sameSize)
        try expectSameAnswers("in place")
        // The recording ends: written beside and renamed into place.
        let ended = sameSize + "#EXT-X-ENDLIST\n"
        try ended.write(to: site.root.appendingPathComponent(path), atomically: true, encoding: .utf8)
        let response = try fetch(site.port, "GET", "/" + path)
        #expect(response.bodyText == ended)
        #expect(response.header("cache-control") == CachePolicy.finishedPlaylist)
        try expectSameAnswers("renamed")
        // Gone: 404, not the last answer.
        try FileManager.default.removeItem(at: site.root.appendingPathComponent(path))
        #expect(try fetch(site.port, "GET", "/" + path).status == 404)
    }

    @Test func conditionalAndRangeRequestsTakeTheFullRoute() throws {
        _ = try fetch(site.port, "GET", "/a/master.m3u8")
        let whole = try fetch(site.port, "GET", "/a/master.m3u8")
        let tag = try #require(whole.header("etag"))
        #expect(try fetch(site.port, "GET", "/a/master.m3u8", headers: ["If-None-Match": tag]).status == 304)
        let part = try fetch(site.port, "GET", "/a/master.m3u8", headers: ["Range": "bytes=0-6"])
        #expect(part.status == 206)
        #expect(part.bodyText == "#EXTM3U")
    }

    @Test func aSignedAnswerHoldsOnlyWhileItsTokenIsValidAndItsFileUnchanged() throws {
        let signed = try TestSite(populate: { try $0.addVideo("a") }, configure: { $0.tokenSecret = "s3cret" })
        let handler = signed.server.handler
        let now = Int64(Date().timeIntervalSince1970)
        let token = URLSigner(secret: "s3cret").token(videoID: "a", expiresAt: now + 60)
        let response = handler.respond(
            to: HTTPRequest(method: "GET", target: "/a/v0/index.m3u8?token=\(token)"), now: now)
        #expect(response.status == 200)
        let version = try #require(response.servedFile)
        #expect(handler.stillHolds(version, now: now))
        #expect(!handler.stillHolds(version, now: now + 61))
        var otherVideo = version
        otherVideo.videoID = "b"
        #expect(!handler.stillHolds(otherVideo, now: now))
        try signed.write("a/v0/index.m3u8", "#EXTM3U\n#EXT-X-TARGETDURATION:4\n#EXT-X-ENDLIST\n")
        #expect(!handler.stillHolds(version, now: now))
    }

    @Test func onlyWholeAnswersOfFilesCanBeReused() throws {
        let handler = site.server.handler
        #expect(handler.respond(to: HTTPRequest(method: "GET", target: "/a/v0/seg_0.ts"), now: 0).servedFile != nil)
        for (target, headers) in [
            ("/a/v0/seg_0.ts", ["range": "bytes=0-1"]), ("/", [:]), ("/v1/videos", [:]), ("/a/missing.ts", [:]),
        ] {
            #expect(
                handler.respond(to: HTTPRequest(method: "GET", target: target, headers: headers), now: 0).servedFile
                    == nil)
        }
        #expect(!HTTPRequest(method: "GET", rawPath: "/a", headers: ["if-modified-since": "x"]).canReuseAnswer)
        #expect(HTTPRequest(method: "GET", target: "/a?token=1.ab").canReuseAnswer)
        #expect(!HTTPRequest(method: "GET", target: "/a?x=1").canReuseAnswer)
        #expect(!HTTPRequest(method: "GET", target: "/a?token=1.ab&x=1").canReuseAnswer)
        #expect(HTTPRequest(method: "HEAD", rawPath: "/a", headers: ["origin": "https://x"]).canReuseAnswer)
    }

    @Test func theStoreStaysWithinItsCountAndByteBudget() throws {
        let handler = site.server.handler
        let answers = PreparedAnswers()
        let response = handler.respond(to: HTTPRequest(method: "GET", target: "/a/v0/seg_0.ts"), now: 0)
        var largest = 0
        for index in 0..<(PreparedAnswers.capacity + 10) {
            #expect(answers.prepare(response, for: "/a/v0/seg_0.ts?n=\(index)") != nil)
            largest = max(largest, answers.size.answers)
            #expect(answers.size.bodyBytes == Int64(answers.size.answers * 2000))
        }
        #expect(largest == PreparedAnswers.capacity)
        #expect(answers.size.answers == 10)
        // Making the same target again replaces its entry: the byte count does not grow.
        _ = answers.prepare(response, for: "/a/v0/seg_0.ts?n=0")
        _ = answers.prepare(response, for: "/a/v0/seg_0.ts?n=0")
        #expect(answers.size.bodyBytes == Int64(answers.size.answers * 2000))
    }
}
