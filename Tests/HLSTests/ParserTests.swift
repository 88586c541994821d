import Testing

@testable import HLS

/// Inline manifests: how the parser reads bytes, lines and attribute lists, and what it reports where.
@Suite struct ParserTests {
    static let simple =
        "#EXTM3U\n#EXT-X-VERSION:3\n#EXT-X-TARGETDURATION:10\n#EXTINF:9.009,\nfirst.ts\n#EXTINF:3.003,\nsecond.ts\n#EXT-X-ENDLIST\n"

    func media(_ text: String, _ options: ParseOptions = ParseOptions()) -> (MediaPlaylist?, [Diagnostic]) {
        let result = HLS.parse(text, options: options)
        return (result.mediaPlaylist, result.diagnostics)
    }

    func multivariant(_ text: String) -> (MultivariantPlaylist?, [Diagnostic]) {
        let result = HLS.parse(text)
        return (result.multivariantPlaylist, result.diagnostics)
    }

    func codes(_ diagnostics: [Diagnostic]) -> [String] { diagnostics.map(\.code.rawValue) }

    // MARK: - Lines

    @Test func lfAndCrlfLineEndingsGiveTheSamePlaylist() {
        let (lf, lfProblems) = media(Self.simple)
        let (crlf, crlfProblems) = media(Self.simple.replacingOccurrences(of: "\n", with: "\r\n"))
        #expect(lf != nil && lf == crlf)
        #expect(lfProblems.isEmpty && crlfProblems.isEmpty)
        #expect(crlf?.parseInfo?.usesCRLF == true)
        #expect(lf?.segments.map(\.uri) == ["first.ts", "second.ts"])
    }

    @Test func aMissingFinalNewlineIsAccepted() {
        let (playlist, problems) = media("#EXTM3U\n#EXT-X-TARGETDURATION:10\n#EXTINF:10,\nlast.ts")
        #expect(playlist?.segments.last?.uri == "last.ts")
        #expect(problems.isEmpty)
    }

    @Test func blankLinesAreIgnored() {
        let (playlist, problems) = media("#EXTM3U\n\n#EXT-X-TARGETDURATION:10\n\n#EXTINF:10,\n\na.ts\n\n")
        #expect(playlist?.segments.map(\.uri) == ["a.ts"])
        #expect(problems.isEmpty)
    }

    @Test func aByteOrderMarkIsAnErrorButTheRestIsParsed() {
        let bytes: [UInt8] = [0xEF, 0xBB, 0xBF] + Array(Self.simple.utf8)
        let result = HLS.parse(bytes)
        #expect(codes(result.diagnostics) == ["playlist.byte-order-mark"])
        #expect(result.mediaPlaylist?.segments.count == 2)
        #expect(result.playlist?.parseInfo?.startsWithEXTM3U == true)
        #expect(result.playlist?.parseInfo?.tagOccurrences.first?.location == SourceLocation(line: 1, column: 4))
    }

    @Test func aStrictParseStopsAtTheFirstErrorAndReturnsNoPlaylist() {
        let text = "#EXTM3U\n#EXT-X-TARGETDURATION:-1\n#EXTINF:abc,\na.ts\n"
        let lenient = HLS.parse(text)
        #expect(lenient.playlist != nil)
        #expect(lenient.errors.count == 2)
        let strict = HLS.parse(text, options: ParseOptions(strict: true))
        #expect(strict.playlist == nil)
        #expect(codes(strict.diagnostics) == ["value.negative-decimal-integer"])
    }

    @Test func aMissingExtm3uIsReportedAtLineOne() {
        let (_, problems) = media("#EXT-X-TARGETDURATION:10\n#EXTINF:10,\na.ts\n")
        #expect(problems.map(\.code) == [.extm3uMissing])
        #expect(problems.first?.location == SourceLocation(line: 1, column: 1))
    }

    @Test func anExtm3uAfterABlankFirstLineIsNotFirst() {
        let (_, problems) = media("\n#EXTM3U\n#EXT-X-TARGETDURATION:10\n")
        #expect(problems.map(\.code) == [.extm3uNotFirst])
        #expect(problems.first?.location.line == 2)
    }

    @Test func aTabInATitleIsAControlCharacterWithItsColumn() {
        let (playlist, problems) = media("#EXTM3U\n#EXT-X-TARGETDURATION:10\n#EXTINF:10,\tTitle\na.ts\n")
        #expect(problems.map(\.code) == [.controlCharacter])
        #expect(problems.first?.location == SourceLocation(line: 3, column: 12))
        #expect(playlist?.segments.first?.title == "\tTitle")
    }

    @Test func whitespaceAroundAURIIsReportedAndTrimmed() {
        let (playlist, problems) = media("#EXTM3U\n#EXT-X-TARGETDURATION:10\n#EXTINF:10,\n  a.ts \n")
        #expect(problems.map(\.code) == [.lineWhitespace])
        #expect(playlist?.segments.first?.uri == "a.ts")
    }

    @Test func aURILineWithoutExtinfIsReportedAndDropped() {
        let (playlist, problems) = media("#EXTM3U\n#EXT-X-TARGETDURATION:10\nJUNK\n#EXTINF:10,\na.ts\n")
        #expect(problems.map(\.code) == [.uriWithoutTag])
        #expect(problems.first?.location == SourceLocation(line: 3, column: 1))
        #expect(playlist?.segments.map(\.uri) == ["a.ts"])
    }

    @Test func anExtinfWithoutAURIBecomesTheIncompleteSegment() {
        let (playlist, problems) = media("#EXTM3U\n#EXT-X-TARGETDURATION:10\n#EXTINF:10,\n")
        #expect(problems.map(\.code) == [.extinfWithoutURI])
        #expect(playlist?.segments.isEmpty == true)
        #expect(playlist?.incompleteSegment?.duration == 10)
    }

    @Test func aStreamInfWithoutURILineIsReported() {
        let (playlist, problems) = multivariant(
            "#EXTM3U\n#EXT-X-STREAM-INF:BANDWIDTH=1\n#EXT-X-STREAM-INF:BANDWIDTH=2\nb.m3u8\n")
        #expect(problems.map(\.code) == [.streamInfWithoutURI])
        #expect(problems.first?.location.line == 2)
        #expect(playlist?.variants.map(\.bandwidth) == [2])
    }

    @Test func aTagOfTheOtherPlaylistKindIsKeptAsAnUnknownTag() {
        let (playlist, problems) = media(
            "#EXTM3U\n#EXT-X-TARGETDURATION:10\n#EXT-X-SESSION-KEY:METHOD=AES-128,URI=\"k\"\n#EXTINF:10,\na.ts\n")
        #expect(problems.map(\.code) == [.tagWrongPlaylistKind])
        #expect(playlist?.verbatimLines.map(\.text) == ["#EXT-X-SESSION-KEY:METHOD=AES-128,URI=\"k\""])
        #expect(playlist?.parseInfo?.tagOccurrences.contains { $0.tag == .sessionKey && $0.isMisplaced } == true)
    }

    @Test func unknownTagsAndCommentsStayWithTheSegmentTheyPrecede() {
        let (playlist, problems) = media(
            "#EXTM3U\n# header note\n#EXT-X-TARGETDURATION:10\n#EXTINF:10,\n#EXT-X-CUE-OUT:30\n# why\na.ts\n#EXT-X-FUTURE\n"
        )
        #expect(problems.isEmpty)
        #expect(playlist?.verbatimLines.map(\.content) == [.comment(" header note")])
        #expect(
            playlist?.segments.first?.verbatimLines.map(\.content) == [
                .unknownTag(name: "EXT-X-CUE-OUT", value: "30"), .comment(" why"),
            ])
        #expect(playlist?.trailingVerbatimLines.map(\.content) == [.unknownTag(name: "EXT-X-FUTURE", value: nil)])
    }

    @Test func tagOccurrencesRecordLineAndSegmentIndex() {
        let (playlist, _) = media(Self.simple)
        let occurrences = playlist?.parseInfo?.tagOccurrences.map {
            "\($0.tag.rawValue)@\($0.location.line)#\($0.segmentIndex)"
        }
        #expect(
            occurrences == [
                "EXTM3U@1#0", "EXT-X-VERSION@2#0", "EXT-X-TARGETDURATION@3#0", "EXTINF@4#0", "EXTINF@6#1",
                "EXT-X-ENDLIST@8#2",
            ])
    }

    @Test func limitsStopOverlongLinesAndTooManyLines() {
        let long = "#EXTM3U\n#EXT-X-TARGETDURATION:10\n#EXTINF:10,\n" + String(repeating: "a", count: 100) + ".ts\n"
        let (_, problems) = media(long, ParseOptions(maximumLineLength: 50))
        #expect(problems.map(\.code).contains(.lineTooLong))
        let many = "#EXTM3U\n" + String(repeating: "#X\n", count: 100)
        let (_, manyProblems) = media(many, ParseOptions(maximumLineCount: 10))
        #expect(manyProblems.map(\.code) == [.tooManyLines])
        let noisy = "#EXTM3U\n" + String(repeating: "junk\n", count: 100)
        let (_, noisyProblems) = media(noisy, ParseOptions(maximumDiagnosticCount: 5))
        #expect(noisyProblems.count == 6)
        #expect(noisyProblems.last?.code == .tooManyDiagnostics)
    }

    // MARK: - EXTINF

    @Test(
        arguments: [
            ("#EXTINF:9.009,", 9.009, nil, [String]()),
            ("#EXTINF:10,Title with a comma, end", 10, "Title with a comma, end", []),
            ("#EXTINF:0,", 0, nil, []),
            ("#EXTINF:5220", 5220, nil, ["extinf.missing-comma"]),
            ("#EXTINF:-1,", -1, nil, ["extinf.negative-duration"]),
            ("#EXTINF:NaN,", 0, nil, ["value.invalid-decimal-floating-point"]),
        ] as [(String, Double, String?, [String])])
    func extinfDurationAndTitle(line: String, duration: Double, title: String?, expected: [String]) {
        let (playlist, problems) = media("#EXTM3U\n#EXT-X-TARGETDURATION:10\n\(line)\na.ts\n")
        #expect(playlist?.segments.first?.duration == duration)
        #expect(playlist?.segments.first?.title == title)
        #expect(codes(problems) == expected)
    }

    // MARK: - Attribute lists

    @Test func quotedValuesKeepCommasAndNonASCII() {
        let (playlist, problems) = multivariant(
            """
            #EXTM3U
            #EXT-X-MEDIA:TYPE=SUBTITLES,GROUP-ID="subs",NAME="한국어",LANGUAGE="ko",CHARACTERISTICS="public.accessibility.transcribes-spoken-dialog,public.easy-to-read",URI="ko.m3u8"
            #EXT-X-STREAM-INF:BANDWIDTH=1000,CODECS="avc1.64001f,mp4a.40.2",SUBTITLES="subs"
            v.m3u8
            """)
        #expect(problems.isEmpty)
        #expect(playlist?.renditions.first?.name == "한국어")
        #expect(
            playlist?.renditions.first?.characteristics
                == "public.accessibility.transcribes-spoken-dialog,public.easy-to-read")
        #expect(playlist?.variants.first?.codecList == ["avc1.64001f", "mp4a.40.2"])
    }

    struct AttributeCase: Sendable, CustomTestStringConvertible {
        var testDescription: String
        var attributes: String
        var codes: [String]
        var column: Int?
    }

    static let attributeErrors: [AttributeCase] = [
        AttributeCase(
            testDescription: "unterminated quote", attributes: #"BANDWIDTH=1,CODECS="avc1"#,
            codes: ["attribute-list.unterminated-quote"], column: 38),
        AttributeCase(
            testDescription: "empty attribute before a comma", attributes: ",BANDWIDTH=1",
            codes: ["attribute-list.empty-attribute"], column: 19),
        AttributeCase(
            testDescription: "whitespace after a comma", attributes: "BANDWIDTH=1, AUDIO=\"a\"",
            codes: ["attribute-list.whitespace"], column: 31),
        AttributeCase(
            testDescription: "unquoted where a quoted-string is required", attributes: "BANDWIDTH=1,AUDIO=aud",
            codes: ["value.expected-quoted-string"], column: 37),
        AttributeCase(
            testDescription: "float where a decimal-integer is required", attributes: "BANDWIDTH=1280000.0",
            codes: ["value.invalid-decimal-integer"], column: 29),
        AttributeCase(
            testDescription: "negative decimal-integer", attributes: "BANDWIDTH=-5",
            codes: ["value.negative-decimal-integer"], column: 29),
        AttributeCase(
            testDescription: "huge decimal-integer", attributes: "BANDWIDTH=99999999999999999999999",
            codes: ["value.decimal-integer-overflow"], column: 29),
        AttributeCase(
            testDescription: "missing BANDWIDTH", attributes: "AVERAGE-BANDWIDTH=1",
            codes: ["stream-inf.bandwidth-missing"], column: 1),
        AttributeCase(
            testDescription: "bad resolution", attributes: "BANDWIDTH=1,RESOLUTION=1280*720",
            codes: ["value.invalid-resolution"], column: 42),
        AttributeCase(
            testDescription: "unknown enumerated value", attributes: "BANDWIDTH=1,VIDEO-RANGE=HDR",
            codes: ["value.invalid-enumerated-string"], column: 43),
        AttributeCase(
            testDescription: "duplicate attribute", attributes: "BANDWIDTH=1,BANDWIDTH=2",
            codes: ["attribute-list.duplicate-attribute"], column: 31),
        AttributeCase(
            testDescription: "lower-case attribute name", attributes: "BANDWIDTH=1,codecs=\"a\"",
            codes: ["attribute-list.invalid-name", "attribute-list.unknown-attribute"], column: 31),
        AttributeCase(
            testDescription: "attribute without value", attributes: "BANDWIDTH=1,AUDIO",
            codes: ["attribute-list.missing-equals"], column: 31),
    ]

    @Test(arguments: attributeErrors)
    func attributeListErrorsAreReportedWithTheirColumn(_ c: AttributeCase) {
        let (playlist, problems) = multivariant("#EXTM3U\n#EXT-X-STREAM-INF:\(c.attributes)\nv.m3u8\n")
        #expect(codes(problems) == c.codes)
        #expect(problems.first?.location.line == 2)
        if let column = c.column { #expect(problems.first?.location.column == column) }
        #expect(playlist?.variants.count == 1)
    }

    @Test func everyAttributeTypeIsReadIntoItsField() throws {
        let (playlist, problems) = multivariant(
            """
            #EXTM3U
            #EXT-X-VERSION:13
            #EXT-X-STREAM-INF:BANDWIDTH=1280000,AVERAGE-BANDWIDTH=1000000,SCORE=1.5,CODECS="hvc1.2.4.L123.B0",SUPPLEMENTAL-CODECS="dvh1.08.07/db4h",RESOLUTION=1920x1080,FRAME-RATE=59.940,HDCP-LEVEL=TYPE-1,ALLOWED-CPC="com.example.drm1:SMART-TV/PC",VIDEO-RANGE=PQ,REQ-VIDEO-LAYOUT="CH-STEREO",STABLE-VARIANT-ID="hdr-1080",AUDIO="aud",VIDEO="vid",SUBTITLES="sub",CLOSED-CAPTIONS="cc",PATHWAY-ID="CDN-A"
            hdr/1080.m3u8
            #EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID="aud",NAME="Atmos",LANGUAGE="en",ASSOC-LANGUAGE="en-GB",STABLE-RENDITION-ID="a1",DEFAULT=YES,AUTOSELECT=YES,FORCED=NO,BIT-DEPTH=24,SAMPLE-RATE=48000,CHANNELS="16/JOC",URI="atmos.m3u8"
            #EXT-X-MEDIA:TYPE=CLOSED-CAPTIONS,GROUP-ID="cc",NAME="CC",INSTREAM-ID="CC1"
            #EXT-X-I-FRAME-STREAM-INF:BANDWIDTH=200000,CODECS="hvc1.2.4.L123.B0",RESOLUTION=1920x1080,VIDEO-RANGE=PQ,URI="hdr/iframes.m3u8"
            #EXT-X-SESSION-KEY:METHOD=SAMPLE-AES,URI="skd://key",KEYFORMAT="com.apple.streamingkeydelivery",KEYFORMATVERSIONS="1",IV=0x0A0B0C0D0E0F10111213141516171819
            #EXT-X-SESSION-DATA:DATA-ID="com.example.title",VALUE="Title",LANGUAGE="en"
            #EXT-X-CONTENT-STEERING:SERVER-URI="https://steer.example.com/s.json",PATHWAY-ID="CDN-A"
            #EXT-X-START:TIME-OFFSET=-12.5,PRECISE=YES
            """)
        #expect(problems.isEmpty, "\(problems)")
        let p = try #require(playlist)
        let v = try #require(p.variants.first)
        #expect(v.bandwidth == 1_280_000 && v.averageBandwidth == 1_000_000 && v.score == 1.5)
        #expect(v.supplementalCodecs == "dvh1.08.07/db4h" && v.resolution == Resolution(width: 1920, height: 1080))
        #expect(v.frameRate == 59.94 && v.hdcpLevel == .type1 && v.videoRange == .pq)
        #expect(v.allowedCPC == "com.example.drm1:SMART-TV/PC" && v.requiredVideoLayout == "CH-STEREO")
        #expect(v.stableVariantID == "hdr-1080" && v.audio == "aud" && v.video == "vid" && v.subtitles == "sub")
        #expect(v.closedCaptions == .group("cc") && v.pathwayID == "CDN-A" && v.uri == "hdr/1080.m3u8")
        let a = p.renditions[0]
        #expect(a.type == .audio && a.groupID == "aud" && a.name == "Atmos" && a.language == "en")
        #expect(a.associatedLanguage == "en-GB" && a.stableRenditionID == "a1" && a.isDefault && a.autoselect)
        #expect(!a.forced && a.bitDepth == 24 && a.sampleRate == 48000 && a.channels == "16/JOC")
        #expect(p.renditions[1].instreamID == "CC1" && p.renditions[1].uri == nil)
        #expect(p.iFrameVariants.first?.uri == "hdr/iframes.m3u8")
        let key = try #require(p.sessionKeys.first)
        #expect(key.method == .sampleAES && key.keyFormat == "com.apple.streamingkeydelivery")
        #expect(key.iv?.bytes.first == 0x0A && key.iv?.bytes.count == 16)
        #expect(p.sessionData.first?.value == "Title" && p.contentSteering?.pathwayID == "CDN-A")
        #expect(p.start?.timeOffset == -12.5 && p.start?.precise == true)
    }

    @Test func lowerCaseHexIsAcceptedWithAWarning() {
        let (playlist, problems) = media(
            "#EXTM3U\n#EXT-X-TARGETDURATION:10\n#EXT-X-KEY:METHOD=AES-128,URI=\"k\",IV=0x00000000000000000000000000abcdef\n#EXTINF:10,\na.ts\n"
        )
        #expect(problems.map(\.code) == [.lowercaseHexadecimal])
        #expect(problems.first?.severity == .warning)
        #expect(playlist?.segments.first?.keys.first?.iv?.bytes.suffix(3) == [0xAB, 0xCD, 0xEF])
    }

    @Test func mediaSegmentTagsAreReadIntoTheSegment() throws {
        let (playlist, problems) = media(
            """
            #EXTM3U
            #EXT-X-VERSION:9
            #EXT-X-TARGETDURATION:4
            #EXT-X-MEDIA-SEQUENCE:7
            #EXT-X-DISCONTINUITY-SEQUENCE:2
            #EXT-X-SERVER-CONTROL:CAN-BLOCK-RELOAD=YES,CAN-SKIP-UNTIL=24.0,PART-HOLD-BACK=3.0
            #EXT-X-PART-INF:PART-TARGET=1.0
            #EXT-X-DISCONTINUITY
            #EXT-X-MAP:URI="init.mp4",BYTERANGE="720@0"
            #EXT-X-PROGRAM-DATE-TIME:2026-11-29T12:00:00.123+09:00
            #EXT-X-DATERANGE:ID="ad",CLASS="com.example",START-DATE="2026-11-29T12:00:00Z",DURATION=30.0,X-COM-EXAMPLE="v",SCTE35-OUT=0xFC30
            #EXT-X-BITRATE:1500
            #EXT-X-PART:DURATION=1.0,URI="p0.mp4",INDEPENDENT=YES
            #EXT-X-BYTERANGE:1000@720
            #EXTINF:4.0,
            main.mp4
            #EXT-X-GAP
            #EXTINF:4.0,
            gap.mp4
            #EXT-X-PART:DURATION=1.0,URI="p8.mp4",BYTERANGE="500@0"
            #EXT-X-PRELOAD-HINT:TYPE=PART,URI="p9.mp4",BYTERANGE-START=500
            #EXT-X-RENDITION-REPORT:URI="../b/index.m3u8",LAST-MSN=8,LAST-PART=0
            """)
        #expect(problems.isEmpty, "\(problems)")
        let p = try #require(playlist)
        #expect(p.mediaSequence == 7 && p.discontinuitySequence == 2 && p.partInf?.partTarget == 1)
        #expect(p.serverControl?.canBlockReload == true && p.serverControl?.canSkipUntil == 24)
        let s = p.segments[0]
        #expect(s.discontinuity && s.map?.byteRange == ByteRange(length: 720, offset: 0))
        #expect(s.programDateTime?.utcOffsetMinutes == 540 && s.programDateTime?.nanosecond == 123_000_000)
        #expect(s.programDateTime?.secondsSince1970 == 1_795_921_200.123)
        #expect(s.dateRanges.first?.duration == 30 && s.dateRanges.first?.scte35Out?.bytes == [0xFC, 0x30])
        #expect(s.dateRanges.first?.clientAttributes == [Attribute(name: "X-COM-EXAMPLE", value: .quotedString("v"))])
        #expect(s.bitrateKilobitsPerSecond == 1500 && s.parts.first?.independent == true)
        #expect(s.byteRange == ByteRange(length: 1000, offset: 720))
        #expect(p.segments[1].gap)
        #expect(p.incompleteSegment?.parts.first?.byteRange == ByteRange(length: 500, offset: 0))
        #expect(p.preloadHints.first?.byteRangeStart == 500)
        #expect(p.renditionReports.first?.lastMediaSequenceNumber == 8)
        #expect(p.map(inEffectAt: 1)?.uri == "init.mp4")
    }

    @Test func theTagTableHasNoCollisions() {
        for tag in TagName.allCases {
            let bytes = Array(tag.rawValue.utf8)
            let found = bytes.withUnsafeBufferPointer { TagName.lookup($0, 0..<bytes.count) }
            #expect(found == tag)
        }
        let unknown = Array("EXT-X-CUE-OUT".utf8)
        #expect(unknown.withUnsafeBufferPointer { TagName.lookup($0, 0..<unknown.count) } == nil)
    }
}
