import FilterzTestSupport
import HLS
import Testing
@testable import Playback

/// The adapters from the HLS model to the machine's own value types, on the shared corpus.
@Suite(.enabled(if: CorpusPlaylists.isAvailable, "../shared/corpus/playlists is absent"))
struct HLSAdapterTests {
    private func timeline(_ name: String) throws -> MediaTimeline {
        guard case .media(let media) = try #require(CorpusPlaylists.named(name)) else {
            throw CorpusError.notMedia(name)
        }
        return MediaTimeline(media)
    }

    enum CorpusError: Error { case notMedia(String), notMultivariant(String) }

    @Test func aVODPlaylistBecomesCumulativeSegmentTimesWithAnEnd() throws {
        let timeline = try timeline("rfc8216-8.1-simple-media.m3u8")
        #expect(timeline.segments.map(\.startSeconds) == [0, 9.009, 18.018])
        #expect(timeline.segments.map(\.mediaSequence) == [0, 1, 2])
        #expect(timeline.hasEndList)
        #expect(timeline.targetDurationSeconds == 10)
        #expect(timeline.segments[0].uri == "http://media.example.com/first.ts")
    }

    @Test func aLivePlaylistKeepsItsMediaSequenceAndStartsThreeTargetDurationsFromTheEdge() throws {
        let timeline = try timeline("rfc8216-8.2-live-sliding-https.m3u8")
        #expect(timeline.isLive)
        #expect(timeline.segments.map(\.mediaSequence) == [2680, 2681, 2682])
        // 23.891 s listed, 3 × 8 s hold-back: the first segment.
        #expect(timeline.playbackStartSeconds == 0)
    }

    @Test func discontinuitiesNumberTheSegmentsThatFollow() throws {
        let timeline = try timeline("videojs-discontinuity.m3u8")
        #expect(timeline.segments.map(\.discontinuitySequence) == [0, 0, 1, 1, 2, 2, 2, 3, 3])
        #expect(timeline.segments.filter(\.isDiscontinuity).map(\.mediaSequence) == [2, 4, 7])
    }

    @Test func extXStartIsHonoured() throws {
        let timeline = try timeline("grafov-start-time.m3u8")
        #expect(timeline.startOffsetSeconds == 8)
        #expect(timeline.playbackStartSeconds == 8)
    }

    @Test func byteRangesAreResolvedAndGiveSegmentSizes() throws {
        let timeline = try timeline("videojs-fmp4-tab-title.m3u8")
        #expect(timeline.segments[0].byteRange == SegmentByteRange(offsetBytes: 720, lengthBytes: 5_666_510))
        #expect(timeline.segments[1].byteRange == SegmentByteRange(offsetBytes: 5_667_230, lengthBytes: 5_861_577))
        #expect(timeline.segments[0].sizeBytes == 5_666_510)
        #expect(timeline.hasEndList)  // EXT-X-PLAYLIST-TYPE:VOD
    }

    @Test func programDateTimeIsCarriedForwardAndServerControlReadForLowLatencyPlaylists() throws {
        guard case .media(let media) = try #require(CorpusPlaylists.named("draft-ll-hls-playlist.m3u8")) else {
            throw CorpusError.notMedia("draft-ll-hls-playlist.m3u8")
        }
        let timeline = MediaTimeline(media)
        #expect(timeline.segments.first?.mediaSequence == 266)
        let dates = timeline.segments.compactMap(\.programDateTimeSeconds)
        #expect(dates.count == timeline.segments.count)
        var carried = 0
        for index in timeline.segments.indices.dropFirst() where media.segments[index].programDateTime == nil {
            let expected = dates[index - 1] + timeline.segments[index - 1].durationSeconds
            #expect(abs(dates[index] - expected) < 1e-6)
            carried += 1
        }
        #expect(carried > 0)
    }

    @Test func serverControlHoldBackSetsTheLiveStartAndExtXStartWinsOverIt() {
        var playlist = HLS.MediaPlaylist(
            targetDuration: 4, mediaSequence: 50, serverControl: HLS.ServerControl(holdBack: 6))
        playlist.segments = (0..<10).map { HLS.Segment(uri: "s\($0).ts", duration: 4) }
        #expect(MediaTimeline(playlist).playbackStartSeconds == 34)
        playlist.start = HLS.Start(timeOffset: -20)
        #expect(MediaTimeline(playlist).playbackStartSeconds == 20)
    }

    @Test func anOffsetLessByteRangeFollowsThePreviousRangeOfTheSameResource() {
        var playlist = HLS.MediaPlaylist(targetDuration: 4, endList: true)
        playlist.segments = [
            HLS.Segment(uri: "all.ts", duration: 4, byteRange: HLS.ByteRange(length: 100, offset: 50)),
            HLS.Segment(uri: "all.ts", duration: 4, byteRange: HLS.ByteRange(length: 70)),
            HLS.Segment(uri: "other.ts", duration: 4, byteRange: HLS.ByteRange(length: 30)),
        ]
        let timeline = MediaTimeline(playlist)
        #expect(timeline.segments.map(\.byteRange?.offsetBytes) == [50, 150, 0])
    }

    @Test func aMultivariantPlaylistBecomesALadderSortedByBandwidthWithItsRenditions() throws {
        guard case .multivariant(let master) = try #require(CorpusPlaylists.named("apple-bipbop-adv-ts-master.m3u8")) else {
            throw CorpusError.notMultivariant("apple-bipbop-adv-ts-master.m3u8")
        }
        let stream = StreamDescription(master)
        let bandwidths = stream.variantInfos.map(\.bandwidthBitsPerSecond)
        #expect(bandwidths == bandwidths.sorted())
        #expect(stream.variants.count == master.variants.count)
        #expect(stream.variantInfos.first?.height == 270)
        #expect(stream.variantInfos.last?.height == 1080)
        #expect(stream.variantInfos.last?.codecs == ["avc1.64002a", "ac-3"])
        #expect(stream.renditions.filter { $0.kind == .subtitles }.compactMap(\.language) == ["en"])
        #expect(stream.renditions.filter { $0.kind == .audio }.count == 3)
        // Portrait inline (780 × 438 px): 540p at most; landscape full screen: everything.
        let portraitCap = QualitySelector.viewportCap(variants: stream.variantInfos, viewport: Fixtures.portrait)
        #expect((stream.variantInfos[portraitCap].height ?? 0) <= 540)
        #expect(QualitySelector.viewportCap(variants: stream.variantInfos, viewport: Fixtures.landscape) == stream.variants.count - 1)
    }

    @Test func everyCorpusPlaylistConvertsWithoutTrapping() {
        for entry in CorpusPlaylists.parsed {
            switch PlaybackMachine.LoadedPlaylist(entry.playlist) {
            case .media(let timeline):
                for (previous, segment) in zip(timeline.segments, timeline.segments.dropFirst()) {
                    #expect(segment.startSeconds >= previous.startSeconds, "\(entry.name)")
                    #expect(segment.mediaSequence == previous.mediaSequence + 1, "\(entry.name)")
                }
            case .multivariant(let stream):
                #expect(stream.variantInfos.map(\.index) == Array(stream.variants.indices), "\(entry.name)")
            }
        }
    }
}
