import HLS
import Testing

@testable import Packaging

@Suite struct SegmentEncryptionTests {
    static let prefix: [UInt8] = [0xA0, 0xA1, 0xA2, 0xA3, 0xA4, 0xA5, 0xA6, 0xA7]
    static let rotating = SegmentEncryption(videoID: "warm-film", segmentsPerKey: 2, ivPrefix: prefix)
    static let single = SegmentEncryption(videoID: "warm-film", segmentsPerKey: nil, ivPrefix: prefix)

    @Test func aNewKeyStartsEveryNSegmentsAndOneKeyServesAWholeVideoByDefault() {
        #expect((0..<7).map { Self.rotating.keyIndex(forSegment: $0) } == [0, 0, 1, 1, 2, 2, 3])
        #expect(
            (0..<7).map { Self.rotating.startsKeyPeriod(segment: $0) } == [true, false, true, false, true, false, true])
        #expect((0..<7).map { Self.single.keyIndex(forSegment: $0) } == [0, 0, 0, 0, 0, 0, 0])
        #expect((0..<3).map { Self.single.startsKeyPeriod(segment: $0) } == [true, false, false])
    }

    @Test func everyKeyHasItsOwnIVAndAURIThatServeAnswers() {
        let ivs = (0..<300).map { Self.rotating.iv(forKey: $0) }
        #expect(Set(ivs).count == 300)
        #expect(ivs.allSatisfy { $0.count == 16 && Array($0.prefix(8)) == Self.prefix })
        #expect(Self.rotating.iv(forKey: 258).suffix(2) == [1, 2])
        #expect(Self.rotating.keyURI(forKey: 3) == "/v1/videos/warm-film/keys/3.key")
        let odd = SegmentEncryption(videoID: "a b/한", segmentsPerKey: nil, ivPrefix: Self.prefix)
        #expect(odd.keyURI(forKey: 0) == "/v1/videos/a%20b%2F%ED%95%9C/keys/0.key")
    }

    @Test func mediaPlaylistDeclaresAKeyBeforeEachKeyPeriodAfterTheMap() {
        let records = PlaylistBuilderTests.videoRecords()
        let playlist = PlaylistBuilderTests.builder.mediaPlaylist(
            records, initSegmentURI: "init.mp4", isFinished: true, encryption: Self.rotating)
        let text = PlaylistBuilder.text(of: .media(playlist))
        #expect(
            text == """
                #EXTM3U
                #EXT-X-VERSION:6
                #EXT-X-TARGETDURATION:2
                #EXT-X-PLAYLIST-TYPE:VOD
                #EXT-X-MAP:URI="init.mp4"
                #EXT-X-KEY:METHOD=AES-128,URI="/v1/videos/warm-film/keys/0.key",IV=0xA0A1A2A3A4A5A6A70000000000000000
                #EXTINF:2.000,
                seg_00000.ts
                #EXTINF:2.000,
                seg_00001.ts
                #EXT-X-KEY:METHOD=AES-128,URI="/v1/videos/warm-film/keys/1.key",IV=0xA0A1A2A3A4A5A6A70000000000000001
                #EXTINF:1.000,
                seg_00002.ts
                #EXT-X-ENDLIST

                """)
        // Parsed back, the map still comes before the key, so a writer round trip keeps the init section clear.
        guard case .media(let parsed)? = HLS.parse(Array(text.utf8)).playlist else {
            Issue.record("does not parse")
            return
        }
        #expect(parsed.segments[0].mapPrecedesKeys)
        #expect(PlaylistWriter(mode: .canonical).write(.media(parsed)) == text)
    }

    @Test func aSlidingWindowDeclaresTheKeyInEffectAtItsFirstSegment() {
        let builder = PlaylistBuilder(mode: .slidingWindow(segments: 2), nominalSegmentDuration: .seconds(2))
        var records = PlaylistBuilderTests.videoRecords() + PlaylistBuilderTests.videoRecords()
        for index in records.indices { records[index].uri = "seg_\(index).ts" }
        let encryption = SegmentEncryption(videoID: "v", segmentsPerKey: 4, ivPrefix: Self.prefix)
        let playlist = builder.mediaPlaylist(records, initSegmentURI: nil, isFinished: false, encryption: encryption)
        #expect(playlist.mediaSequence == 4)
        #expect(playlist.segments.map(\.keys.count) == [1, 0])
        #expect(playlist.segments[0].keys.first?.uri == "/v1/videos/v/keys/1.key")
        let earlier = builder.mediaPlaylist(
            Array(records.prefix(5)), initSegmentURI: nil, isFinished: false, encryption: encryption)
        #expect(earlier.segments.map { $0.keys.first?.uri } == ["/v1/videos/v/keys/0.key", "/v1/videos/v/keys/1.key"])
    }

    @Test func iFramePlaylistCarriesTheSameKeysAsItsVariant() {
        let records = PlaylistBuilderTests.videoRecords()
        let playlist = PlaylistBuilderTests.builder.iFramePlaylist(
            records, initSegmentURI: nil, isFinished: true, encryption: Self.rotating)
        #expect(
            playlist.segments.map { $0.keys.map(\.uri) } == [
                ["/v1/videos/warm-film/keys/0.key"], [], ["/v1/videos/warm-film/keys/1.key"],
            ])
        #expect(playlist.segments[2].keys.first?.iv?.bytes == Self.rotating.iv(forKey: 1))
        let clear = PlaylistBuilderTests.builder.iFramePlaylist(records, initSegmentURI: nil, isFinished: true)
        #expect(clear.segments.allSatisfy { $0.keys.isEmpty })
    }

    /// A 720p track of `records`.
    static func video(_ records: [SegmentRecord]) -> VideoTrack {
        VideoTrack(
            playlistURI: "720p/index.m3u8", iFramePlaylistURI: "720p/iframes.m3u8", width: 1280, height: 720,
            frameRate: 30, codecs: "avc1.64001f", segments: records)
    }

    /// Records of encrypted segments, whose keyframes are resources of their own (`seg_0000N.iframe.ts`).
    static func encryptedRecords() -> [SegmentRecord] {
        PlaylistBuilderTests.videoRecords().enumerated().map { index, record in
            var record = record
            record.keyframes = record.keyframes.map {
                KeyframeRange(
                    presentationTime: $0.presentationTime, offset: 0, length: 20_016 + index * 96,
                    resourceURI: KeyframeRange.resourceName(segment: index, keyframe: 0, extension: "ts"))
            }
            return record
        }
    }

    @Test func anEncryptedSegmentsIFramesAreResourcesOfTheirOwnUnderItsKey() {
        let playlist = PlaylistBuilderTests.builder.iFramePlaylist(
            Self.encryptedRecords(), initSegmentURI: nil, isFinished: true, encryption: Self.rotating)
        #expect(
            PlaylistBuilder.text(of: .media(playlist)) == """
                #EXTM3U
                #EXT-X-VERSION:4
                #EXT-X-TARGETDURATION:2
                #EXT-X-PLAYLIST-TYPE:VOD
                #EXT-X-I-FRAMES-ONLY
                #EXT-X-KEY:METHOD=AES-128,URI="/v1/videos/warm-film/keys/0.key",IV=0xA0A1A2A3A4A5A6A70000000000000000
                #EXTINF:2.000,
                seg_00000.iframe.ts
                #EXTINF:2.000,
                seg_00001.iframe.ts
                #EXT-X-KEY:METHOD=AES-128,URI="/v1/videos/warm-film/keys/1.key",IV=0xA0A1A2A3A4A5A6A70000000000000001
                #EXTINF:1.000,
                seg_00002.iframe.ts
                #EXT-X-ENDLIST

                """)
        #expect(KeyframeRange.resourceName(segment: 12, keyframe: 1, extension: "m4s") == "seg_00012.iframe1.m4s")
        #expect(Self.encryptedRecords()[2].fileURIs == ["seg_00002.ts", "seg_00002.iframe.ts"])
        #expect(PlaylistBuilderTests.videoRecords()[2].fileURIs == ["seg_00002.ts"])
    }

    @Test func theIFrameVariantsBandwidthIsMeasuredFromItsResources() {
        let master = PlaylistBuilderTests.builder.multivariantPlaylist(
            Presentation(videos: [Self.video(Self.encryptedRecords())], encryption: Self.rotating))
        // Peak: the 1 s I-frame, 20 208 bytes; average: 60 336 bytes over 5 s.
        #expect(master.iFrameVariants.map(\.bandwidth) == [20_208 * 8])
        #expect(master.iFrameVariants.map(\.averageBandwidth) == [Int((60_336.0 * 8 / 5).rounded(.up))])
    }

    @Test func multivariantPlaylistNamesTheFirstKeyAsSessionKeyAndClearStreamsNone() {
        let video = Self.video(PlaylistBuilderTests.videoRecords())
        let encrypted = PlaylistBuilderTests.builder.multivariantPlaylist(
            Presentation(videos: [video], encryption: Self.rotating))
        #expect(encrypted.sessionKeys == [Self.rotating.key(forKey: 0)])
        let text = PlaylistBuilder.text(of: .multivariant(encrypted))
        #expect(
            text.contains(
                "#EXT-X-SESSION-KEY:METHOD=AES-128,URI=\"/v1/videos/warm-film/keys/0.key\",IV=0xA0A1A2A3A4A5A6A70000000000000000\n"
            ))
        #expect(PlaylistBuilderTests.builder.multivariantPlaylist(Presentation(videos: [video])).sessionKeys.isEmpty)
    }
}
