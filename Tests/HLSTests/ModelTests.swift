import JSON
import Notation
import Testing

@testable import HLS

/// Helpers on the model that other modules rely on.
@Suite struct ModelTests {
    @Test func keysAndMapInEffectFollowTheLatestTagsBeforeASegment() {
        let first = Key(method: .aes128, uri: "k1")
        let fairPlay = Key(method: .sampleAES, uri: "skd://k", keyFormat: "com.apple.streamingkeydelivery")
        let playlist = MediaPlaylist(segments: [
            Segment(uri: "a", duration: 1, keys: [first, fairPlay], map: Map(uri: "init0.mp4")),
            Segment(uri: "b", duration: 1),
            Segment(uri: "c", duration: 1, keys: [Key(method: .aes128, uri: "k2")]),
            Segment(uri: "d", duration: 1, keys: [Key(method: .none)], map: Map(uri: "init1.mp4")),
        ])
        #expect(playlist.keys(inEffectAt: 1).map(\.uri) == ["k1", "skd://k"])
        #expect(playlist.keys(inEffectAt: 2).map(\.uri) == ["skd://k", "k2"])
        #expect(playlist.keys(inEffectAt: 3).isEmpty)
        #expect(playlist.map(inEffectAt: 2)?.uri == "init0.mp4")
        #expect(playlist.map(inEffectAt: 3)?.uri == "init1.mp4")
        #expect(MediaPlaylist().keys(inEffectAt: 0).isEmpty)
        #expect(MediaPlaylist().map(inEffectAt: 5) == nil)
    }

    @Test func bothKindsOfVariantShareTheirStreamInfAttributes() throws {
        let text = """
            #EXTM3U
            #EXT-X-STREAM-INF:BANDWIDTH=2000000,AVERAGE-BANDWIDTH=1800000,CODECS="avc1.64001f,mp4a.40.2",\
            RESOLUTION=1280x720,FRAME-RATE=30.000,VIDEO-RANGE=PQ,AUDIO="a"
            720p.m3u8
            #EXT-X-I-FRAME-STREAM-INF:BANDWIDTH=300000,CODECS="avc1.64001f",RESOLUTION=1280x720,VIDEO-RANGE=PQ,\
            URI="720p-iframes.m3u8"
            #EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID="a",NAME="English",URI="en.m3u8"

            """
        let multivariant = try #require(parse(Array(text.utf8)).playlist?.multivariant)
        let variant = try #require(multivariant.variants.first)
        var iFrames = try #require(multivariant.iFrameVariants.first)
        #expect(variant.codecList == ["avc1.64001f", "mp4a.40.2"] && iFrames.codecList == ["avc1.64001f"])
        #expect(variant.videoRange == .pq && iFrames.streamInf.videoRange == .pq)
        #expect(variant.resolution == iFrames.resolution)
        iFrames.bandwidth = 350_000
        #expect(iFrames.streamInf.bandwidth == 350_000)
        let facts = Playlist.multivariant(multivariant).facts()
        #expect(
            facts["iframe_variants"]?.rendered(indent: nil)
                == #"[{"uri":"720p-iframes.m3u8","bandwidth":300000,"average_bandwidth":null,"#
                + #""codecs":"avc1.64001f","resolution":[1280,720]}]"#)
        #expect(
            facts["variants"]?.rendered(indent: nil)
                == #"[{"uri":"720p.m3u8","bandwidth":2000000,"average_bandwidth":1800000,"#
                + #""codecs":"avc1.64001f,mp4a.40.2","resolution":[1280,720],"frame_rate":30.0,"audio":"a","#
                + #""subtitles":null,"closed_captions":null}]"#)
    }

    @Test func durationHelpers() {
        let playlist = MediaPlaylist(segments: [Segment(uri: "a", duration: 6.006), Segment(uri: "b", duration: 4.5)])
        #expect(playlist.totalDuration == 10.506)
        #expect(playlist.minimumTargetDuration == 6)
    }

    @Test func dateTimesConvertToAndFromSecondsSince1970() {
        let date = DateTime(secondsSince1970: 1_764_417_601.5)
        #expect(date.description == "2025-11-29T12:00:01.500Z")
        #expect(date.secondsSince1970 == 1_764_417_601.5)
        #expect(DateTime(secondsSince1970: .infinity).description == "1970-01-01T00:00:00.000Z")
        let zoned = DateTime(year: 2026, month: 1, day: 1, hour: 9, utcOffsetMinutes: 9 * 60)
        #expect(zoned.description == "2026-01-01T09:00:00.000+09:00")
        #expect(zoned.secondsSince1970 == DateTime(year: 2026, month: 1, day: 1).secondsSince1970)
    }

    @Test func sourcesTakeNoPartInEquality() {
        var parsed = Segment(uri: "a.ts", duration: 1)
        parsed.source = SourceSpan(location: HLS.SourceLocation(line: 3, column: 1), byteRange: 10..<30)
        #expect(parsed == Segment(uri: "a.ts", duration: 1))
        #expect(parsed.source?.byteRange == 10..<30)
    }

    @Test func diagnosticsPrintLikeACompiler() {
        let diagnostic = Diagnostic(
            severity: .error, code: .streamInfBandwidthMissing, message: "EXT-X-STREAM-INF lacks BANDWIDTH",
            location: HLS.SourceLocation(line: 12, column: 1), specReference: SpecReference.streamInf)
        #expect(
            diagnostic.formatted(file: "master.m3u8")
                == "master.m3u8:12:1: error: EXT-X-STREAM-INF lacks BANDWIDTH [stream-inf.bandwidth-missing] (RFC 8216bis §4.4.6.2)"
        )
    }
}
