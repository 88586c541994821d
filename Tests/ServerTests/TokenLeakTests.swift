import FilterzTestSupport
import Foundation
import RealClients
import Testing

@testable import Server

/// Which playlist URIs get the viewer's token: only those a browser resolves back into the same video on this
/// server. Node's WHATWG `URL` is the judge (it resolves exactly as Chromium and hls.js do).
@Suite struct TokenLeakTests {
    static let base = "http://origin.test/v1/videos/a/v0/index.m3u8"
    static let directory = ["v1", "videos", "a", "v0"]
    static let root = ["v1", "videos", "a"]

    /// Resolved the ordinary way: they stay, and are signed.
    static let staying = [
        "seg_0.ts", "./seg_0.ts", "%2e/seg_0.ts", "../v1/index.m3u8", "/v1/videos/a/v0/seg_0.ts", "sub/dir/x.ts",
        "seg%200.ts", "?x=1", "seg_0.ts#t=1", "/v1//videos/a/x.ts", "..\\v1\\index.m3u8",
    ]

    /// Read another way by a browser than by a naive check: they leave the video or the host, and are not signed.
    static let leaving = [
        "\\\\evil.example\\a.m3u8", "/\\evil.example/a.m3u8", "\\/evil.example/a.m3u8", "\t//evil.example/a.m3u8",
        "\u{1}//evil.example/a.m3u8", " //evil.example/a.m3u8", "/\t/evil.example/a.m3u8", "/\n/evil.example/a.m3u8",
        "//evil.example/a.m3u8", "http://evil.example/a.m3u8", "HTTP:/evil.example/a.m3u8", "https:evil.example/a",
        "../../b/master.m3u8", "/v1/videos/b/master.m3u8", "%2e%2e/%2e%2e/b/x.ts", ".%2E/..\\b/x.ts", "/a/v0/seg_0.ts",
        "../..", "javascript:alert(1)", "data:text/plain,x", "http://origin.test/v1/videos/a/v0/seg_0.ts",
    ]

    static let judge = #"""
        const [base, rootText, casesText] = process.argv.slice(1);
        const root = JSON.parse(rootText), cases = JSON.parse(casesText), origin = new URL(base).origin;
        console.log(JSON.stringify(cases.map(uri => {
          let url;
          try { url = new URL(uri, base); } catch { return false; }
          if (url.origin !== origin) return false;
          let segments;
          try { segments = url.pathname.split("/").filter(s => s.length > 0).map(decodeURIComponent); } catch { return false; }
          return segments.length > root.length && root.every((s, i) => segments[i] === s);
        })));
        """#

    @Test(.enabled(if: ExternalTool.isInstalled("node")))
    func onlyURIsThatStayInTheVideoGetTheToken() throws {
        let cases = Self.staying + Self.leaving
        let casesJSON = String(decoding: try JSONSerialization.data(withJSONObject: cases), as: UTF8.self)
        let rootJSON = String(decoding: try JSONSerialization.data(withJSONObject: Self.root), as: UTF8.self)
        let result = try ExternalTool.run(
            "node", ["-e", Self.judge, Self.base, rootJSON, casesJSON], timeoutSeconds: 30)
        #expect(result.exitCode == 0, "\(result.stderr)")
        let verdicts = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [Bool])
        #expect(verdicts.count == cases.count)
        for (uri, browserStays) in zip(cases, verdicts) {
            let ours = SameVideoReference.staysWithin(uri, directory: Self.directory, root: Self.root)
            // Never a token where the browser would carry it elsewhere.
            if ours { #expect(browserStays, "\(uri.debugDescription) would leak the token") }
        }
        for (uri, browserStays) in zip(cases, verdicts).prefix(Self.staying.count) {
            #expect(browserStays, "the judge disagrees that \(uri.debugDescription) stays")
            #expect(
                SameVideoReference.staysWithin(uri, directory: Self.directory, root: Self.root),
                "\(uri.debugDescription)")
        }
        for (uri, browserStays) in zip(cases, verdicts).dropFirst(Self.staying.count) {
            #expect(
                !browserStays || uri.hasPrefix("http://origin.test"), "the judge says \(uri.debugDescription) stays")
            #expect(
                !SameVideoReference.staysWithin(uri, directory: Self.directory, root: Self.root),
                "\(uri.debugDescription)")
        }
    }

    @Test func aServedPlaylistSignsOnlyTheURIsThatStay() throws {
        let site = try InProcessSite(
            populate: { site in
                try site.addVideo("a")
                try site.write(
                    "a/v0/tricky.m3u8",
                    "#EXTM3U\n#EXT-X-TARGETDURATION:4\n#EXTINF:4,\nseg_0.ts\n#EXTINF:4,\n/\\evil.example/x.ts\n#EXTINF:4,\n../../b/x.ts\n#EXT-X-ENDLIST\n"
                )
            }, configure: { $0.tokenSecret = "s" })
        let token = URLSigner(secret: "s").token(videoID: "a", expiresAt: site.secondsSinceEpoch + 60)
        let body = try site.fetch("GET", "/v1/videos/a/v0/tricky.m3u8?token=\(token)").bodyText
        #expect(body.contains("\nseg_0.ts?token=\(token)\n"))
        #expect(body.contains("\n/\\evil.example/x.ts\n"))
        #expect(body.contains("\n../../b/x.ts\n"))
    }

    /// A variable the player substitutes from elsewhere (IMPORT, QUERYPARAM) may name any host, so a URI that
    /// uses one keeps no token; a variable defined in the playlist is judged by its value.
    @Test func aURIWithAVariableFromElsewhereKeepsNoToken() throws {
        let site = try InProcessSite(
            populate: { site in
                try site.addVideo("a")
                try site.write(
                    "a/v0/variables.m3u8",
                    """
                    #EXTM3U
                    #EXT-X-VERSION:11
                    #EXT-X-TARGETDURATION:4
                    #EXT-X-DEFINE:QUERYPARAM="cdn"
                    #EXT-X-DEFINE:NAME="away",VALUE="//evil.example"
                    #EXT-X-DEFINE:NAME="here",VALUE="seg"
                    #EXTINF:4,
                    {$cdn}/seg_0.ts
                    #EXTINF:4,
                    {$away}/seg_1.ts
                    #EXTINF:4,
                    {$here}_2.ts
                    #EXT-X-ENDLIST

                    """)
            }, configure: { $0.tokenSecret = "s" })
        let token = URLSigner(secret: "s").token(videoID: "a", expiresAt: site.secondsSinceEpoch + 60)
        let body = try site.fetch("GET", "/v1/videos/a/v0/variables.m3u8?cdn=x&token=\(token)").bodyText
        #expect(body.contains("\n{$cdn}/seg_0.ts\n"), "\(body)")
        #expect(!body.contains("seg_1.ts?token"), "\(body)")
        #expect(body.contains("seg_2.ts?token=\(token)\n"), "\(body)")
    }
}
