import Testing

@testable import Packaging

@Suite struct SegmentRetentionTests {
    @Test(arguments: [
        // (window, published count, deletable upper bound)
        (3, 0, 0), (3, 4, 0), (3, 7, 0), (3, 8, 1), (3, 10, 3),
        (1, 3, 0), (1, 4, 1), (1, 100, 97),
        (5, 11, 0), (5, 12, 1),
    ])
    func windowSegmentsGoAfterTheirDurationPlusAWholeWindow(_ window: Int, _ count: Int, _ upper: Int) {
        #expect(
            SegmentRetention(mode: .slidingWindow(segments: window)).deletableSegments(publishedCount: count)
                == 0..<upper)
    }

    @Test func eventAndVODKeepEverySegment() {
        #expect(SegmentRetention(mode: .event).deletableSegments(publishedCount: 1_000).isEmpty)
        #expect(SegmentRetention(mode: .vod).deletableSegments(publishedCount: 1_000).isEmpty)
    }

    /// Against the playlists themselves: a deletable segment is never listed in the current playlist nor
    /// in the one published `window + 1` segments earlier (a player may still be working through it).
    @Test(arguments: [1, 2, 3, 6])
    func neverDeletesWhatARecentPlaylistStillNames(_ window: Int) {
        let builder = PlaylistBuilder(mode: .slidingWindow(segments: window), nominalSegmentDuration: .seconds(2))
        let retention = SegmentRetention(mode: builder.mode)
        let records = (0..<40).map {
            SegmentRecord(uri: "seg_\($0).ts", startTime: .seconds(2 * Int64($0)), duration: .seconds(2), byteSize: 1)
        }
        for count in 1...records.count {
            let deletable = Set(retention.deletableSegments(publishedCount: count).map { "seg_\($0).ts" })
            for earlier in max(1, count - window - 1)...count {
                let listed = builder.mediaPlaylist(
                    Array(records.prefix(earlier)), initSegmentURI: nil, isFinished: false)
                #expect(
                    deletable.isDisjoint(with: listed.segments.map(\.uri)), "count \(count), playlist at \(earlier)")
            }
            // And the window does not grow without bound on disk: at most 2 windows + 1 segments kept.
            #expect(count - deletable.count <= 2 * window + 1)
        }
    }
}
