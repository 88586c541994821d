import Testing

@testable import HLS

@Suite struct ValidatorTests {
    struct Case: Sendable, CustomTestStringConvertible {
        var name: String
        var playlist: String
        var code: DiagnosticCode
        var line: Int
        var severity: Severity = .error
        var testDescription: String { name }
    }

    static let media = "#EXTM3U\n#EXT-X-VERSION:7\n#EXT-X-TARGETDURATION:6\n"
    static let master = "#EXTM3U\n#EXT-X-VERSION:7\n#EXT-X-INDEPENDENT-SEGMENTS\n"
    static let fullVariant =
        #"BANDWIDTH=800000,AVERAGE-BANDWIDTH=700000,CODECS="avc1.64001f,mp4a.40.2",RESOLUTION=640x360,FRAME-RATE=30"#

    /// One playlist per rule, each breaking exactly that rule, with the line the error must name.
    static let cases: [Case] = [
        Case(
            name: "missing target duration", playlist: "#EXTM3U\n#EXT-X-VERSION:3\n#EXTINF:4,\na.ts\n",
            code: .targetDurationMissing, line: 1),
        Case(
            name: "EXTINF rounds above target", playlist: media + "#EXTINF:6.0,\na.ts\n#EXTINF:6.5,\nb.ts\n",
            code: .extinfExceedsTargetDuration, line: 6),
        Case(
            name: "media sequence after first segment", playlist: media + "#EXTINF:6,\na.ts\n#EXT-X-MEDIA-SEQUENCE:3\n",
            code: .mediaSequenceAfterFirstSegment, line: 6),
        Case(
            name: "discontinuity sequence after first segment",
            playlist: media + "#EXTINF:6,\na.ts\n#EXT-X-DISCONTINUITY-SEQUENCE:1\n#EXTINF:6,\nb.ts\n",
            code: .discontinuitySequenceAfterFirstSegment, line: 6),
        Case(
            name: "BYTERANGE needs version 4",
            playlist: "#EXTM3U\n#EXT-X-VERSION:3\n#EXT-X-TARGETDURATION:6\n#EXTINF:6,\n#EXT-X-BYTERANGE:100@0\na.ts\n",
            code: .versionTooLow, line: 5),
        Case(
            name: "DEFINE needs version 8",
            playlist:
                "#EXTM3U\n#EXT-X-VERSION:7\n#EXT-X-DEFINE:NAME=\"a\",VALUE=\"b\"\n#EXT-X-TARGETDURATION:6\n#EXTINF:6,\n{$a}.ts\n",
            code: .versionTooLow, line: 3),
        Case(
            name: "floating EXTINF needs version 3",
            playlist: "#EXTM3U\n#EXT-X-TARGETDURATION:6\n#EXTINF:5.5,\na.ts\n", code: .versionTooLow, line: 3),
        Case(
            name: "MAP needs version 6",
            playlist:
                "#EXTM3U\n#EXT-X-VERSION:5\n#EXT-X-TARGETDURATION:6\n#EXT-X-MAP:URI=\"i.mp4\"\n#EXTINF:6,\na.mp4\n",
            code: .versionTooLow, line: 4),
        Case(
            name: "two EXT-X-VERSION tags", playlist: media + "#EXT-X-VERSION:7\n#EXTINF:6,\na.ts\n",
            code: .tagDuplicate,
            line: 4),
        Case(
            name: "SESSION-KEY in a media playlist",
            playlist: media + "#EXT-X-SESSION-KEY:METHOD=AES-128,URI=\"k\"\n#EXTINF:6,\na.ts\n",
            code: .tagWrongPlaylistKind, line: 4),
        Case(
            name: "offset-less BYTERANGE on the first segment",
            playlist: media + "#EXTINF:6,\n#EXT-X-BYTERANGE:100\na.ts\n", code: .byteRangeOffsetUnresolvable, line: 5),
        Case(
            name: "DATERANGE without START-DATE", playlist: media + "#EXT-X-DATERANGE:ID=\"x\"\n#EXTINF:6,\na.ts\n",
            code: .dateRangeStartDateMissing, line: 4),
        Case(
            name: "PART without PART-INF", playlist: media + "#EXT-X-PART:DURATION=1,URI=\"p.mp4\"\n#EXTINF:6,\na.ts\n",
            code: .partInfMissing, line: 4),
        Case(
            name: "PART longer than PART-TARGET",
            playlist: media + "#EXT-X-SERVER-CONTROL:PART-HOLD-BACK=3\n#EXT-X-PART-INF:PART-TARGET=1\n"
                + "#EXT-X-PART:DURATION=1.2,URI=\"p.mp4\"\n#EXTINF:6,\na.ts\n",
            code: .partExceedsPartTarget, line: 6),
        Case(
            name: "CAN-SKIP-UNTIL below 6 target durations",
            playlist: media + "#EXT-X-SERVER-CONTROL:CAN-SKIP-UNTIL=35\n#EXTINF:6,\na.ts\n",
            code: .canSkipUntilTooSmall, line: 4),
        Case(
            name: "HOLD-BACK below 3 target durations",
            playlist: media + "#EXT-X-SERVER-CONTROL:HOLD-BACK=12\n#EXTINF:6,\na.ts\n",
            code: .holdBackTooSmall, line: 4),
        Case(
            name: "PART-HOLD-BACK below 2 part targets",
            playlist: media
                + "#EXT-X-SERVER-CONTROL:PART-HOLD-BACK=1.5\n#EXT-X-PART-INF:PART-TARGET=1\n#EXTINF:6,\na.ts\n",
            code: .partHoldBackTooSmall, line: 4),
        Case(
            name: "PART-INF without PART-HOLD-BACK",
            playlist: media + "#EXT-X-PART-INF:PART-TARGET=1\n#EXTINF:6,\na.ts\n", code: .partHoldBackMissing, line: 4),
        Case(
            name: "undefined AUDIO group",
            playlist: master + "#EXT-X-STREAM-INF:\(fullVariant),AUDIO=\"aac\"\nv.m3u8\n", code: .groupUndefined,
            line: 4),
        Case(
            name: "SUBTITLES group of another TYPE",
            playlist: master + "#EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID=\"s\",NAME=\"a\",URI=\"a.m3u8\"\n"
                + "#EXT-X-STREAM-INF:\(fullVariant),SUBTITLES=\"s\"\nv.m3u8\n",
            code: .groupUndefined, line: 5),
        Case(
            name: "duplicate NAME in a group",
            playlist: master + "#EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID=\"a\",NAME=\"en\",URI=\"1.m3u8\"\n"
                + "#EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID=\"a\",NAME=\"en\",URI=\"2.m3u8\"\n", code: .renditionNameDuplicate,
            line: 5),
        Case(
            name: "two DEFAULT=YES in a group",
            playlist: master
                + "#EXT-X-MEDIA:TYPE=SUBTITLES,GROUP-ID=\"s\",NAME=\"ko\",DEFAULT=YES,AUTOSELECT=YES,URI=\"1.m3u8\"\n"
                + "#EXT-X-MEDIA:TYPE=SUBTITLES,GROUP-ID=\"s\",NAME=\"en\",DEFAULT=YES,AUTOSELECT=YES,URI=\"2.m3u8\"\n",
            code: .renditionDefaultDuplicate, line: 5),
        Case(
            name: "SUBTITLES rendition without URI",
            playlist: master + "#EXT-X-MEDIA:TYPE=SUBTITLES,GROUP-ID=\"s\",NAME=\"ko\"\n", code: .renditionURIMissing,
            line: 4),
        Case(
            name: "CLOSED-CAPTIONS rendition with a URI",
            playlist: master
                + "#EXT-X-MEDIA:TYPE=CLOSED-CAPTIONS,GROUP-ID=\"cc\",NAME=\"en\",INSTREAM-ID=\"CC1\",URI=\"c.m3u8\"\n",
            code: .closedCaptionsURI, line: 4),
        Case(
            name: "CLOSED-CAPTIONS rendition without INSTREAM-ID",
            playlist: master + "#EXT-X-MEDIA:TYPE=CLOSED-CAPTIONS,GROUP-ID=\"cc\",NAME=\"en\"\n",
            code: .instreamIDMissing, line: 4),
        Case(
            name: "CLOSED-CAPTIONS rendition with INSTREAM-ID CC5",
            playlist: master + "#EXT-X-MEDIA:TYPE=CLOSED-CAPTIONS,GROUP-ID=\"cc\",NAME=\"en\",INSTREAM-ID=\"CC5\"\n",
            code: .instreamIDInvalid, line: 4),
        Case(
            name: "variant without CODECS",
            playlist: master
                + "#EXT-X-STREAM-INF:BANDWIDTH=1,AVERAGE-BANDWIDTH=1,RESOLUTION=1x1,FRAME-RATE=1\nv.m3u8\n",
            code: .codecsMissing, line: 4, severity: .warning),
        Case(
            name: "video variant without RESOLUTION",
            playlist: master
                + "#EXT-X-STREAM-INF:BANDWIDTH=1,AVERAGE-BANDWIDTH=1,CODECS=\"avc1.64001f\",FRAME-RATE=30\nv.m3u8\n",
            code: .resolutionMissing, line: 4, severity: .warning),
        Case(
            name: "video variant without FRAME-RATE",
            playlist: master
                + "#EXT-X-STREAM-INF:BANDWIDTH=1,AVERAGE-BANDWIDTH=1,CODECS=\"avc1.64001f\",RESOLUTION=1x1\nv.m3u8\n",
            code: .frameRateMissing, line: 4, severity: .warning),
        Case(
            name: "variant without AVERAGE-BANDWIDTH",
            playlist: master + "#EXT-X-STREAM-INF:BANDWIDTH=1,CODECS=\"mp4a.40.2\"\nv.m3u8\n",
            code: .averageBandwidthMissing, line: 4, severity: .warning),
        Case(
            name: "multivariant without INDEPENDENT-SEGMENTS",
            playlist: "#EXTM3U\n#EXT-X-STREAM-INF:\(fullVariant)\nv.m3u8\n", code: .independentSegmentsMissing, line: 1,
            severity: .warning),
        Case(
            name: "METHOD=NONE with a URI",
            playlist: media + "#EXT-X-KEY:METHOD=NONE,URI=\"k.bin\"\n#EXTINF:6,\na.ts\n", code: .keyNoneWithAttributes,
            line: 4),
        Case(
            name: "METHOD=NONE with an IV",
            playlist: media
                + "#EXTINF:6,\na.ts\n#EXT-X-KEY:METHOD=NONE,IV=0x000102030405060708090a0b0c0d0e0f\n#EXTINF:6,\nb.ts\n",
            code: .keyNoneWithAttributes, line: 6),
        Case(
            name: "an IV of 64 bits",
            playlist: media + "#EXT-X-KEY:METHOD=AES-128,URI=\"k.bin\",IV=0x0001020304050607\n#EXTINF:6,\na.ts\n",
            code: .keyIVLength, line: 4, severity: .warning),
        Case(
            name: "an IV of 136 bits",
            playlist: media + "#EXT-X-KEY:METHOD=AES-128,URI=\"k.bin\",IV=0x000102030405060708090a0b0c0d0e0f10\n"
                + "#EXTINF:6,\na.ts\n",
            code: .keyIVLength, line: 4),
        Case(
            name: "SESSION-KEY with METHOD=NONE",
            playlist: master + "#EXT-X-SESSION-KEY:METHOD=NONE\n#EXT-X-STREAM-INF:\(fullVariant)\nv.m3u8\n",
            code: .sessionKeyMethodNone, line: 4),
    ]

    @Test(arguments: cases)
    func eachRuleReportsItsCodeOnTheLineAtFault(_ example: Case) {
        let result = parseAndValidate(Array(example.playlist.utf8))
        let matching = result.diagnostics.filter { $0.code == example.code }
        #expect(matching.map(\.location.line) == [example.line], "\(result.diagnostics)")
        #expect(matching.first?.severity == example.severity)
        #expect(matching.first?.specReference != nil)
    }

    @Test func aPlaylistFollowingEveryRuleHasNoDiagnostics() {
        let text =
            Self.master + """
                #EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID="aac",NAME="ko",LANGUAGE="ko",DEFAULT=YES,AUTOSELECT=YES,URI="a.m3u8"
                #EXT-X-MEDIA:TYPE=SUBTITLES,GROUP-ID="subs",NAME="ko",LANGUAGE="ko",DEFAULT=YES,AUTOSELECT=YES,URI="ko.m3u8"
                #EXT-X-MEDIA:TYPE=SUBTITLES,GROUP-ID="subs",NAME="en",LANGUAGE="en",AUTOSELECT=YES,URI="en.m3u8"
                #EXT-X-STREAM-INF:\(Self.fullVariant),AUDIO="aac",SUBTITLES="subs",CLOSED-CAPTIONS=NONE
                v.m3u8

                """
        #expect(parseAndValidate(Array(text.utf8)).diagnostics == [])
    }

    @Test func diagnosticsPrintLikeACompiler() throws {
        let text = "#EXTM3U\n#EXT-X-VERSION:3\n#EXT-X-TARGETDURATION:8\n#EXTINF:9.009,\na.ts\n"
        let diagnostic = try #require(parseAndValidate(Array(text.utf8)).diagnostics.first)
        #expect(
            diagnostic.formatted(file: "index.m3u8")
                == "index.m3u8:4:1: error: EXTINF 9.009 rounds to 9, above EXT-X-TARGETDURATION 8 "
                + "[extinf.exceeds-target-duration] (RFC 8216bis §4.4.3.1)")
    }

    @Test func rulesCanBeChosenFromTheList() {
        let text = "#EXTM3U\n#EXTINF:5.5,\na.ts\n"
        let playlist = parse(text).playlist!
        let all = PlaylistValidator().validate(playlist).map(\.code)
        #expect(all.contains(.targetDurationMissing) && all.contains(.versionTooLow))
        let one = PlaylistValidator(rules: [TargetDurationRequired()]).validate(playlist).map(\.code)
        #expect(one == [.targetDurationMissing])
    }

    @Test func aPlaylistBuiltInCodeIsCheckedWithoutPositions() {
        var playlist = MediaPlaylist(version: 3, targetDuration: -1)
        playlist.segments = [Segment(uri: "a.ts", duration: -2)]
        let codes = PlaylistValidator.validate(.media(playlist)).map(\.code)
        #expect(codes.filter { $0 == .negativeNumber }.count == 2)
    }

    @Test func strictModeStopsAtTheFirstError() {
        let text = "#EXTM3U\n#EXT-X-VERSION:3\n#EXT-X-TARGETDURATION:8\n#EXTINF:9.009,\na.ts\n#EXTINF:9.009,\nb.ts\n"
        let result = parseAndValidate(Array(text.utf8), options: ParseOptions(strict: true))
        #expect(result.playlist == nil)
        #expect(result.diagnostics.map(\.location.line) == [4])
    }

    @Test func aDateRangeContinuedUnderTheSameIDNeedsNoStartDate() {
        let text =
            Self.media + """
                #EXT-X-DATERANGE:ID="ad",START-DATE="2024-01-01T00:00:00.000Z",PLANNED-DURATION=30
                #EXTINF:6,
                a.ts
                #EXT-X-DATERANGE:ID="ad",DURATION=30
                #EXTINF:6,
                b.ts

                """
        #expect(!parseAndValidate(Array(text.utf8)).diagnostics.contains { $0.code == .dateRangeStartDateMissing })
    }

    /// Issue 31: two EXT-X-MEDIA without NAME in one group also raised `media.name-duplicate` for `NAME=""`
    /// (and two without GROUP-ID a DEFAULT duplicate in group ""): one cause, one finding each.
    @Test func aRenditionLackingNAMEIsReportedOnceAndNotComparedWithOthers() {
        let text =
            Self.master + """
                #EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID="a",URI="1.m3u8"
                #EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID="a",URI="2.m3u8"
                #EXT-X-MEDIA:TYPE=AUDIO,NAME="x",DEFAULT=YES,URI="3.m3u8"
                #EXT-X-MEDIA:TYPE=AUDIO,NAME="y",DEFAULT=YES,URI="4.m3u8"
                #EXT-X-STREAM-INF:\(Self.fullVariant),AUDIO="a"
                v.m3u8

                """
        let codes = parseAndValidate(Array(text.utf8)).diagnostics.map(\.code)
        #expect(codes.filter { $0 == .missingAttribute("NAME", in: .media) }.count == 2, "\(codes)")
        #expect(codes.filter { $0 == .missingAttribute("GROUP-ID", in: .media) }.count == 2, "\(codes)")
        #expect(!codes.contains(.renditionNameDuplicate) && !codes.contains(.renditionDefaultDuplicate), "\(codes)")
        // An explicit NAME="" twice is a duplicate name, as any other.
        let explicit =
            Self.master + """
                #EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID="a",NAME="",URI="1.m3u8"
                #EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID="a",NAME="",URI="2.m3u8"

                """
        #expect(parseAndValidate(Array(explicit.utf8)).diagnostics.map(\.code).contains(.renditionNameDuplicate))
    }
}
