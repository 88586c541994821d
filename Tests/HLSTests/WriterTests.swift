import Notation
import Testing

@testable import HLS

@Suite struct WriterTests {
    @Test(arguments: Corpus.files)
    func anUneditedParsedPlaylistIsWrittenBackByteForByte(file: Corpus.File) throws {
        let playlist = try #require(HLS.parse(file.bytes).playlist)
        #expect(PlaylistWriter().writeBytes(playlist) == file.bytes)
    }

    @Test(arguments: Corpus.valid)
    func canonicalTextReadsBackAsTheSamePlaylist(file: Corpus.File) throws {
        let options = ParseOptions(playlistURI: nil)
        let playlist = try #require(HLS.parse(file.bytes, options: options).playlist)
        let text = PlaylistWriter(mode: .canonical).write(playlist)
        let reparsed = HLS.parse(text, options: options)
        #expect(reparsed.playlist == playlist, "canonical text:\n\(text)")
        #expect(reparsed.errors.isEmpty, "\(reparsed.errors)")
        // And the canonical text is stable.
        let again = try #require(reparsed.playlist)
        #expect(PlaylistWriter(mode: .canonical).write(again) == text)
    }

    @Test(arguments: Corpus.files)
    func everyCorpusPlaylistSurvivesACanonicalRoundTrip(file: Corpus.File) throws {
        // Invalid files too: whatever the lenient parser made of them reads back the same, except where the
        // model cannot say what the text said (a dropped URI line, an EXTINF without URI).
        let playlist = try #require(HLS.parse(file.bytes).playlist)
        let text = PlaylistWriter(mode: .canonical).write(playlist)
        let reparsed = try #require(HLS.parse(text).playlist)
        let once = PlaylistWriter(mode: .canonical).write(reparsed)
        #expect(once == text)
    }

    @Test func editingOneSegmentRewritesOnlyThatSegment() throws {
        let input = """
            #EXTM3U
            #EXT-X-VERSION:3
            # a comment that stays
            #EXT-X-TARGETDURATION:10

            #EXTINF:9.009,
            http://media.example.com/first.ts
            #EXTINF:9.009,
            http://media.example.com/second.ts
            #EXTINF:3.003,
            http://media.example.com/third.ts
            #EXT-X-ENDLIST

            """.replacingOccurrences(of: "\n", with: "\r\n")
        guard case .media(var playlist)? = HLS.parse(input).playlist else {
            Issue.record("not a media playlist")
            return
        }
        playlist.segments[1].uri = "http://media.example.com/second-fixed.ts"
        playlist.segments[1].duration = 9
        let expected = """
            #EXTM3U\r
            #EXT-X-VERSION:3\r
            # a comment that stays\r
            #EXT-X-TARGETDURATION:10\r
            \r
            #EXTINF:9.009,\r
            http://media.example.com/first.ts\r
            #EXTINF:9.000,
            http://media.example.com/second-fixed.ts
            #EXTINF:3.003,\r
            http://media.example.com/third.ts\r
            #EXT-X-ENDLIST\r

            """
        #expect(PlaylistWriter().write(playlist) == expected)
    }

    @Test func changingAPlaylistTagRewritesTheHeaderAndKeepsUneditedSegments() throws {
        let input = "#EXTM3U\n#EXT-X-TARGETDURATION:10\n#EXTINF:9.5,title\r\na.ts\n#EXTINF:9.5,\nb.ts\n"
        guard case .media(var playlist)? = HLS.parse(input).playlist else {
            Issue.record("not a media playlist")
            return
        }
        playlist.endList = true
        playlist.segments.append(Segment(uri: "c.ts", duration: 4))
        #expect(
            PlaylistWriter().write(playlist)
                == "#EXTM3U\n#EXT-X-TARGETDURATION:10\n#EXTINF:9.5,title\r\na.ts\n#EXTINF:9.5,\nb.ts\n"
                + "#EXTINF:4.000,\nc.ts\n#EXT-X-ENDLIST\n")
    }

    @Test func editingOneVariantCopiesTheOtherElementsThrough() {
        let input = """
            #EXTM3U\r
            #EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID="aud",NAME="English",LANGUAGE="en",URI="en.m3u8"\r
            #EXT-X-STREAM-INF:BANDWIDTH=1280000,AUDIO="aud"\r
            # low
            low.m3u8\r
            #EXT-X-STREAM-INF:BANDWIDTH=2560000,AUDIO="aud"\r
            mid.m3u8\r

            """
        guard case .multivariant(var playlist)? = HLS.parse(input).playlist else {
            Issue.record("not a multivariant playlist")
            return
        }
        playlist.variants[1].bandwidth = 2_000_000
        let expected = """
            #EXTM3U
            #EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID="aud",NAME="English",LANGUAGE="en",URI="en.m3u8"\r
            #EXT-X-STREAM-INF:BANDWIDTH=1280000,AUDIO="aud"\r
            # low
            low.m3u8\r
            #EXT-X-STREAM-INF:BANDWIDTH=2000000,AUDIO="aud"
            mid.m3u8

            """
        #expect(PlaylistWriter().write(playlist) == expected)
        #expect(HLS.parse(expected).playlist == .multivariant(playlist))
    }

    @Test func aMediaPlaylistBuiltInCodeIsWrittenCanonically() {
        var key = Key(method: .aes128, uri: "https://keys.example.com/k1")
        key.iv = HexadecimalSequence(bytes: [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1])
        let playlist = MediaPlaylist(
            version: 7, independentSegments: true, targetDuration: 6, mediaSequence: 0, playlistType: .vod,
            segments: [
                Segment(
                    uri: "v0/seg0.m4s", duration: 6.006, keys: [key], map: Map(uri: "v0/init.mp4"),
                    programDateTime: DateTime(
                        year: 2026, month: 11, day: 29, hour: 12, second: 1, nanosecond: 500_000_000)),
                Segment(uri: "v0/seg1.m4s", duration: 6, byteRange: ByteRange(length: 1000, offset: 0)),
                Segment(uri: "v0/seg2.m4s", duration: 1.0 / 3.0, title: "last", discontinuity: true),
            ],
            endList: true)
        let expected = """
            #EXTM3U
            #EXT-X-VERSION:7
            #EXT-X-TARGETDURATION:6
            #EXT-X-MEDIA-SEQUENCE:0
            #EXT-X-PLAYLIST-TYPE:VOD
            #EXT-X-INDEPENDENT-SEGMENTS
            #EXT-X-KEY:METHOD=AES-128,URI="https://keys.example.com/k1",IV=0x00000000000000000000000000000001
            #EXT-X-MAP:URI="v0/init.mp4"
            #EXT-X-PROGRAM-DATE-TIME:2026-11-29T12:00:01.500Z
            #EXTINF:6.006,
            v0/seg0.m4s
            #EXT-X-BYTERANGE:1000@0
            #EXTINF:6.000,
            v0/seg1.m4s
            #EXT-X-DISCONTINUITY
            #EXTINF:0.3333333333333333,last
            v0/seg2.m4s
            #EXT-X-ENDLIST

            """
        let text = PlaylistWriter().write(.media(playlist))
        #expect(text == expected)
        #expect(HLS.parse(text).playlist == .media(playlist))
        #expect(HLS.parse(text).diagnostics.isEmpty)
    }

    @Test func aMultivariantPlaylistBuiltInCodeIsWrittenCanonically() {
        let playlist = MultivariantPlaylist(
            version: 6, independentSegments: true,
            renditions: [
                Rendition(
                    type: .subtitles, groupID: "subs", name: "한국어", uri: "subs/ko/index.m3u8", language: "ko",
                    isDefault: true, autoselect: true),
                Rendition(
                    type: .subtitles, groupID: "subs", name: "English", uri: "subs/en/index.m3u8", language: "en",
                    autoselect: true),
            ],
            variants: [
                Variant(
                    uri: "v0/index.m3u8", bandwidth: 2_200_000, averageBandwidth: 2_000_000,
                    codecs: "avc1.64001f,mp4a.40.2", resolution: Resolution(width: 1280, height: 720), frameRate: 30,
                    subtitles: "subs", closedCaptions: ClosedCaptionsReference.none),
                Variant(
                    uri: "v1/index.m3u8", bandwidth: 800_000, codecs: "avc1.4d401e,mp4a.40.2",
                    resolution: Resolution(width: 640, height: 360), frameRate: 29.97, subtitles: "subs"),
            ])
        let expected = """
            #EXTM3U
            #EXT-X-VERSION:6
            #EXT-X-INDEPENDENT-SEGMENTS
            #EXT-X-MEDIA:TYPE=SUBTITLES,GROUP-ID="subs",NAME="한국어",LANGUAGE="ko",DEFAULT=YES,AUTOSELECT=YES,URI="subs/ko/index.m3u8"
            #EXT-X-MEDIA:TYPE=SUBTITLES,GROUP-ID="subs",NAME="English",LANGUAGE="en",AUTOSELECT=YES,URI="subs/en/index.m3u8"
            #EXT-X-STREAM-INF:BANDWIDTH=2200000,AVERAGE-BANDWIDTH=2000000,CODECS="avc1.64001f,mp4a.40.2",RESOLUTION=1280x720,FRAME-RATE=30.0,SUBTITLES="subs",CLOSED-CAPTIONS=NONE
            v0/index.m3u8
            #EXT-X-STREAM-INF:BANDWIDTH=800000,CODECS="avc1.4d401e,mp4a.40.2",RESOLUTION=640x360,FRAME-RATE=29.97,SUBTITLES="subs"
            v1/index.m3u8

            """
        let text = PlaylistWriter().write(.multivariant(playlist))
        #expect(text == expected)
        #expect(HLS.parse(text).playlist == .multivariant(playlist))
        #expect(HLS.parse(text).diagnostics.isEmpty)
    }

    @Test(arguments: [
        (9.009, "9.009"), (10, "10.000"), (4.00008, "4.00008"), (0.00001, "0.00001"), (1e17, "100000000000000000.000"),
    ])
    func durationsAreWrittenWithEnoughDecimalsAndNoExponent(value: Double, text: String) {
        #expect(DecimalFormat.duration(value) == text)
        #expect(Double(text) == value)
    }
}
