import FilterzTestSupport
import Foundation
import RealClients
import Testing

@testable import CLIKit
@testable import Inspect

/// `filterz inspect`, run in process on the Inspect module (`InspectCLI`): golden summaries, exit codes, JSON,
/// --recursive over a folder (its help screen is golden in docs/CLI.md, checked by CLIReferenceTests; the
/// options only `filterz-full` reads by `InspectLoaderUsageTests`).
@Suite struct InspectCommandTests {
    static let samples = SharedData.sampleMedia.appendingPathComponent("playlists")

    struct Run {
        var code: Int32
        var stdout: String
        var stderr: String
    }

    /// Runs `filterz <arguments>`; paths under `samples` print relative to it.
    static func run(_ arguments: [String], stdin: [UInt8] = []) -> Run {
        let run = InspectCLI.run(arguments, stdin: stdin)
        let prefix = samples.path + "/"
        return Run(
            code: run.code, stdout: run.out.replacingOccurrences(of: prefix, with: ""),
            stderr: run.err.replacingOccurrences(of: prefix, with: ""))
    }

    static func sample(_ name: String) -> String { samples.appendingPathComponent(name).path }

    @Test func vodSummaryMatchesTheGoldenText() {
        let result = Self.run(["inspect", Self.sample("filterz-vod.m3u8")])
        #expect(result.code == 0)
        #expect(result.stderr == "")
        #expect(
            result.stdout == """
                filterz-vod.m3u8: media playlist, version 7
                  type             VOD, ended (EXT-X-ENDLIST)
                  segments         8
                  duration         30.136 s total; min 2.136 s, avg 3.767 s, max 4.000 s
                  target duration  4 s
                  media sequence   0
                  discontinuities  1 (discontinuity sequence 0)
                  byte ranges      8 segments, 2.1MB total
                  keys             none
                  init sections    1
                  parts            none

                No problems found.

                """)
    }

    @Test func multivariantSummaryListsVariantsByBandwidthAndRenditionsByGroup() {
        let result = Self.run(["inspect", Self.sample("filterz-master.m3u8")])
        #expect(result.code == 0)
        #expect(
            result.stdout == """
                filterz-master.m3u8: multivariant playlist, version 6
                  independent segments  yes

                Variants (3, by bandwidth)
                  BANDWIDTH  AVERAGE    RESOLUTION  FPS  CODECS                 AUDIO  SUBTITLES  URI
                  928 kb/s   810 kb/s   640x360     30   avc1.64001e,mp4a.40.2  aac    subs       filterz/360p/index.m3u8?token=demo-7f3a
                  2.63 Mb/s  2.30 Mb/s  1280x720    30   avc1.64001f,mp4a.40.2  aac    subs       filterz/720p/index.m3u8?token=demo-7f3a
                  5.33 Mb/s  4.70 Mb/s  1920x1080   30   avc1.640028,mp4a.40.2  aac    subs       filterz/1080p/index.m3u8?token=demo-7f3a

                Renditions (3 in 2 groups)
                  AUDIO "aac"
                    ko  "Korean"  default,autoselect  filterz/audio/index.m3u8?token=demo-7f3a
                  SUBTITLES "subs"
                    ko  "한국어"   default,autoselect  filterz/subs/ko/index.m3u8?token=demo-7f3a
                    en  "English"  autoselect          filterz/subs/en/index.m3u8?token=demo-7f3a

                No problems found.

                """)
    }

    static let invalid = "#EXTM3U\n#EXT-X-VERSION:3\n#EXT-X-TARGETDURATION:8\n#EXTINF:9.009,\na.ts\n#EXT-X-ENDLIST\n"

    @Test func aPlaylistWithErrorsExitsOneAndListsThemLikeACompiler() {
        let result = Self.run(["inspect", "-"], stdin: Array(Self.invalid.utf8))
        #expect(result.code == 1)
        #expect(
            result.stdout.hasSuffix(
                """
                1 error
                  <stdin>:4:1: error: EXTINF 9.009 rounds to 9, above EXT-X-TARGETDURATION 8 \
                [extinf.exceeds-target-duration] (RFC 8216bis §4.4.3.1)

                """))
        #expect(result.stderr == "filterz inspect: <stdin>: 1 error\n")
    }

    @Test func warningsAloneExitZero() {
        let text = "#EXTM3U\n#EXT-X-STREAM-INF:BANDWIDTH=800000\nv.m3u8\n"
        let result = Self.run(["inspect", "-"], stdin: Array(text.utf8))
        #expect(result.code == 0)
        #expect(
            result.stdout.contains("warning: EXT-X-STREAM-INF for v.m3u8 has no CODECS [stream-inf.codecs-missing]"))
    }

    @Test func strictStopsAtTheFirstError() {
        let text = Self.invalid + "#EXTINF:9.009,\nb.ts\n"
        let result = Self.run(["inspect", "--strict", "-"], stdin: Array(text.utf8))
        #expect(result.code == 1)
        #expect(result.stdout.contains("<stdin>: not parsed"))
        #expect(result.stdout.components(separatedBy: ": error: ").count == 2)
    }

    static let usageCases: [UsageCase] = [
        UsageCase(
            arguments: ["inspect", "/no/such/master.m3u8"], code: 2,
            message: "filterz inspect: error: /no/such/master.m3u8: no such file\n"),
        UsageCase(
            arguments: ["inspect", "/tmp"], code: 2,
            message: "filterz inspect: error: /tmp: is a directory, not a playlist\n"),
        UsageCase(arguments: ["inspect"], code: 2, message: "Error: missing argument <playlist>\n"),
        UsageCase(
            arguments: ["inspect", "--bogus", "x.m3u8"], code: 2,
            message: "Error: unknown option '--bogus' for 'filterz inspect'\n"),
    ]

    @Test(arguments: usageCases)
    func usageAndInputErrorsExitTwoWithOneLineNamingTheInput(_ example: UsageCase) {
        let result = Self.run(example.arguments)
        #expect(result.code == example.code)
        #expect(result.stderr.hasPrefix(example.message), "\(result.stderr)")
        #expect(result.stdout == "")
    }

    @Test func jsonHasTheCorpusSchemaInOrderPlusDiagnostics() throws {
        let result = Self.run(["inspect", "--json", "-"], stdin: Array(Self.invalid.utf8))
        #expect(result.code == 1)
        let keys = result.stdout.split(separator: "\n").filter { $0.hasPrefix("  \"") }.map {
            String($0.dropFirst(3).prefix { $0 != "\"" })
        }
        #expect(
            keys == [
                "kind", "version", "target_duration", "media_sequence", "discontinuity_sequence", "endlist",
                "playlist_type", "independent_segments", "variants", "iframe_variants", "renditions", "segments",
                "keys", "session_keys", "maps", "parts", "preload_hints", "rendition_reports", "server_control",
                "part_inf", "skip", "date_ranges", "lenient", "diagnostics",
            ])
        let object = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        let diagnostics = try #require(object["diagnostics"] as? [[String: Any]])
        #expect(diagnostics.first?["code"] as? String == "extinf.exceeds-target-duration")
        #expect(diagnostics.first?["line"] as? Int == 4)
        #expect(Self.run(["inspect", "--json", "-"], stdin: Array(Self.invalid.utf8)).stdout == result.stdout)
    }

    @Test func recursiveOverAFolderLoadsEveryVariantAndRendition() {
        let result = Self.run(["inspect", "--recursive", Self.sample("filterz-master.m3u8")])
        #expect(result.code == 0, "\(result.stderr)")
        #expect(result.stdout.contains("Playlists (6)"))
        #expect(
            result.stdout.contains(
                "  filterz/subs/ko/index.m3u8?token=demo-7f3a  media v3  10 segments  57.057 s (min 3.003, avg 5.706, max 6.006)  target 6 s  ended  ok"
            ))
        #expect(result.stdout.contains("Cross-playlist checks: ok"))
    }

    @Test func recursiveReportsMissingAndMisalignedPlaylists() throws {
        let folder = try TemporaryFolder()
        func write(_ name: String, _ text: String) throws {
            let url = folder.url.appendingPathComponent(name)
            try FileManager.default.createDirectory(
                at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try text.write(to: url, atomically: true, encoding: .utf8)
        }
        func media(_ durations: [Double], target: Int = 6) -> String {
            "#EXTM3U\n#EXT-X-VERSION:3\n#EXT-X-TARGETDURATION:\(target)\n"
                + durations.map { "#EXTINF:\($0),\nseg.ts\n" }.joined() + "#EXT-X-ENDLIST\n"
        }
        try write(
            "master.m3u8",
            """
            #EXTM3U
            #EXT-X-INDEPENDENT-SEGMENTS
            #EXT-X-STREAM-INF:BANDWIDTH=800000,AVERAGE-BANDWIDTH=700000,CODECS="mp4a.40.2"
            low/index.m3u8
            #EXT-X-STREAM-INF:BANDWIDTH=1600000,AVERAGE-BANDWIDTH=1400000,CODECS="mp4a.40.2"
            high/index.m3u8
            #EXT-X-STREAM-INF:BANDWIDTH=3200000,AVERAGE-BANDWIDTH=3000000,CODECS="mp4a.40.2"
            gone/index.m3u8

            """)
        try write("low/index.m3u8", media([6, 6, 6]))
        try write("high/index.m3u8", media([6, 6], target: 8))
        let result = Self.run(["inspect", "-r", folder.url.appendingPathComponent("master.m3u8").path])
        #expect(result.code == 1)
        #expect(
            result.stdout.contains("gone/index.m3u8  cannot load: \(folder.url.path)/gone/index.m3u8: no such file"))
        #expect(result.stdout.contains("Cross-playlist checks: 1 error, 1 warning"))
        #expect(
            result.stdout.contains(
                ":5:1: error: high/index.m3u8 has EXT-X-TARGETDURATION 8, low/index.m3u8 has 6 [variants.target-duration-mismatch]"
            ))
        #expect(result.stdout.contains("[variants.segment-count-mismatch]"))
    }

    @Test func recursiveGivesChildrenTheParentsVariablesAndTheirOwnQuery() throws {
        let folder = try TemporaryFolder()
        try FileManager.default.createDirectory(
            at: folder.url.appendingPathComponent("low"), withIntermediateDirectories: true)
        try """
        #EXTM3U
        #EXT-X-VERSION:11
        #EXT-X-INDEPENDENT-SEGMENTS
        #EXT-X-DEFINE:NAME="prefix",VALUE="chunk"
        #EXT-X-STREAM-INF:BANDWIDTH=800000,AVERAGE-BANDWIDTH=700000,CODECS="mp4a.40.2"
        low/index.m3u8?auth=k1

        """.write(to: folder.url.appendingPathComponent("master.m3u8"), atomically: true, encoding: .utf8)
        try """
        #EXTM3U
        #EXT-X-VERSION:11
        #EXT-X-TARGETDURATION:6
        #EXT-X-DEFINE:IMPORT="prefix"
        #EXT-X-DEFINE:QUERYPARAM="auth"
        #EXTINF:6,
        {$prefix}-0.ts?auth={$auth}
        #EXT-X-ENDLIST

        """.write(to: folder.url.appendingPathComponent("low/index.m3u8"), atomically: true, encoding: .utf8)
        let master = folder.url.appendingPathComponent("master.m3u8").path
        let text = Self.run(["inspect", "-r", master])
        #expect(text.code == 0, "\(text.stdout)")
        let json = Self.run(["inspect", "-r", "--json", master])
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        let child = try #require((object["playlists"] as? [[String: Any]])?.first?["facts"] as? [String: Any])
        let segment = try #require((child["segments"] as? [[String: Any]])?.first)
        #expect(segment["uri"] as? String == "chunk-0.ts?auth=k1")
    }

    /// Issue 31: `--json` could not show what an LL-HLS or protected playlist is made of. A delta update of a
    /// live LL-HLS playlist with a key, a byte-range init section, a date range, a gap, a bitrate, parts, a
    /// preload hint and a rendition report, as golden JSON.
    static let lowLatencyProtected = """
        #EXTM3U
        #EXT-X-VERSION:9
        #EXT-X-TARGETDURATION:4
        #EXT-X-SERVER-CONTROL:CAN-SKIP-UNTIL=24,CAN-BLOCK-RELOAD=YES,PART-HOLD-BACK=3.0
        #EXT-X-PART-INF:PART-TARGET=1.0
        #EXT-X-MEDIA-SEQUENCE:266
        #EXT-X-SKIP:SKIPPED-SEGMENTS=3
        #EXT-X-MAP:URI="init.mp4",BYTERANGE="718@0"
        #EXT-X-KEY:METHOD=AES-128,URI="https://keys.example.com/k1",IV=0x0000000000000000000000000000010A
        #EXT-X-PROGRAM-DATE-TIME:2026-12-06T05:00:00.000Z
        #EXT-X-DATERANGE:ID="ad-1",CLASS="com.example.ad",START-DATE="2026-12-06T05:00:01.000Z",PLANNED-DURATION=15,SCTE35-OUT=0xFC30,X-COM-EXAMPLE-ID="a1",X-COM-EXAMPLE-RANK=2.5
        #EXT-X-BITRATE:2400
        #EXTINF:4.000,
        fileSequence269.mp4
        #EXT-X-GAP
        #EXTINF:4.000,
        fileSequence270.mp4
        #EXT-X-PART:DURATION=1.000,URI="filePart271.0.mp4",INDEPENDENT=YES
        #EXT-X-PART:DURATION=1.000,URI="filePart271.1.mp4",BYTERANGE="20000@0"
        #EXT-X-PRELOAD-HINT:TYPE=PART,URI="filePart271.2.mp4"
        #EXT-X-RENDITION-REPORT:URI="../1M/waitForMSN.php",LAST-MSN=270,LAST-PART=1
        """

    @Test func jsonListsWhatALowLatencyProtectedPlaylistIsMadeOf() {
        let result = Self.run(["inspect", "--json", "-"], stdin: Array(Self.lowLatencyProtected.utf8))
        #expect(result.code == 0, "\(result.stdout)")
        #expect(
            result.stdout == """
                {
                  "kind": "media",
                  "version": 9,
                  "target_duration": 4,
                  "media_sequence": 266,
                  "discontinuity_sequence": 0,
                  "endlist": false,
                  "playlist_type": null,
                  "independent_segments": false,
                  "variants": [],
                  "iframe_variants": [],
                  "renditions": [],
                  "segments": [
                    {
                      "uri": "fileSequence269.mp4",
                      "duration": 4.0,
                      "title": null,
                      "byterange": null,
                      "discontinuity": false,
                      "program_date_time": "2026-12-06T05:00:00.000Z",
                      "gap": false,
                      "bitrate": 2400
                    },
                    {
                      "uri": "fileSequence270.mp4",
                      "duration": 4.0,
                      "title": null,
                      "byterange": null,
                      "discontinuity": false,
                      "program_date_time": null,
                      "gap": true,
                      "bitrate": null
                    }
                  ],
                  "keys": [
                    {
                      "segment": 0,
                      "method": "AES-128",
                      "uri": "https://keys.example.com/k1",
                      "iv": "0x0000000000000000000000000000010A",
                      "keyformat": null,
                      "keyformatversions": null
                    }
                  ],
                  "session_keys": [],
                  "maps": [
                    {
                      "segment": 0,
                      "uri": "init.mp4",
                      "byterange": {
                        "length": 718,
                        "offset": 0
                      }
                    }
                  ],
                  "parts": [
                    {
                      "segment": 2,
                      "uri": "filePart271.0.mp4",
                      "duration": 1.0,
                      "independent": true,
                      "byterange": null,
                      "gap": false
                    },
                    {
                      "segment": 2,
                      "uri": "filePart271.1.mp4",
                      "duration": 1.0,
                      "independent": false,
                      "byterange": {
                        "length": 20000,
                        "offset": 0
                      },
                      "gap": false
                    }
                  ],
                  "preload_hints": [
                    {
                      "type": "PART",
                      "uri": "filePart271.2.mp4",
                      "byterange_start": null,
                      "byterange_length": null
                    }
                  ],
                  "rendition_reports": [
                    {
                      "uri": "../1M/waitForMSN.php",
                      "last_msn": 270,
                      "last_part": 1
                    }
                  ],
                  "server_control": {
                    "can_skip_until": 24.0,
                    "can_skip_dateranges": false,
                    "hold_back": null,
                    "part_hold_back": 3.0,
                    "can_block_reload": true
                  },
                  "part_inf": {
                    "part_target": 1.0
                  },
                  "skip": {
                    "skipped_segments": 3,
                    "recently_removed_dateranges": null
                  },
                  "date_ranges": [
                    {
                      "segment": 0,
                      "id": "ad-1",
                      "class": "com.example.ad",
                      "start_date": "2026-12-06T05:00:01.000Z",
                      "end_date": null,
                      "duration": null,
                      "planned_duration": 15.0,
                      "cue": null,
                      "end_on_next": false,
                      "scte35_cmd": null,
                      "scte35_out": "0xFC30",
                      "scte35_in": null,
                      "client_attributes": {
                        "X-COM-EXAMPLE-ID": "a1",
                        "X-COM-EXAMPLE-RANK": 2.5
                      }
                    }
                  ],
                  "lenient": [],
                  "diagnostics": []
                }

                """)
    }

    /// A multivariant playlist lists its EXT-X-SESSION-KEY tags; a BANDWIDTH the grammar refuses is an error,
    /// read leniently and listed under `lenient`.
    @Test func jsonListsSessionKeysAndLenientNumbers() throws {
        let text = """
            #EXTM3U
            #EXT-X-SESSION-KEY:METHOD=SAMPLE-AES,URI="skd://key-1",KEYFORMAT="com.apple.streamingkeydelivery",KEYFORMATVERSIONS="1"
            #EXT-X-STREAM-INF:BANDWIDTH=1280000.7,CODECS="avc1.64001f"
            v.m3u8

            """
        let result = Self.run(["inspect", "--json", "-"], stdin: Array(text.utf8))
        #expect(result.code == 1)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        let keys = try #require(object["session_keys"] as? [[String: Any]])
        #expect(keys.count == 1)
        #expect(keys.first?["method"] as? String == "SAMPLE-AES" && keys.first?["uri"] as? String == "skd://key-1")
        #expect(keys.first?["keyformat"] as? String == "com.apple.streamingkeydelivery")
        #expect(keys.first?["segment"] == nil)
        #expect((object["variants"] as? [[String: Any]])?.first?["bandwidth"] as? Int == 1_280_000)
        let lenient = try #require(object["lenient"] as? [[String: Any]])
        #expect(lenient.count == 1)
        #expect(lenient.first?["line"] as? Int == 3 && lenient.first?["column"] as? Int == 29)
        #expect(lenient.first?["tag"] as? String == "EXT-X-STREAM-INF")
        #expect(lenient.first?["attribute"] as? String == "BANDWIDTH")
        #expect(lenient.first?["written"] as? String == "1280000.7" && lenient.first?["read"] as? Int == 1_280_000)
        #expect(lenient.first?["segment"] is NSNull)
        #expect(object["server_control"] is NSNull && (object["parts"] as? [Any])?.isEmpty == true)
    }
}
