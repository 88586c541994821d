import Testing
@testable import Playback

@Suite struct TimelineTests {
    private let fourSecond = MediaTimeline(durations: [4, 4, 4, 4])

    @Test(arguments: [
        (0.0, 0), (3.9, 0), (4.0, 1), (3.9995, 1), (7.5, 1), (15.99, 3),
    ] as [(Double, Int)])
    func aTimeOnABoundaryBelongsToTheSegmentThatStartsThere(seconds: Double, expected: Int) {
        #expect(fourSecond.segmentIndex(containing: seconds) == expected)
    }

    @Test func timesOutsideTheListedSegmentsBelongToNoSegment() {
        #expect(fourSecond.segmentIndex(containing: -0.5) == nil)
        #expect(fourSecond.segmentIndex(containing: 16) == nil)
        #expect(MediaTimeline(durations: []).segmentIndex(containing: 0) == nil)
    }

    @Test(arguments: [(0.0, 0), (3.0, 0), (4.0, 1), (15.9995, nil), (16.0, nil), (-10.0, 0)] as [(Double, Int?)])
    func theNextSegmentIsTheFirstThatEndsAfterTheBufferEnd(bufferEnd: Double, expected: Int?) {
        #expect(fourSecond.nextSegmentIndex(after: bufferEnd) == expected)
    }

    @Test func aReloadOfTheSameRenditionIsPlacedByMediaSequence() {
        let old = MediaTimeline(durations: [4, 4, 4], firstMediaSequence: 10, startSeconds: 100, hasEndList: false)
        let reload = MediaTimeline(durations: [4, 4, 4], firstMediaSequence: 11, hasEndList: false)
        let (aligned, method) = old.aligned(reload, sameRendition: true)
        #expect(method == .mediaSequence)
        #expect(aligned.segments.map(\.startSeconds) == [104, 108, 112])
    }

    @Test func anotherVariantIsPlacedByProgramDateTimeEvenWhenItsSequenceNumbersDiffer() {
        var current = MediaTimeline(durations: [4, 4, 4], firstMediaSequence: 10, startSeconds: 50, hasEndList: false)
        var other = MediaTimeline(durations: [6, 6], firstMediaSequence: 500, hasEndList: false)
        for index in current.segments.indices { current.segments[index].programDateTimeSeconds = 1000 + 4 * Double(index) }
        // The other variant's first segment starts 2 s after ours, by the wall clock.
        for index in other.segments.indices { other.segments[index].programDateTimeSeconds = 1002 + 6 * Double(index) }
        let (aligned, method) = current.aligned(other, sameRendition: false)
        #expect(method == .programDateTime)
        #expect(aligned.segments.map(\.startSeconds) == [52, 58])
    }

    @Test func anotherVariantWithADifferentCutIsPlacedByTheDiscontinuityBoundary() {
        var current = MediaTimeline(durations: [4, 4, 2, 4, 4])
        var other = MediaTimeline(durations: [3, 3, 3.9, 4, 4])
        for index in 3..<5 {
            current.segments[index].discontinuitySequence = 1
            other.segments[index].discontinuitySequence = 1
        }
        current.segments[3].isDiscontinuity = true
        other.segments[3].isDiscontinuity = true
        let (aligned, method) = current.aligned(other, sameRendition: false)
        #expect(method == .discontinuitySequence)
        #expect(abs(aligned.segments[3].startSeconds - 10) < 1e-9)
    }

    @Test func twoCompleteVariantsMapByCumulativeTimeNotBySegmentIndex() {
        let current = MediaTimeline(durations: [4, 4, 4, 4, 4, 4])
        let other = MediaTimeline(durations: [6, 6, 6, 6])
        let (aligned, method) = current.aligned(other, sameRendition: false)
        #expect(method == .cumulativeTime)
        // The buffer ends at 8 s (after our segment 1): the other variant continues with its segment 1 (6…12),
        // not with its segment 2.
        #expect(aligned.nextSegmentIndex(after: current.segments[1].endSeconds) == 1)
    }

    @Test func liveVariantsWithoutDatesFallBackToSharedMediaSequenceNumbers() {
        let current = MediaTimeline(durations: [4, 4, 4], firstMediaSequence: 20, startSeconds: 80, hasEndList: false)
        let other = MediaTimeline(durations: [4, 4, 4], firstMediaSequence: 21, hasEndList: false)
        let (aligned, method) = current.aligned(other, sameRendition: false)
        #expect(method == .mediaSequence)
        #expect(aligned.startSeconds == 84)
    }

    @Test func aMediaSequenceJumpIsPlacedAfterTheWindowOneTargetDurationPerMissingSegment() {
        let current = MediaTimeline(durations: [4, 4], firstMediaSequence: 10, hasEndList: false)
        let later = MediaTimeline(durations: [4, 4], firstMediaSequence: 15, hasEndList: false)
        let (aligned, method) = current.aligned(later, sameRendition: true)
        #expect(method == .mediaSequenceEstimate)
        // 10, 11 end at 8 s; 12…14 are missing (12 s); 15 starts at 20 s.
        #expect(aligned.startSeconds == 20)
    }

    @Test(arguments: [
        // (start offset, hold-back, live, expected start)
        (nil, nil, false, 0.0),
        (nil, nil, true, 28.0),  // 40 − 3 × 4
        (nil, 6.0, true, 34.0),  // SERVER-CONTROL HOLD-BACK
        (10.0, nil, true, 10.0),  // EXT-X-START from the beginning
        (-8.0, nil, false, 32.0),  // EXT-X-START from the end
        (-100.0, nil, true, 0.0),  // clamped into the playlist
        (100.0, nil, false, 39.998),
    ] as [(Double?, Double?, Bool, Double)])
    func playbackStartsAtTheHoldBackOrTheStartOffset(offset: Double?, holdBack: Double?, live: Bool, expected: Double) {
        var timeline = MediaTimeline(durations: Array(repeating: 4, count: 10), hasEndList: !live)
        timeline.startOffsetSeconds = offset
        timeline.holdBackSeconds = holdBack
        #expect(abs(timeline.playbackStartSeconds - expected) < 1e-9)
    }

    @Test func aLivePlaylistIsReloadedAfterOneTargetDurationOrHalfWhenUnchanged() {
        let timeline = MediaTimeline(durations: [6, 6], targetDurationSeconds: 6, hasEndList: false)
        #expect(timeline.reloadDelaySeconds(changed: true) == 6)
        #expect(timeline.reloadDelaySeconds(changed: false) == 3)
    }

    @Test func aStreamDescriptionSortsTheLadderByBandwidthAndNumbersIt() {
        let variants = [3_000_000, 800_000, 1_500_000].map { bandwidth in
            StreamDescription.Variant(info: VariantInfo(index: 99, bandwidthBitsPerSecond: bandwidth), uri: "\(bandwidth).m3u8")
        }
        let stream = StreamDescription(variants: variants)
        #expect(stream.variants.map(\.uri) == ["800000.m3u8", "1500000.m3u8", "3000000.m3u8"])
        #expect(stream.variantInfos.map(\.index) == [0, 1, 2])
        #expect(Fixtures.ladder().subtitles(for: 2).compactMap(\.language) == ["en", "de"])
    }

    @Test func aByteRangeBecomesAnInclusiveHTTPRange() {
        #expect(SegmentByteRange(offsetBytes: 1000, lengthBytes: 500).httpRangeHeader == "bytes=1000-1499")
    }
}
