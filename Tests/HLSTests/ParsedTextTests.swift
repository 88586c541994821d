import Testing

@testable import HLS

/// Segment URIs kept as ranges of the input (``ParsedText``) and the out-of-line rare segment tags behave like
/// the plain `String` and array fields they replace.
@Suite struct ParsedTextTests {
    static func slice(_ bytes: [UInt8]) -> ParsedText { ParsedText(ParsedBytes(bytes), 0..<bytes.count) }

    struct Pair: Sendable, CustomTestStringConvertible {
        var testDescription: String
        var a: [UInt8]
        var b: [UInt8]
    }

    static let pairs: [Pair] = [
        Pair(testDescription: "same ASCII", a: Array("seg_1.ts".utf8), b: Array("seg_1.ts".utf8)),
        Pair(testDescription: "different ASCII", a: Array("seg_1.ts".utf8), b: Array("seg_2.ts".utf8)),
        Pair(testDescription: "prefix", a: Array("seg".utf8), b: Array("seg_2.ts".utf8)),
        Pair(testDescription: "composed and decomposed é", a: [0x63, 0xC3, 0xA9], b: [0x63, 0x65, 0xCC, 0x81]),
        Pair(testDescription: "two invalid bytes (both repaired to U+FFFD)", a: [0x61, 0xFF], b: [0x61, 0xFE]),
        Pair(testDescription: "non-ASCII that differs", a: Array("café".utf8), b: Array("cafè".utf8)),
    ]

    @Test(arguments: pairs)
    func equalityAndHashingAreThoseOfTheDecodedStrings(_ pair: Pair) {
        let a = String(decoding: pair.a, as: UTF8.self)
        let b = String(decoding: pair.b, as: UTF8.self)
        for (x, y) in [
            (Self.slice(pair.a), Self.slice(pair.b)), (Self.slice(pair.a), ParsedText(b)),
            (ParsedText(a), Self.slice(pair.b)),
        ] {
            #expect((x == y) == (a == b))
            #expect(x.string == a && y.string == b)
            if a == b { #expect(x.hashValue == y.hashValue) }
        }
    }

    @Test func aParsedSegmentEqualsAndHashesLikeTheSameSegmentBuiltInCode() throws {
        let text = "#EXTM3U\n#EXT-X-TARGETDURATION:6\n#EXTINF:6,\nvidéo/seg_1.ts\n#EXTINF:6,\n\u{FEFF}b.ts\n"
        let playlist = try #require(HLS.parse(text).mediaPlaylist)
        let built = [Segment(uri: "vidéo/seg_1.ts", duration: 6), Segment(uri: "\u{FEFF}b.ts", duration: 6)]
        #expect(playlist.segments == built)
        #expect(playlist.segments.map(\.hashValue) == built.map(\.hashValue))
        #expect(Set(playlist.segments + built).count == 2)
    }

    @Test func rareTagsKeepValueSemanticsAndAnEmptyValueEqualsNone() {
        var a = Segment(uri: "a.ts", duration: 6)
        a.keys.append(Key(method: .aes128, uri: "k"))
        var b = a
        b.keys.append(Key(method: .none))
        b.map = Map(uri: "init.mp4")
        #expect(a.keys.count == 1 && a.map == nil)
        #expect(b.keys.count == 2 && b.map?.uri == "init.mp4")
        b.keys = []
        b.map = nil
        #expect(b == Segment(uri: "a.ts", duration: 6))
        #expect(b.hashValue == Segment(uri: "a.ts", duration: 6).hashValue)
        #expect(a != b)
    }
}
