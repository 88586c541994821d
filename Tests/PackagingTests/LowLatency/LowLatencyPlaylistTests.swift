import HLS
import Testing

@testable import Packaging

@Suite struct LowLatencyPlaylistTests {
    static let partTarget = Timestamp(10, timescale: 30)
    static let origin: Int64 = 1_790_000_000_000

    /// Segment `index` (2 s at 30 fps) with six 10-frame parts, or the first `parts` of them.
    static func parts(of index: Int, count: Int = 6) -> [PartRecord] {
        (0..<count).map { part in
            PartRecord(
                uri: PartRecord.name(segment: index, part: part, extension: "m4s"),
                startTime: Timestamp(Int64(index * 60 + part * 10), timescale: 30), duration: partTarget,
                isIndependent: part == 0, byteSize: 1000)
        }
    }

    static func segment(_ index: Int) -> SegmentRecord {
        SegmentRecord(
            uri: "seg_0000\(index).m4s", startTime: Timestamp(Int64(index * 60), timescale: 30),
            duration: Timestamp(60, timescale: 30), byteSize: 6000,
            programDateTimeMilliseconds: origin + Int64(index) * 2000, parts: parts(of: index))
    }

    static func edge(_ index: Int, parts count: Int) -> LiveEdge {
        LiveEdge(
            sequence: index, parts: parts(of: index, count: count),
            programDateTimeMilliseconds: origin + Int64(index) * 2000,
            nextPartURI: PartRecord.name(segment: index, part: count, extension: "m4s"))
    }

    /// The head of an EVENT playlist of these segments, down to segment 0 (which keeps no parts).
    static let eventHead = """
        #EXTM3U
        #EXT-X-VERSION:9
        #EXT-X-TARGETDURATION:2
        #EXT-X-MEDIA-SEQUENCE:0
        #EXT-X-PLAYLIST-TYPE:EVENT
        #EXT-X-SERVER-CONTROL:CAN-SKIP-UNTIL=12.0,HOLD-BACK=6.0,PART-HOLD-BACK=1.0,CAN-BLOCK-RELOAD=YES
        #EXT-X-PART-INF:PART-TARGET=0.3333333333333333
        #EXT-X-MAP:URI="init.mp4"
        #EXT-X-PROGRAM-DATE-TIME:2026-09-21T14:13:20.000Z
        #EXTINF:2.000,
        seg_00000.m4s

        """

    @Test func theLiveEdgeListsRecentPartsOneHintAndTheOtherRenditions() {
        let builder = PlaylistBuilder(mode: .event, nominalSegmentDuration: .seconds(2))
        let playlist = builder.lowLatencyMediaPlaylist(
            (0..<4).map(Self.segment), edge: Self.edge(4, parts: 2), partTarget: Self.partTarget,
            initSegmentURI: "init.mp4",
            renditionReports: [RenditionReport(uri: "../540p/index.m3u8", lastMediaSequenceNumber: 4, lastPart: 1)])
        let text = PlaylistBuilder.text(of: .media(playlist))
        // Edge at 8.667 s: segments ending after 2.667 s keep their parts (1, 2 and 3); segment 0 does not.
        var expected = Self.eventHead
        for index in 1..<4 {
            expected += "#EXT-X-PROGRAM-DATE-TIME:2026-09-21T14:13:2\(index * 2).000Z\n"
            for part in 0..<6 {
                expected +=
                    "#EXT-X-PART:DURATION=0.3333333333333333,URI=\"seg_0000\(index).p\(part).m4s\""
                    + (part == 0 ? ",INDEPENDENT=YES" : "") + "\n"
            }
            expected += "#EXTINF:2.000,\nseg_0000\(index).m4s\n"
        }
        expected += """
            #EXT-X-PROGRAM-DATE-TIME:2026-09-21T14:13:28.000Z
            #EXT-X-PART:DURATION=0.3333333333333333,URI="seg_00004.p0.m4s",INDEPENDENT=YES
            #EXT-X-PART:DURATION=0.3333333333333333,URI="seg_00004.p1.m4s"
            #EXT-X-PRELOAD-HINT:TYPE=PART,URI="seg_00004.p2.m4s"
            #EXT-X-RENDITION-REPORT:URI="../540p/index.m3u8",LAST-MSN=4,LAST-PART=1

            """
        #expect(text == expected)
        #expect(parseAndValidate(Array(text.utf8)).diagnostics.isEmpty)
    }

    @Test func theFinishedPlaylistEndsWithoutAHintOrParts() {
        let builder = PlaylistBuilder(mode: .event, nominalSegmentDuration: .seconds(2))
        let playlist = builder.lowLatencyMediaPlaylist(
            (0..<2).map(Self.segment), edge: nil, partTarget: Self.partTarget, initSegmentURI: "init.mp4",
            renditionReports: [])
        #expect(
            PlaylistBuilder.text(of: .media(playlist)) == Self.eventHead + """
                #EXT-X-PROGRAM-DATE-TIME:2026-09-21T14:13:22.000Z
                #EXTINF:2.000,
                seg_00001.m4s
                #EXT-X-ENDLIST

                """)
    }

    @Test func aSlidingWindowCountsMediaSequenceNumbersFromTheFirstListedSegment() {
        let builder = PlaylistBuilder(mode: .slidingWindow(segments: 2), nominalSegmentDuration: .seconds(2))
        let playlist = builder.lowLatencyMediaPlaylist(
            (0..<5).map(Self.segment), edge: Self.edge(5, parts: 0), partTarget: Self.partTarget,
            initSegmentURI: "init.mp4", renditionReports: [])
        #expect(playlist.mediaSequence == 3)
        #expect(playlist.segments.map(\.uri) == ["seg_00003.m4s", "seg_00004.m4s"])
        #expect(playlist.incompleteSegment == nil)
        #expect(playlist.preloadHints == [PreloadHint(type: .part, uri: "seg_00005.p0.m4s")])
        #expect(playlist.playlistType == nil)
    }

    @Test func anEncryptedPlaylistNamesTheKeyOfEachPeriodTheSegmentInProgressIncluded() {
        let encryption = SegmentEncryption(videoID: "v", segmentsPerKey: 2, ivPrefix: Array(repeating: 7, count: 8))
        let builder = PlaylistBuilder(mode: .slidingWindow(segments: 3), nominalSegmentDuration: .seconds(2))
        func playlist(edgeAt index: Int) -> MediaPlaylist {
            builder.lowLatencyMediaPlaylist(
                (0..<index).map(Self.segment), edge: Self.edge(index, parts: 2), partTarget: Self.partTarget,
                initSegmentURI: "init.mp4", renditionReports: [], encryption: encryption)
        }
        // Segments 1, 2, 3 listed, 4 in progress: key 0 where the window starts, key 1 at 2, key 2 at 4.
        let rotating = playlist(edgeAt: 4)
        #expect(
            rotating.segments.map { $0.keys.map(\.uri) } == [
                ["/v1/videos/v/keys/0.key"], ["/v1/videos/v/keys/1.key"], [],
            ])
        #expect(rotating.incompleteSegment?.keys == [encryption.key(forKey: 2)])
        // Segment 5 in progress continues key 2: no tag of its own.
        #expect(playlist(edgeAt: 5).incompleteSegment?.keys == [])
        let text = PlaylistBuilder.text(of: .media(rotating))
        #expect(text.contains("#EXT-X-MAP:URI=\"init.mp4\"\n#EXT-X-KEY:METHOD=AES-128,URI=\"/v1/videos/v/keys/0.key\""))
        #expect(text.contains("seg_00003.m4s\n#EXT-X-KEY:METHOD=AES-128,URI=\"/v1/videos/v/keys/2.key\""))
        #expect(parseAndValidate(Array(text.utf8)).errors.isEmpty)
        // Before any segment closes, the first parts carry the key after the map.
        let first = playlist(edgeAt: 0)
        #expect(first.incompleteSegment?.keys == [encryption.key(forKey: 0)])
        #expect(first.incompleteSegment?.mapPrecedesKeys == true)
    }

    @Test func aRenditionReportNamesTheLastPartOfTheOtherTrack() {
        let records = (0..<3).map(Self.segment)
        #expect(
            PlaylistBuilder.renditionReport(uri: "../a.m3u8", records: records, edge: Self.edge(3, parts: 4))
                == RenditionReport(uri: "../a.m3u8", lastMediaSequenceNumber: 3, lastPart: 3))
        #expect(
            PlaylistBuilder.renditionReport(uri: "../a.m3u8", records: records, edge: Self.edge(3, parts: 0))
                == RenditionReport(uri: "../a.m3u8", lastMediaSequenceNumber: 2, lastPart: 5))
    }
}
