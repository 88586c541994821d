import Testing

@testable import Packaging

@Suite struct WebVTTSegmentTests {
    let captions = RecordingCaptions(presetName: "warm-film")

    @Test func segmentMapsCueTimeZeroToTheVideosFirstPresentationTime() {
        let cues = captions.cues(.english, from: .seconds(2), to: .seconds(4), isLast: false)
        #expect(
            WebVTTSegment.text(cues: cues, mpegTimestamp: 900_000) == """
                WEBVTT
                X-TIMESTAMP-MAP=MPEGTS:900000,LOCAL:00:00:00.000

                00:00:02.000 --> 00:00:03.000
                Filter warm-film · recording 00:02

                00:00:03.000 --> 00:00:04.000
                Filter warm-film · recording 00:03

                """)
    }

    @Test func aCueAcrossASegmentBoundaryIsRepeatedInBothSegments() {
        // Boundary at 2.5 s: the cue for second 2 belongs to both segments, with the same times.
        let first = captions.cues(.korean, from: .zero, to: Timestamp(5, timescale: 2), isLast: false)
        let second = captions.cues(.korean, from: Timestamp(5, timescale: 2), to: .seconds(4), isLast: false)
        #expect(first.last == second.first)
        #expect(first.last?.start == .seconds(2) && first.last?.end == .seconds(3))
        #expect(first.last?.text == "필터 warm-film · 녹화 00:02")
    }

    @Test func theLastCueEndsWithTheRecording() {
        let cues = captions.cues(.english, from: .seconds(2), to: Timestamp(27, timescale: 10), isLast: true)
        #expect(cues.map(\.end) == [Timestamp(27, timescale: 10)])
    }

    @Test(arguments: [
        (Timestamp(0, timescale: 1), "00:00:00.000"), (Timestamp(1, timescale: 3), "00:00:00.333"),
        (Timestamp(3_723_004, timescale: 1000), "01:02:03.004"),
    ])
    func timestampsPrintAsHoursMinutesSecondsMilliseconds(_ time: Timestamp, _ text: String) {
        #expect(WebVTTSegment.timestamp(time) == text)
    }
}
