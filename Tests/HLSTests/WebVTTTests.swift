import Testing

@testable import HLS

@Suite struct WebVTTTests {
    static let segment = """
        WEBVTT
        X-TIMESTAMP-MAP=MPEGTS:900000,LOCAL:00:00:00.000

        NOTE written by the segmenter

        1
        00:00:01.000 --> 00:00:03.500 align:start line:90%
        안녕하세요
        <i>second line</i>

        01:02.250 --> 01:04.000
        short form

        """

    @Test func parsesHeaderTimestampMapAndCues() throws {
        let outcome = WebVTTDocument.parse(Array(Self.segment.utf8))
        #expect(outcome.diagnostics.isEmpty)
        let document = try #require(outcome.document)
        #expect(document.timestampMap == WebVTTTimestampMap(mpegTimestamp: 900_000, localMilliseconds: 0))
        #expect(document.timestampMap?.offsetSeconds == 10)
        #expect(
            document.cues == [
                WebVTTCue(
                    identifier: "1", startMilliseconds: 1_000, endMilliseconds: 3_500,
                    settings: [.init(name: "align", value: "start"), .init(name: "line", value: "90%")],
                    text: "안녕하세요\n<i>second line</i>"),
                WebVTTCue(startMilliseconds: 62_250, endMilliseconds: 64_000, text: "short form"),
            ])
        #expect(document.cues[0].setting("line") == "90%")
    }

    @Test func crlfAndBOMAreAccepted() throws {
        let text = "\u{FEFF}WEBVTT\r\n\r\n00:00.000 --> 00:01.000\r\nhi\r\n"
        let outcome = WebVTTDocument.parse(Array(text.utf8))
        #expect(outcome.diagnostics.isEmpty)
        #expect(outcome.document?.cues.map(\.text) == ["hi"])
    }

    struct BadCase: Sendable, CustomTestStringConvertible {
        var text: String
        var rule: WebVTTRule
        var line: Int
        var testDescription: String { rule.rawValue }
    }

    static let badCases: [BadCase] = [
        BadCase(text: "WEBVT\n\n", rule: .signatureMissing, line: 1),
        BadCase(text: "WEBVTT\nX-TIMESTAMP-MAP=LOCAL:00:00.000\n\n", rule: .timestampMapMalformed, line: 2),
        BadCase(text: "WEBVTT\n\n00:00:01.000 -> 00:00:02.000\nx\n", rule: .cueTimingMissing, line: 3),
        BadCase(text: "WEBVTT\n\n00:00:1.000 --> 00:00:02.000\nx\n", rule: .cueTimestampMalformed, line: 3),
        BadCase(text: "WEBVTT\n\n00:00:01.000 --> 00:60.000\nx\n", rule: .cueTimestampMalformed, line: 3),
        BadCase(text: "WEBVTT\n\n00:00:01.000 --> 00:00:02.000 align\nx\n", rule: .cueSettingMalformed, line: 3),
        BadCase(text: "WEBVTT\n\nid\n00:00:03.000 --> 00:00:02.000\nx\n", rule: .cueEndBeforeStart, line: 4),
        BadCase(text: "WEBVTT\n00:00:01.000 --> 00:00:02.000\nx\n", rule: .headerBlankLineMissing, line: 2),
    ]

    @Test(arguments: badCases)
    func malformedInputIsReportedOnItsLine(_ bad: BadCase) {
        let outcome = WebVTTDocument.parse(Array(bad.text.utf8))
        #expect(outcome.diagnostics.map(\.code.rawValue) == [bad.rule.rawValue])
        #expect(outcome.diagnostics.first?.location.line == bad.line)
    }

    @Test func aMalformedCueIsSkippedAndTheNextOneKept() {
        let text = "WEBVTT\n\n00:00:xx.000 --> 00:00:02.000\nbad\n\n00:00:02.000 --> 00:00:03.000\ngood\n"
        let outcome = WebVTTDocument.parse(Array(text.utf8))
        #expect(outcome.document?.cues.map(\.text) == ["good"])
        #expect(outcome.diagnostics.count == 1)
    }

    @Test func writerOutputParsesBackToTheSameDocument() throws {
        let document = WebVTTDocument(
            timestampMap: WebVTTTimestampMap(mpegTimestamp: 126_000, localMilliseconds: 0),
            cues: [
                WebVTTCue(identifier: "c1", startMilliseconds: 0, endMilliseconds: 2_000, text: "Hello"),
                WebVTTCue(
                    startMilliseconds: 3_723_004, endMilliseconds: 3_725_000,
                    settings: [.init(name: "position", value: "10%")], text: "two\nlines"),
            ])
        let text = document.text
        #expect(
            text.hasPrefix(
                "WEBVTT\nX-TIMESTAMP-MAP=MPEGTS:126000,LOCAL:00:00:00.000\n\nc1\n00:00:00.000 --> 00:00:02.000\n"))
        #expect(text.contains("01:02:03.004 --> 01:02:05.000 position:10%\ntwo\nlines\n"))
        let reparsed = WebVTTDocument.parse(Array(text.utf8))
        #expect(reparsed.diagnostics.isEmpty)
        #expect(reparsed.document == document)
    }
}
