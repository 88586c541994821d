import FilterzTestSupport
import Foundation
import HLS
import RealClients
import Testing

@testable import CLIKit
@testable import Inspect

/// `filterz inspect` on playlists with thousands of items (in process through `InspectCLI`): every list stops
/// after `ListingLimit.items` with `… and N more`, JSON lists stop there with a `truncated` member holding the
/// full lengths, and every count and the exit status still cover everything.
@Suite struct InspectListingLimitTests {
    static func inspect(_ arguments: [String]) -> (code: Int32, out: String, err: String) {
        InspectCLI.run(["inspect"] + arguments)
    }

    /// 1,500 variants (each naming a missing audio group: one error and four warnings), 1,200 I-frame
    /// variants, 1,300 renditions in 650 groups, with bandwidths from a seeded generator.
    static func hugeMultivariant(seed: UInt64) -> String {
        var generator = SeededGenerator(seed: seed)
        var lines = ["#EXTM3U"]
        for index in 0..<1300 {
            lines.append(
                "#EXT-X-MEDIA:TYPE=SUBTITLES,GROUP-ID=\"s\(index / 2)\",NAME=\"n\(index)\",URI=\"s\(index).m3u8\"")
        }
        for index in 0..<1500 {
            lines.append("#EXT-X-STREAM-INF:BANDWIDTH=\(generator.nextInt(in: 1000...9_000_999)),AUDIO=\"nope\"")
            lines.append("v\(index).m3u8")
        }
        for index in 0..<1200 {
            let bandwidth = generator.nextInt(in: 100...90_099)
            lines.append("#EXT-X-I-FRAME-STREAM-INF:BANDWIDTH=\(bandwidth),URI=\"i\(index).m3u8\"")
        }
        return lines.joined(separator: "\n") + "\n"
    }

    @Test func everyTextListOfAHugePlaylistStopsWithAndNMore() throws {
        let folder = try TemporaryFolder()
        let path = folder.url.appendingPathComponent("huge.m3u8").path
        let text = Self.hugeMultivariant(seed: 7)
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        let diagnostics = parseAndValidate(Array(text.utf8), options: ParseOptions(playlistURI: path)).diagnostics
        try #require(diagnostics.count > 2 * ListingLimit.items)
        let run = Self.inspect([path])
        #expect(run.code == 1)
        let lines = run.out.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(run.out.contains("\nVariants (1500, by bandwidth)\n"))
        #expect(lines.contains("  … and 500 more variants"))
        #expect(run.out.contains("\nI-frame variants (1200)\n"))
        #expect(lines.contains("  … and 200 more I-frame variants"))
        #expect(run.out.contains("\nRenditions (1300 in 650 groups)\n"))
        #expect(lines.contains("  … and 300 more renditions"))
        #expect(lines.contains("  … and \(diagnostics.count - ListingLimit.items) more problems"))
        // The totals stay true: the count line and the exit message count every error, listed or not.
        #expect(run.out.contains(InspectTextReport.countLine(diagnostics)))
        let errors = diagnostics.filter { $0.severity == .error }.count
        #expect(run.err.contains("\(errors) errors"), "\(run.err)")
        // About 1,000 lines per list, whatever the playlist holds.
        #expect(lines.count < 6 * ListingLimit.items, "\(lines.count) lines")
    }

    @Test func everyJSONListStopsAndTruncatedGivesTheFullLengths() throws {
        let folder = try TemporaryFolder()
        let path = folder.url.appendingPathComponent("huge.m3u8").path
        let text = Self.hugeMultivariant(seed: 11)
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        let diagnostics = parseAndValidate(Array(text.utf8), options: ParseOptions(playlistURI: path)).diagnostics
        let run = Self.inspect(["--json", path])
        let object = try #require(try JSONSerialization.jsonObject(with: Data(run.out.utf8)) as? [String: Any])
        for key in ["variants", "iframe_variants", "renditions", "diagnostics"] {
            #expect((object[key] as? [Any])?.count == ListingLimit.items, "\(key)")
        }
        let truncated = try #require(object["truncated"] as? [String: Int])
        #expect(
            truncated == [
                "variants": 1500, "iframe_variants": 1200, "renditions": 1300, "diagnostics": diagnostics.count,
            ])
        // A playlist whose lists fit has no `truncated` at all (the corpus schema is unchanged).
        let small = Self.inspect([
            "--json", SharedData.sampleMedia.appendingPathComponent("playlists/filterz-master.m3u8").path,
        ])
        #expect(!small.out.contains("\"truncated\""))
    }

    @Test func aMediaPlaylistsSegmentsStopInJSON() throws {
        let folder = try TemporaryFolder()
        let path = folder.url.appendingPathComponent("long.m3u8").path
        let segments = (0..<2500).map { "#EXTINF:4,\nseg\($0).ts" }
        try Data(
            (["#EXTM3U", "#EXT-X-TARGETDURATION:4"] + segments + ["#EXT-X-ENDLIST", ""]).joined(separator: "\n").utf8
        )
        .write(to: URL(fileURLWithPath: path))
        let run = Self.inspect(["--json", path])
        let object = try #require(try JSONSerialization.jsonObject(with: Data(run.out.utf8)) as? [String: Any])
        #expect((object["segments"] as? [Any])?.count == ListingLimit.items)
        #expect((object["truncated"] as? [String: Int]) == ["segments": 2500])
        #expect(Self.inspect([path]).out.contains("  segments         2500\n"))
    }

    /// A live LL-HLS playlist with 2,500 parts (and a key and a date range on each of 1,250 segments): the new
    /// lists stop like the others and `truncated` gives their full lengths.
    @Test func theLowLatencyAndKeyListsStopInJSON() throws {
        let folder = try TemporaryFolder()
        let path = folder.url.appendingPathComponent("live.m3u8").path
        var lines = [
            "#EXTM3U", "#EXT-X-VERSION:9", "#EXT-X-TARGETDURATION:4", "#EXT-X-PART-INF:PART-TARGET=1",
            "#EXT-X-SERVER-CONTROL:CAN-BLOCK-RELOAD=YES,PART-HOLD-BACK=3",
        ]
        for segment in 0..<1250 {
            lines.append("#EXT-X-KEY:METHOD=AES-128,URI=\"k\(segment).key\"")
            lines.append("#EXT-X-DATERANGE:ID=\"d\(segment)\",START-DATE=\"2026-01-01T00:00:00Z\"")
            for part in 0..<2 { lines.append("#EXT-X-PART:DURATION=1,URI=\"s\(segment).\(part).mp4\"") }
            lines += ["#EXTINF:2,", "s\(segment).mp4"]
        }
        try Data((lines + [""]).joined(separator: "\n").utf8).write(to: URL(fileURLWithPath: path))
        let run = Self.inspect(["--json", path])
        let object = try #require(try JSONSerialization.jsonObject(with: Data(run.out.utf8)) as? [String: Any])
        for key in ["parts", "keys", "date_ranges"] {
            #expect((object[key] as? [Any])?.count == ListingLimit.items, "\(key)")
        }
        #expect(
            (object["truncated"] as? [String: Int]) == [
                "segments": 1250, "parts": 2500, "keys": 1250, "date_ranges": 1250,
            ])
        #expect(((object["parts"] as? [[String: Any]])?.last?["segment"] as? Int) == 499)
    }

    /// 1,200 variants that all name one damaged media playlist: its problems are listed once (at most
    /// `childProblems` of them), the table stops after 1,000 rows, and JSON says how many playlists there were.
    @Test func recursiveListsEachChildsProblemsOnceAndStopsTheTable() throws {
        let folder = try TemporaryFolder()
        let master = folder.url.appendingPathComponent("master.m3u8")
        var lines = ["#EXTM3U", "#EXT-X-INDEPENDENT-SEGMENTS"]
        for _ in 0..<1200 { lines += ["#EXT-X-STREAM-INF:BANDWIDTH=1000,CODECS=\"avc1.64001f\"", "bad.m3u8"] }
        try Data((lines + [""]).joined(separator: "\n").utf8).write(to: master)
        let segments = (0..<60).map { "#EXTINF:9,\nseg\($0).ts" }
        try Data(
            (["#EXTM3U", "#EXT-X-TARGETDURATION:2"] + segments + ["#EXT-X-ENDLIST", ""]).joined(separator: "\n").utf8
        )
        .write(to: folder.url.appendingPathComponent("bad.m3u8"))
        let run = Self.inspect(["--recursive", master.path])
        #expect(run.code == 1)
        let out = run.out.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        #expect(out.contains("Playlists (1200)"))
        #expect(out.contains("  … and 200 more playlists"))
        #expect(out.filter { $0.contains("extinf.exceeds-target-duration") }.count == ListingLimit.childProblems)
        #expect(out.contains("    … and \(60 - ListingLimit.childProblems) more problems"))
        #expect(out.filter { $0 == "    (the problems of bad.m3u8, above)" }.count == ListingLimit.items - 1)
        let json = Self.inspect(["--recursive", "--json", master.path])
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.out.utf8)) as? [String: Any])
        #expect((object["playlists"] as? [Any])?.count == ListingLimit.items)
        #expect((object["truncated"] as? [String: Int])?["playlists"] == 1200)
    }

    /// More distinct child playlists than `--recursive` loads: the rest are listed as not loaded, and the run
    /// cannot pass for a complete check.
    @Test func recursiveLoadsAtMostTheLimitOfDistinctPlaylists() throws {
        let folder = try TemporaryFolder()
        let media = "#EXTM3U\n#EXT-X-TARGETDURATION:4\n#EXT-X-VERSION:3\n#EXTINF:4,\nseg.ts\n#EXT-X-ENDLIST\n"
        try Data(media.utf8).write(to: folder.url.appendingPathComponent("v.m3u8"))
        var lines = ["#EXTM3U", "#EXT-X-INDEPENDENT-SEGMENTS"]
        for index in 0...ListingLimit.childPlaylists {
            lines += ["#EXT-X-STREAM-INF:BANDWIDTH=\(1000 + index),CODECS=\"avc1.64001f\"", "v.m3u8?n=\(index)"]
        }
        let master = folder.url.appendingPathComponent("master.m3u8")
        try Data((lines + [""]).joined(separator: "\n").utf8).write(to: master)
        let run = Self.inspect(["--recursive", master.path])
        #expect(
            run.out.contains("  1 playlist not loaded: --recursive loads at most \(ListingLimit.childPlaylists)"),
            "\(run.out.suffix(400))")
        #expect(run.code == 1)
    }
}
