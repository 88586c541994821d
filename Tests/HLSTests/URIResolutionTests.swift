import Notation
import Testing

@testable import HLS

@Suite struct URIResolutionTests {
    struct Case: Sendable, CustomTestStringConvertible {
        var reference: String
        var expected: String
        var testDescription: String { "\(reference) → \(expected)" }
        init(_ reference: String, _ expected: String) {
            self.reference = reference
            self.expected = expected
        }
    }

    /// RFC 3986 §5.4.1 normal examples, base `http://a/b/c/d;p?q`.
    static let normalExamples: [Case] = [
        Case("g:h", "g:h"), Case("g", "http://a/b/c/g"), Case("./g", "http://a/b/c/g"),
        Case("g/", "http://a/b/c/g/"), Case("/g", "http://a/g"), Case("//g", "http://g"),
        Case("?y", "http://a/b/c/d;p?y"), Case("g?y", "http://a/b/c/g?y"), Case("#s", "http://a/b/c/d;p?q#s"),
        Case("g#s", "http://a/b/c/g#s"), Case("g?y#s", "http://a/b/c/g?y#s"), Case(";x", "http://a/b/c/;x"),
        Case("g;x", "http://a/b/c/g;x"), Case("g;x?y#s", "http://a/b/c/g;x?y#s"), Case("", "http://a/b/c/d;p?q"),
        Case(".", "http://a/b/c/"), Case("./", "http://a/b/c/"), Case("..", "http://a/b/"),
        Case("../", "http://a/b/"), Case("../g", "http://a/b/g"), Case("../..", "http://a/"),
        Case("../../", "http://a/"), Case("../../g", "http://a/g"),
    ]

    /// RFC 3986 §5.4.2 abnormal examples (strict parser: `http:g` is absolute).
    static let abnormalExamples: [Case] = [
        Case("../../../g", "http://a/g"), Case("../../../../g", "http://a/g"), Case("/./g", "http://a/g"),
        Case("/../g", "http://a/g"), Case("g.", "http://a/b/c/g."), Case(".g", "http://a/b/c/.g"),
        Case("g..", "http://a/b/c/g.."), Case("..g", "http://a/b/c/..g"), Case("./../g", "http://a/b/g"),
        Case("./g/.", "http://a/b/c/g/"), Case("g/./h", "http://a/b/c/g/h"), Case("g/../h", "http://a/b/c/h"),
        Case("g;x=1/./y", "http://a/b/c/g;x=1/y"), Case("g;x=1/../y", "http://a/b/c/y"),
        Case("g?y/./x", "http://a/b/c/g?y/./x"), Case("g?y/../x", "http://a/b/c/g?y/../x"),
        Case("g#s/./x", "http://a/b/c/g#s/./x"), Case("g#s/../x", "http://a/b/c/g#s/../x"), Case("http:g", "http:g"),
    ]

    @Test(arguments: normalExamples + abnormalExamples)
    func rfc3986ExamplesResolveAsTheRFCSays(_ example: Case) {
        let resolved = URIReference(example.reference).resolved(against: URIReference("http://a/b/c/d;p?q"))
        #expect(resolved.description == example.expected)
    }

    static let playlistCases: [Case] = [
        // The example: the reference's own query wins (here it is the same token).
        Case("720/index.m3u8?token=abc", "https://cdn.example.com/videos/720/index.m3u8?token=abc"),
        // A reference without a query inherits the playlist's token (signed CDN).
        Case("720/index.m3u8", "https://cdn.example.com/videos/720/index.m3u8?token=abc"),
        // A reference with another query keeps its own.
        Case("720/index.m3u8?token=xyz", "https://cdn.example.com/videos/720/index.m3u8?token=xyz"),
        Case("../audio/en.m3u8", "https://cdn.example.com/audio/en.m3u8?token=abc"),
        Case("/root.m3u8", "https://cdn.example.com/root.m3u8?token=abc"),
        // Another origin never receives the token.
        Case("https://other.example.net/x.m3u8", "https://other.example.net/x.m3u8"),
        Case("//other.example.net/x.m3u8", "https://other.example.net/x.m3u8"),
        // Same origin written absolutely does get it.
        Case("https://cdn.example.com/y.m3u8", "https://cdn.example.com/y.m3u8?token=abc"),
    ]

    @Test(arguments: playlistCases)
    func playlistReferencesCarryTheTokenOnlyToTheSameOriginWhenTheyHaveNone(_ example: Case) {
        let base = "https://cdn.example.com/videos/master.m3u8?token=abc"
        #expect(URIReference.resolve(example.reference, against: base) == example.expected)
    }

    @Test func strictResolutionDropsTheBaseQueryForAReferenceWithAPath() {
        let base = "https://cdn.example.com/videos/master.m3u8?token=abc"
        #expect(
            URIReference.resolve("720/index.m3u8", against: base, queryInheritance: .rfc3986)
                == "https://cdn.example.com/videos/720/index.m3u8")
    }

    static let fileCases: [(base: String, reference: String, expected: String)] = [
        ("/srv/hls/master.m3u8", "v0/index.m3u8", "/srv/hls/v0/index.m3u8"),
        ("/srv/hls/master.m3u8", "../other/a.m3u8", "/srv/other/a.m3u8"),
        ("/srv/hls/master.m3u8", "/abs/a.m3u8", "/abs/a.m3u8"),
        ("/srv/hls/master.m3u8", "https://cdn/a.m3u8", "https://cdn/a.m3u8"),
        ("playlists/master.m3u8", "subs/ko.m3u8", "playlists/subs/ko.m3u8"),
        ("master.m3u8", "v0/index.m3u8", "v0/index.m3u8"),
        ("playlists/master.m3u8", "../../x.m3u8", "../x.m3u8"),
        ("./master.m3u8", "./v0/./a/../index.m3u8", "v0/index.m3u8"),
    ]

    @Test(arguments: fileCases)
    func filePathsResolveAgainstThePlaylistsFolder(_ example: (base: String, reference: String, expected: String)) {
        #expect(URIReference.resolve(example.reference, against: example.base) == example.expected)
    }

    @Test func componentsKeepAnEmptyQueryApartFromAMissingOne() {
        #expect(URIReference("a?").query == "")
        #expect(URIReference("a").query == nil)
        let url = URIReference("https://user@h:8080/p/q.m3u8?x=1#f")
        #expect(url.scheme == "https")
        #expect(url.authority == "user@h:8080")
        #expect(url.path == "/p/q.m3u8")
        #expect(url.query == "x=1")
        #expect(url.fragment == "f")
        #expect(URIReference("seg/1:2.ts").scheme == nil)
    }
}

@Suite struct PercentDecodingTests {
    @Test(arguments: [
        ("a%20b", "a b"), ("c%2Fd", "c/d"), ("%41%62", "Ab"), ("caf%C3%A9", "café"), ("a+b", "a+b"), ("", ""),
        ("plain/path.m3u8", "plain/path.m3u8"),
    ])
    func escapesBecomeTheirBytes(text: String, decoded: String) {
        #expect(PercentEncoding.percentDecoded(text) == decoded)
    }

    @Test(arguments: ["100%", "%4", "%G1", "%+1", "a%2", "%C3"])
    func aMalformedEscapeOrBytesThatAreNotUTF8GiveNil(text: String) {
        #expect(PercentEncoding.percentDecoded(text) == nil)
    }

    /// A form-encoded component: a server refuses what a player keeps (URLSearchParams keeps a malformed
    /// escape as written and reads bad UTF-8 as U+FFFD).
    @Test(
        arguments: [
            ("a+b%21", "a b!", "a b!"), ("%2B", "+", "+"), ("100%", nil, "100%"), ("%G1x", nil, "%G1x"),
            ("a%2", nil, "a%2"), ("%C3", nil, "\u{FFFD}"), ("", "", ""),
        ] as [(String, String?, String)])
    func formDecodingRefusesOrKeepsWhatIsMalformed(text: String, refused: String?, kept: String) {
        #expect(PercentEncoding.formDecoded(text.utf8, malformed: .refuse) == refused)
        #expect(PercentEncoding.formDecoded(text.utf8, malformed: .keep) == kept)
    }
}
