import JSON
import Testing

@testable import HLS

/// Issue 31: a number that fails the grammar became 0 in the model, so `#EXTINF: 11.320,` counted as 0 s in
/// every total and `EXT-X-TARGETDURATION:0.5` as 0. The error is still reported; the value is read leniently
/// (``LenientValue``) and listed in `ParseInfo.lenientValues` and the facts' `lenient`.
@Suite struct LenientNumberTests {
    static func lenient(_ text: String) -> [LenientValue] {
        HLS.parse(text).playlist?.parseInfo?.lenientValues ?? []
    }

    @Test func anEXTINFWithASpaceIsAnErrorAndStillCountsInTheTotal() throws {
        let text = """
            #EXTM3U
            #EXT-X-VERSION:3
            #EXT-X-TARGETDURATION:12
            #EXTINF:10.000,
            a.ts
            #EXTINF: 11.320,
            b.ts
            #EXTINF:9.5 ,
            c.ts
            #EXT-X-ENDLIST

            """
        let result = parseAndValidate(Array(text.utf8))
        let media = try #require(result.playlist?.media)
        #expect(media.segments.map(\.duration) == [10, 11.32, 9.5])
        #expect(abs(media.statistics.totalSeconds - 30.82) < 1e-9)
        #expect(result.errors.map(\.code) == [.invalidFloat, .invalidFloat])
        #expect(result.errors.map(\.location.line) == [6, 8])
        #expect(
            Self.lenient(text) == [
                LenientValue(
                    location: SourceLocation(line: 6, column: 9), tag: .extinf, written: " 11.320",
                    value: .decimal(11.32), segmentIndex: 1),
                LenientValue(
                    location: SourceLocation(line: 8, column: 9), tag: .extinf, written: "9.5 ", value: .decimal(9.5),
                    segmentIndex: 2),
            ])
    }

    @Test func aDecimalTargetDurationIsRoundedUpSoTheDurationRuleStillHolds() throws {
        let text = "#EXTM3U\n#EXT-X-VERSION:3\n#EXT-X-TARGETDURATION:0.5\n#EXTINF:0.5,\na.ts\n#EXT-X-ENDLIST\n"
        let result = parseAndValidate(Array(text.utf8))
        #expect(result.playlist?.media?.targetDuration == 1)
        #expect(result.errors.map(\.code) == [.invalidDecimalInteger])
        #expect(Self.lenient(text).map(\.value) == [.integer(1)])
        #expect(Self.lenient(text).first?.segmentIndex == nil)
    }

    @Test(arguments: [
        ("BANDWIDTH=1280000.7", 1_280_000, LenientValue.Number.integer(1_280_000)),
        ("BANDWIDTH=800000bps", 800_000, .integer(800_000)),
        ("BANDWIDTH=5e6", 5, .integer(5)),
    ])
    func aDecimalIntegerAttributeIsCutToItsWholePartAsParseIntDoes(
        attribute: String, bandwidth: Int, read: LenientValue.Number
    ) throws {
        let text = "#EXTM3U\n#EXT-X-STREAM-INF:\(attribute)\nv.m3u8\n"
        let result = HLS.parse(text)
        #expect(result.multivariantPlaylist?.variants.first?.bandwidth == bandwidth)
        #expect(!result.errors.isEmpty)
        let value = try #require(Self.lenient(text).first)
        #expect(value.tag == .streamInf && value.attribute == "BANDWIDTH" && value.value == read)
    }

    @Test func nothingReadableKeepsTheDefaultAndIsListedWithoutAValue() throws {
        let text = "#EXTM3U\n#EXT-X-TARGETDURATION:4\n#EXTINF:abc,\na.ts\n#EXT-X-PART-INF:PART-TARGET=-0.5\n"
        let result = HLS.parse(text)
        #expect(result.mediaPlaylist?.segments.first?.duration == 0)
        #expect(result.mediaPlaylist?.partInf?.partTarget == -0.5)
        let values = Self.lenient(text)
        #expect(values.map(\.value) == [nil, .decimal(-0.5)])
        #expect(values.map(\.attribute) == [nil, "PART-TARGET"])
    }

    @Test func numbersTheGrammarAcceptsAreNotListed() {
        let text = """
            #EXTM3U
            #EXT-X-TARGETDURATION:6
            #EXT-X-MEDIA-SEQUENCE:7
            #EXT-X-START:TIME-OFFSET=-12.5
            #EXT-X-BITRATE:800
            #EXTINF:5.005,
            a.ts

            """
        #expect(Self.lenient(text).isEmpty)
        #expect(HLS.parse(text).errors.isEmpty)
    }

    @Test func theFactsListEachLenientValueAndUseItInTheSegments() throws {
        let text = "#EXTM3U\n#EXT-X-TARGETDURATION:12\n#EXTINF: 11.320,\na.ts\n#EXT-X-ENDLIST\n"
        let result = parseAndValidate(Array(text.utf8))
        let facts = try #require(result.playlist).facts(diagnostics: result.diagnostics)
        guard case .array(let segments)? = facts["segments"], case .array(let lenient)? = facts["lenient"] else {
            Issue.record("no segments or lenient list")
            return
        }
        #expect(segments.first?["duration"] == .number(11.32))
        #expect(
            lenient == [
                .object([
                    ("line", .integer(3)), ("column", .integer(9)), ("tag", .string("EXTINF")), ("attribute", .null),
                    ("written", .string(" 11.320")), ("read", .number(11.32)), ("segment", .integer(0)),
                ])
            ])
    }
}
