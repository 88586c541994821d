import FilterzTestSupport
import Foundation
import RealClients
import Testing

@testable import Server

/// A viewer's token makes the server rewrite a playlist with it; the rewrite is kept for that token, so a
/// holder of one token cannot make the server rewrite a large playlist on every request.
@Suite struct TokenBodiesTests {
    static let signer = URLSigner(secret: "s3cret")

    /// A finished media playlist larger than what the event loops answer inline or keep as prepared answers.
    static func largePlaylist(segments: Int, marker: String = "") -> String {
        var text = "#EXTM3U\n#EXT-X-VERSION:3\n#EXT-X-TARGETDURATION:4\n\(marker)"
        for index in 0..<segments { text += "#EXTINF:4.000,\nseg_\(index).ts\n" }
        return text + "#EXT-X-ENDLIST\n"
    }

    @Test func aRewriteIsMadeOncePerTokenAndVersion() throws {
        let playlist = Self.largePlaylist(segments: 4000)
        #expect(playlist.utf8.count > Int(RequestHandler.inlinePlaylistBytes))
        let site = try InProcessSite(
            populate: { try $0.write("a/v0/index.m3u8", playlist) }, configure: { $0.tokenSecret = "s3cret" })
        let bodies = site.handler.playlists.tokenBodies
        let now = site.secondsSinceEpoch
        let token = Self.signer.token(videoID: "a", expiresAt: now + 600)
        let first = try site.fetch("GET", "/a/v0/index.m3u8?token=\(token)")
        #expect(first.status == 200 && first.bodyText.contains("seg_3999.ts?token=\(token)\n"))
        #expect(bodies.madeCount == 1)
        for _ in 0..<3 {
            let again = try site.fetch("GET", "/a/v0/index.m3u8?token=\(token)")
            #expect(again.body == first.body && again.header("etag") == first.header("etag"))
        }
        #expect(bodies.madeCount == 1)
        // Compressed: made once more (the gzip of the kept rewrite), then kept too.
        let gzip = ["Accept-Encoding": "gzip"]
        let zipped = try site.fetch("GET", "/a/v0/index.m3u8?token=\(token)", headers: gzip)
        #expect(zipped.header("content-encoding") == "gzip" && bodies.madeCount == 2)
        #expect(try site.fetch("GET", "/a/v0/index.m3u8?token=\(token)", headers: gzip).body == zipped.body)
        #expect(bodies.madeCount == 2)
        // Another viewer's token is another rewrite.
        let other = Self.signer.token(videoID: "a", expiresAt: now + 601)
        #expect(try site.fetch("GET", "/a/v0/index.m3u8?token=\(other)").bodyText.contains("?token=\(other)"))
        #expect(bodies.madeCount == 3)
        // A new version of the playlist is rewritten afresh, and the old version's bodies go.
        let changed = Self.largePlaylist(segments: 4000, marker: "#EXT-X-INDEPENDENT-SEGMENTS\n")
        try site.write("a/v0/index.m3u8", changed)
        let fresh = try site.fetch("GET", "/a/v0/index.m3u8?token=\(token)")
        #expect(fresh.bodyText.contains("#EXT-X-INDEPENDENT-SEGMENTS") && bodies.madeCount == 4)
        #expect(bodies.keptBytes == fresh.body.count)
    }

    @Test func keptBodiesStayWithinTheirBudget() throws {
        let bodies = TokenBodies()
        let stamp = FileStamp(inode: 1, size: 1, modifiedSeconds: 0, modifiedNanoseconds: 0)
        let megabyte = [UInt8](repeating: 0x41, count: 1 << 20)
        for index in 0..<(TokenBodies.maximumBytes >> 20) + 40 {
            let key = TokenBodies.Key(path: "p\(index % 7)", stamp: stamp, token: "t\(index)", form: "")
            _ = bodies.body(key) { megabyte }
            #expect(bodies.keptBytes <= TokenBodies.maximumBytes)
        }
        #expect(bodies.keptBytes > TokenBodies.maximumBytes / 2)
        // Small bodies: at most `maximumCount` of them.
        for index in 0..<TokenBodies.maximumCount + 10 {
            let key = TokenBodies.Key(path: "q", stamp: stamp, token: "u\(index)", form: "")
            _ = bodies.body(key) { [1] }
        }
        #expect(bodies.keptBytes <= TokenBodies.maximumBytes && bodies.keptCount == TokenBodies.maximumCount)
        // A body past a quarter of the budget is made every time, never kept.
        let huge = TokenBodies.Key(path: "h", stamp: stamp, token: "t", form: "")
        let made = bodies.madeCount
        _ = bodies.body(huge) { [UInt8](repeating: 0, count: TokenBodies.maximumBytes / 4 + 1) }
        _ = bodies.body(huge) { [UInt8](repeating: 0, count: TokenBodies.maximumBytes / 4 + 1) }
        #expect(bodies.madeCount == made + 2)
    }
}
