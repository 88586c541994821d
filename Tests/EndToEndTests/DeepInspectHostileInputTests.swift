import FilterzTestSupport
import Foundation
import RealClients
import Testing

@testable import CLIKit
@testable import FilterzCLI

/// `inspect --deep` on segments and playlists holding numbers no recorder writes: every one is reported (an
/// unreadable segment, a key or range refused), and the run ends with a report and exit 0 or 1, never a trap.
struct DeepInspectHostileInputTests {
    /// `playlist` written as `index.m3u8` next to `files`, then `inspect --deep --json` on it.
    static func inspect(_ playlist: String, files: [String: [UInt8]]) throws -> (code: Int32, codes: [String]) {
        let folder = try TemporaryFolder(prefix: "filterz-deep-hostile")
        try Data(playlist.utf8).write(to: folder.url.appendingPathComponent("index.m3u8"))
        for (name, bytes) in files { try Data(bytes).write(to: folder.url.appendingPathComponent(name)) }
        let run = runFilterz(["inspect", "--deep", "--json", folder.url.appendingPathComponent("index.m3u8").path])
        let object = try JSONSerialization.jsonObject(with: Data(run.out.utf8)) as? [String: Any]
        let deep = try #require(object?["deep"] as? [String: Any], "no deep report: \(run.out.prefix(300)) \(run.err)")
        let findings = deep["findings"] as? [[String: Any]] ?? []
        return (run.code, Set(findings.compactMap { $0["code"] as? String }).sorted())
    }

    static func mediaPlaylist(_ body: String, sequence: String = "0") -> String {
        "#EXTM3U\n#EXT-X-VERSION:7\n#EXT-X-TARGETDURATION:2\n#EXT-X-MEDIA-SEQUENCE:\(sequence)\n"
            + "#EXT-X-PLAYLIST-TYPE:VOD\n\(body)#EXT-X-ENDLIST\n"
    }

    /// An fMP4 segment whose second box claims 2^63 − 16 bytes (a 64-bit `largesize`), as ffprobe reads it.
    @Test func anFMP4BoxSizeNearTwoToThe63IsAnUnreadableSegment() throws {
        let styp: [UInt8] = [0, 0, 0, 16] + Array("stypmsdhmsdh".utf8)
        let moof: [UInt8] = [0, 0, 0, 1] + Array("moof".utf8) + [0x7F, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xF0]
        let segment = styp + moof + [UInt8](repeating: 0, count: 64)
        let outcome = try Self.inspect(
            Self.mediaPlaylist("#EXT-X-MAP:URI=\"seg.m4s\"\n#EXTINF:2.0,\nseg.m4s\n"), files: ["seg.m4s": segment])
        #expect(outcome.code == 1 && outcome.codes == ["segment.unreadable"], "\(outcome)")
    }

    /// AES-128 without an IV at the largest media sequence number: the second segment's IV is 2^63, past Int.
    @Test func aMediaSequenceNumberAtTheLimitStillGivesEachSegmentItsIV() throws {
        let body = "#EXT-X-KEY:METHOD=AES-128,URI=\"key.bin\"\n#EXTINF:2.0,\na.ts\n#EXTINF:2.0,\nb.ts\n"
        let outcome = try Self.inspect(
            Self.mediaPlaylist(body, sequence: "9223372036854775807"),
            files: ["key.bin": [UInt8](repeating: 1, count: 16), "a.ts": [0x47, 1, 2], "b.ts": [0x47, 1, 2]])
        #expect(outcome.code == 1 && outcome.codes.contains("key.unusable"), "\(outcome)")
    }

    /// Subtitles at media sequence 2^63 − 1 beside video at −1 (which the validator flags): the subtitle rule's
    /// lookup of the matching video segment is past Int, and simply finds none.
    @Test func subtitlesAndVideoAtOppositeEndsOfTheSequenceNumbersAreCompared() throws {
        let master = """
            #EXTM3U
            #EXT-X-MEDIA:TYPE=SUBTITLES,GROUP-ID="s",NAME="en",URI="subs.m3u8"
            #EXT-X-STREAM-INF:BANDWIDTH=100000,SUBTITLES="s"
            v.m3u8

            """
        let outcome = try Self.inspect(
            master,
            files: [
                "subs.m3u8": Array(Self.mediaPlaylist("#EXTINF:2.0,\ns.vtt\n", sequence: "9223372036854775807").utf8),
                "v.m3u8": Array(Self.mediaPlaylist("#EXTINF:2.0,\na.ts\n", sequence: "-1").utf8),
                "s.vtt": Array("WEBVTT\n\n".utf8), "a.ts": [0x47, 1, 2],
            ])
        #expect(outcome.code == 1 && outcome.codes.contains("webvtt.timestamp-map-missing"), "\(outcome)")
    }

    /// Byte ranges whose offset plus length passes Int.max: refused as ranges past the resource.
    @Test func aByteRangeEndingPastTheLargestOffsetIsRefused() throws {
        let body =
            "#EXT-X-BYTERANGE:9223372036854775807@9223372036854775807\n#EXTINF:2.0,\na.ts\n"
            + "#EXT-X-BYTERANGE:9223372036854775807\n#EXTINF:2.0,\na.ts\n"
        let outcome = try Self.inspect(Self.mediaPlaylist(body), files: ["a.ts": [0x47, 1, 2]])
        #expect(outcome.code == 1 && outcome.codes == ["segment.unreadable"], "\(outcome)")
    }
}
