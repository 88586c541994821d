import HLS
import Testing

@testable import Packaging

@Suite struct PlaylistBuilderTests {
    /// Three 2 s segments at 30 fps (the last 1 s), each starting with its keyframe at offset 0.
    static func videoRecords(bytes: [Int] = [250_000, 200_000, 90_000], withDates: Bool = false) -> [SegmentRecord] {
        let frames: [Int64] = [60, 60, 30]
        var start: Int64 = 0
        return zip(frames, bytes).enumerated().map { index, pair in
            let (count, size) = pair
            defer { start += count }
            return SegmentRecord(
                uri: "seg_0000\(index).ts", startTime: Timestamp(start, timescale: 30),
                duration: Timestamp(count, timescale: 30), byteSize: size,
                keyframes: [
                    KeyframeRange(
                        presentationTime: Timestamp(start, timescale: 30), offset: 0, length: 20_000 + index * 100)
                ],
                programDateTimeMilliseconds: withDates ? 1_790_000_000_000 + start * 1000 / 30 : nil)
        }
    }

    static let builder = PlaylistBuilder(mode: .vod, nominalSegmentDuration: .seconds(2))

    @Test func vodMediaPlaylistListsEveryRealDurationAndEnds() {
        let text = PlaylistBuilder.text(
            of: .media(Self.builder.mediaPlaylist(Self.videoRecords(), initSegmentURI: nil, isFinished: true)))
        #expect(
            text == """
                #EXTM3U
                #EXT-X-VERSION:3
                #EXT-X-TARGETDURATION:2
                #EXT-X-PLAYLIST-TYPE:VOD
                #EXTINF:2.000,
                seg_00000.ts
                #EXTINF:2.000,
                seg_00001.ts
                #EXTINF:1.000,
                seg_00002.ts
                #EXT-X-ENDLIST

                """)
    }

    @Test func fragmentedMP4PlaylistsNameTheInitSegmentAndNeedVersion6() {
        let playlist = Self.builder.mediaPlaylist(Self.videoRecords(), initSegmentURI: "init.mp4", isFinished: true)
        let text = PlaylistBuilder.text(of: .media(playlist))
        #expect(text.hasPrefix("#EXTM3U\n#EXT-X-VERSION:6\n"))
        #expect(text.contains("#EXT-X-MAP:URI=\"init.mp4\"\n#EXTINF:2.000,\nseg_00000.ts\n"))
        #expect(text.split(separator: "\n").filter { $0.hasPrefix("#EXT-X-MAP") }.count == 1)
    }

    @Test func liveEventPlaylistCarriesDatesAndEndsOnlyWhenFinished() {
        let builder = PlaylistBuilder(mode: .event, nominalSegmentDuration: .seconds(2))
        let records = Self.videoRecords(withDates: true)
        let growing = PlaylistBuilder.text(
            of: .media(builder.mediaPlaylist(Array(records.prefix(2)), initSegmentURI: nil, isFinished: false)))
        #expect(
            growing == """
                #EXTM3U
                #EXT-X-VERSION:3
                #EXT-X-TARGETDURATION:2
                #EXT-X-PLAYLIST-TYPE:EVENT
                #EXT-X-PROGRAM-DATE-TIME:2026-09-21T14:13:20.000Z
                #EXTINF:2.000,
                seg_00000.ts
                #EXT-X-PROGRAM-DATE-TIME:2026-09-21T14:13:22.000Z
                #EXTINF:2.000,
                seg_00001.ts

                """)
        let ended = PlaylistBuilder.text(
            of: .media(builder.mediaPlaylist(records, initSegmentURI: nil, isFinished: true)))
        #expect(ended.hasSuffix("seg_00002.ts\n#EXT-X-ENDLIST\n"))
    }

    @Test func slidingWindowKeepsTheLastSegmentsAndCountsTheSequence() {
        let builder = PlaylistBuilder(mode: .slidingWindow(segments: 2), nominalSegmentDuration: .seconds(2))
        let playlist = builder.mediaPlaylist(Self.videoRecords(), initSegmentURI: nil, isFinished: false)
        #expect(playlist.mediaSequence == 1)
        #expect(playlist.playlistType == nil)
        #expect(playlist.segments.map(\.uri) == ["seg_00001.ts", "seg_00002.ts"])
        #expect(!playlist.endList)
        let text = PlaylistBuilder.text(of: .media(playlist))
        #expect(text.contains("#EXT-X-MEDIA-SEQUENCE:1\n"))
    }

    @Test func targetDurationRoundsTheLongestSegmentAndNeverDropsBelowTheNominal() {
        var records = Self.videoRecords()
        records[1].duration = Timestamp(2_490, timescale: 1000)  // rounds to 2
        #expect(Self.builder.targetDuration(for: records) == 2)
        records[1].duration = Timestamp(2_510, timescale: 1000)  // rounds to 3
        #expect(Self.builder.targetDuration(for: records) == 3)
        let sixSeconds = PlaylistBuilder(mode: .vod, nominalSegmentDuration: .seconds(6))
        #expect(sixSeconds.targetDuration(for: Self.videoRecords()) == 6)
    }

    @Test func iFramePlaylistPointsAtEachKeyframeByByteRange() {
        let text = PlaylistBuilder.text(
            of: .media(Self.builder.iFramePlaylist(Self.videoRecords(), initSegmentURI: nil, isFinished: true)))
        #expect(
            text == """
                #EXTM3U
                #EXT-X-VERSION:4
                #EXT-X-TARGETDURATION:2
                #EXT-X-PLAYLIST-TYPE:VOD
                #EXT-X-I-FRAMES-ONLY
                #EXT-X-BYTERANGE:20000@0
                #EXTINF:2.000,
                seg_00000.ts
                #EXT-X-BYTERANGE:20100@0
                #EXTINF:2.000,
                seg_00001.ts
                #EXT-X-BYTERANGE:20200@0
                #EXTINF:1.000,
                seg_00002.ts
                #EXT-X-ENDLIST

                """)
    }

    static func presentation() -> Presentation {
        let audio = (0..<3).map { index in
            SegmentRecord(
                uri: "seg_0000\(index).ts", startTime: Timestamp(Int64(index) * 96_000, timescale: 48_000),
                duration: Timestamp(index == 2 ? 48_000 : 96_000, timescale: 48_000),
                byteSize: index == 2 ? 17_000 : 34_000)
        }
        let subtitles = { (language: String) in
            (0..<3).map { index in
                SegmentRecord(
                    uri: "seg_0000\(index).vtt", startTime: .seconds(Int64(index) * 2),
                    duration: .seconds(index == 2 ? 1 : 2), byteSize: 200)
            }
        }
        return Presentation(
            videos: [
                VideoTrack(
                    playlistURI: "360p/index.m3u8", iFramePlaylistURI: "360p/iframes.m3u8", width: 640, height: 360,
                    frameRate: 30, codecs: "avc1.64001e", segments: videoRecords(bytes: [150_000, 120_000, 50_000])),
                VideoTrack(
                    playlistURI: "720p/index.m3u8", iFramePlaylistURI: "720p/iframes.m3u8", width: 1280, height: 720,
                    frameRate: 30, codecs: "avc1.64001f", segments: videoRecords()),
            ],
            audio: AudioTrack(playlistURI: "audio/index.m3u8", name: "Microphone", channels: 2, segments: audio),
            subtitles: [
                SubtitleTrack(
                    playlistURI: "subs/ko/index.m3u8", name: "한국어", language: "ko", segments: subtitles("ko")),
                SubtitleTrack(
                    playlistURI: "subs/en/index.m3u8", name: "English", language: "en", segments: subtitles("en")),
            ])
    }

    @Test func multivariantPlaylistAdvertisesMeasuredPeakAndAverageBandwidth() {
        let text = PlaylistBuilder.text(of: .multivariant(Self.builder.multivariantPlaylist(Self.presentation())))
        // 720p peak: 250000 B / 2 s = 1,000,000 bit/s; audio peak 136,000; subtitles peak 200 B / 1 s = 1,600 → 1,137,600.
        // 720p average: 540000 B × 8 / 5 s = 864,000; audio 85,000 B × 8 / 5 s = 136,000; subtitles 600 × 8 / 5 = 960.
        #expect(
            text == """
                #EXTM3U
                #EXT-X-VERSION:4
                #EXT-X-INDEPENDENT-SEGMENTS
                #EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID="audio",NAME="Microphone",DEFAULT=YES,AUTOSELECT=YES,CHANNELS="2",URI="audio/index.m3u8"
                #EXT-X-MEDIA:TYPE=SUBTITLES,GROUP-ID="subs",NAME="한국어",LANGUAGE="ko",AUTOSELECT=YES,URI="subs/ko/index.m3u8"
                #EXT-X-MEDIA:TYPE=SUBTITLES,GROUP-ID="subs",NAME="English",LANGUAGE="en",AUTOSELECT=YES,URI="subs/en/index.m3u8"
                #EXT-X-STREAM-INF:BANDWIDTH=1137600,AVERAGE-BANDWIDTH=1000960,CODECS="avc1.64001f,mp4a.40.2",RESOLUTION=1280x720,FRAME-RATE=30.0,AUDIO="audio",SUBTITLES="subs",CLOSED-CAPTIONS=NONE
                720p/index.m3u8
                #EXT-X-STREAM-INF:BANDWIDTH=737600,AVERAGE-BANDWIDTH=648960,CODECS="avc1.64001e,mp4a.40.2",RESOLUTION=640x360,FRAME-RATE=30.0,AUDIO="audio",SUBTITLES="subs",CLOSED-CAPTIONS=NONE
                360p/index.m3u8
                #EXT-X-I-FRAME-STREAM-INF:BANDWIDTH=161600,AVERAGE-BANDWIDTH=96480,CODECS="avc1.64001f",RESOLUTION=1280x720,URI="720p/iframes.m3u8"
                #EXT-X-I-FRAME-STREAM-INF:BANDWIDTH=161600,AVERAGE-BANDWIDTH=96480,CODECS="avc1.64001e",RESOLUTION=640x360,URI="360p/iframes.m3u8"

                """)
    }

    @Test func everySegmentBitRateIsAtMostTheAdvertisedBandwidth() {
        let presentation = Self.presentation()
        let master = Self.builder.multivariantPlaylist(presentation)
        for (variant, video) in zip(master.variants, presentation.videos.reversed()) {
            for record in video.segments { #expect(record.bitsPerSecond <= Double(variant.bandwidth)) }
        }
    }

    @Test func fragmentedMP4MasterNeedsVersion6() {
        var presentation = Self.presentation()
        presentation.initSegmentURI = "init.mp4"
        #expect(Self.builder.multivariantPlaylist(presentation).version == 6)
    }

    @Test func writtenPlaylistsParseBackWithoutErrors() {
        let master = PlaylistBuilder.text(of: .multivariant(Self.builder.multivariantPlaylist(Self.presentation())))
        let media = PlaylistBuilder.text(
            of: .media(Self.builder.mediaPlaylist(Self.videoRecords(), initSegmentURI: nil, isFinished: true)))
        for text in [master, media] {
            let result = HLS.parse(text)
            #expect(result.playlist != nil)
            #expect(result.diagnostics.filter { $0.severity == .error }.isEmpty)
        }
    }
}
