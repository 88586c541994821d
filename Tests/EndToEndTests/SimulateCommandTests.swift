import FilterzTestSupport
import Foundation
import RealClients
import Testing

@testable import CLIKit
@testable import FilterzCLI
@testable import Inspect

/// Every flag of `filterz simulate` changes what it should (in process through `CLI.run`, on the Pensieve
/// ladder in `SampleMedia`), and every bad value is refused with exit 2 and one line naming the flag.
@Suite struct SimulateCommandTests {
    static let manifest = SharedData.sampleMedia.appendingPathComponent("manifests/pensieve-envivio-48.json").path
    static let busTrace = SharedData.sampleMedia.appendingPathComponent("traces/3g-norway-bus.json").path

    struct Run {
        var code: Int32
        var stdout: String
        var stderr: String

        /// The `--json` report.
        func report() throws -> [String: Any] {
            try #require(try JSONSerialization.jsonObject(with: Data(stdout.utf8)) as? [String: Any], "\(stderr)")
        }
        func summary() throws -> [String: Any] { try #require(try report()["summary"] as? [String: Any]) }
        func segments() throws -> [[String: Any]] { try #require(try report()["segments"] as? [[String: Any]]) }
        func events() throws -> [[String: Any]] { try #require(try report()["events"] as? [[String: Any]]) }
        func variants() throws -> [Int] { try segments().compactMap { $0["variant"] as? Int } }
    }

    static func simulate(_ arguments: [String]) -> Run {
        let run = runFilterz(["simulate", manifest] + arguments)
        return Run(code: run.code, stdout: run.out, stderr: run.err)
    }

    /// A fast constant link, no optimum (the flags, not the optimum, are under test).
    static func fast(_ arguments: [String]) -> Run {
        simulate(["--bandwidth", "50mbps", "--latency", "20ms", "--no-optimum", "--json"] + arguments)
    }

    @Test func jsonHasTheSummarySegmentsAndEventsTheIssueAsksFor() throws {
        let run = Self.simulate(["--trace", Self.busTrace, "--json"])
        #expect(run.code == 0, "\(run.stderr)")
        #expect(run.stdout.split(separator: "\n").count == 1, "one JSON object on one line")
        let summary = try run.summary()
        for key in [
            "qoe_lin", "offline_optimal_qoe_lin", "avg_bitrate_kbps", "rebuffer_s", "rebuffer_events",
            "switches", "startup_s",
        ] {
            #expect(summary[key] != nil, "summary.\(key)")
        }
        let optimum = try #require(summary["offline_optimal_qoe_lin"] as? Double)
        let qoe = try #require(summary["qoe_lin"] as? Double)
        #expect(qoe <= optimum + 1e-6)
        let segments = try run.segments()
        #expect(segments.count == 48)
        for key in ["request_s", "variant", "bytes", "download_s", "throughput_kbps", "buffer_s", "stall_s", "reason"] {
            #expect(segments[0][key] != nil, "segments[].\(key)")
        }
        // Deterministic: the same inputs give the same bytes out.
        #expect(Self.simulate(["--trace", Self.busTrace, "--json"]).stdout == run.stdout)
    }

    @Test func abrPicksTheRule() throws {
        for rule in ["throughput", "bba", "bola", "mpc", "filterz", "hlsjs"] {
            let run = Self.simulate(["--trace", Self.busTrace, "--no-optimum", "--json", "--abr", rule])
            #expect(run.code == 0, "\(run.stderr)")
            #expect(try run.summary()["abr"] as? String == rule)
        }
        let bola = try Self.simulate(["--trace", Self.busTrace, "--no-optimum", "--json", "--abr", "bola"]).variants()
        let mpc = try Self.simulate(["--trace", Self.busTrace, "--no-optimum", "--json", "--abr", "mpc"]).variants()
        #expect(bola != mpc)
    }

    @Test func hlsjsStartsAtTheVariantListedFirst() throws {
        // The sample master lists 720p first, between 360p and 1080p.
        let master = SharedData.sampleMedia.appendingPathComponent("playlists/filterz-master.m3u8").path
        let run = runFilterz(
            ["simulate", master, "--bandwidth", "50mbps", "--abr", "hlsjs", "--no-optimum", "--json"])
        #expect(run.code == 0, "\(run.err)")
        let report = try #require(try JSONSerialization.jsonObject(with: Data(run.out.utf8)) as? [String: Any])
        let segments = try #require(report["segments"] as? [[String: Any]])
        #expect(segments.first?["variant_name"] as? String == "720p")
    }

    /// The optimum of an hls.js session starts where hls.js starts, so it is never below the session's score.
    @Test func theOptimumOfAnHLSJSSessionStartsAtTheVariantListedFirst() throws {
        let master = SharedData.sampleMedia.appendingPathComponent("playlists/filterz-master.m3u8").path
        let run = runFilterz(["simulate", master, "--bandwidth", "50mbps", "--abr", "hlsjs", "--json"])
        #expect(run.code == 0, "\(run.err)")
        let report = try #require(try JSONSerialization.jsonObject(with: Data(run.out.utf8)) as? [String: Any])
        let summary = try #require(report["summary"] as? [String: Any])
        let score = try #require(summary["qoe_lin"] as? Double)
        let optimum = try #require(summary["offline_optimal_qoe_lin"] as? Double)
        #expect(optimum >= score - 1e-6, "optimum \(optimum) below the session's \(score)")
    }

    @Test func hlsjsLoadsTheDefaultAudioRenditionBesideEachSegment() throws {
        // Two variants listing an audio group; 2 s segments of 100,000 bytes (v1, listed first) and audio of
        // 25,000 bytes. On 1 Mbit/s with 20 ms latency the first segment takes 0.02 + 1,000,000 bits / 1 Mbit/s.
        let folder = try TemporaryFolder(prefix: "filterz-simulate-audio")
        func write(_ path: String, _ text: String) throws {
            let url = folder.url.appendingPathComponent(path)
            try FileManager.default.createDirectory(
                at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(text.utf8).write(to: url)
        }
        func media(_ name: String, bytes: Int) throws {
            var playlist = "#EXTM3U\n#EXT-X-VERSION:3\n#EXT-X-TARGETDURATION:2\n#EXT-X-PLAYLIST-TYPE:VOD\n"
            for k in 0..<3 {
                playlist += "#EXTINF:2.0,\ns\(k).ts\n"
                try Data(repeating: 0, count: bytes).write(to: folder.url.appendingPathComponent("\(name)/s\(k).ts"))
            }
            try write("\(name)/index.m3u8", playlist + "#EXT-X-ENDLIST\n")
        }
        for name in ["v0", "v1", "audio"] {
            try FileManager.default.createDirectory(
                at: folder.url.appendingPathComponent(name), withIntermediateDirectories: true)
        }
        try media("v0", bytes: 25_000)
        try media("v1", bytes: 100_000)
        try media("audio", bytes: 25_000)
        let variants = """
            #EXT-X-STREAM-INF:BANDWIDTH=400000,AUDIO="aac"
            v1/index.m3u8
            #EXT-X-STREAM-INF:BANDWIDTH=100000,AUDIO="aac"
            v0/index.m3u8

            """
        let media = #"#EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID="aac",NAME="Main",DEFAULT=YES,URI="audio/index.m3u8""#
        try write("with-audio.m3u8", "#EXTM3U\n\(media)\n" + variants)
        try write("video-only.m3u8", "#EXTM3U\n" + variants.replacingOccurrences(of: ",AUDIO=\"aac\"", with: ""))
        func firstDownload(_ master: String) throws -> Double {
            let run = runFilterz([
                "simulate", folder.url.appendingPathComponent(master).path, "--bandwidth", "1mbps", "--latency",
                "20ms", "--abr", "hlsjs", "--no-optimum", "--json",
            ])
            #expect(run.code == 0, "\(run.err)")
            let report = try #require(try JSONSerialization.jsonObject(with: Data(run.out.utf8)) as? [String: Any])
            let first = try #require((report["segments"] as? [[String: Any]])?.first)
            #expect(first["variant"] as? Int == 1)
            return try #require(first["download_s"] as? Double)
        }
        #expect(abs(try firstDownload("with-audio.m3u8") - 1.02) < 1e-6)
        #expect(abs(try firstDownload("video-only.m3u8") - 0.82) < 1e-6)
    }

    @Test func bufferCapsTheBufferLevel() throws {
        let small = try Self.fast(["--buffer", "12"]).segments().compactMap { $0["buffer_s"] as? Double }
        let large = try Self.fast(["--buffer", "60"]).segments().compactMap { $0["buffer_s"] as? Double }
        #expect(small.max()! <= 12 + 1e-6)
        #expect(small.max()! > 8)
        #expect(large.max()! > 40)
    }

    @Test func startupWaitsForTheThreshold() throws {
        let first = try Self.fast([]).summary()["startup_s"] as? Double
        let later = try Self.fast(["--startup", "12"]).summary()["startup_s"] as? Double
        let segments = try Self.fast(["--startup", "12"]).segments()
        // Playback starts when the third 4 s segment has arrived.
        let third = try #require(segments[2]["request_s"] as? Double) + (segments[2]["download_s"] as? Double ?? 0)
        #expect(try #require(later) > (try #require(first)))
        #expect(abs(try #require(later) - third) < 0.01)
    }

    @Test func viewportCapsQualityAndRotatingToLandscapeLiftsTheCap() throws {
        #expect(try Self.fast([]).variants().max() == 5)
        // 390x844@3 portrait: a 1170x658 inline player; 720p (index 4) is the first rung that covers it.
        let portrait = try Self.fast(["--viewport", "390x844@3"]).variants()
        #expect(portrait.max() == 4)
        let rotated = Self.fast(["--viewport", "390x844@3", "--rotate", "40:landscape"])
        #expect(rotated.code == 0, "\(rotated.stderr)")
        let levels = try rotated.variants()
        #expect(levels.max() == 5)
        let segments = try rotated.segments()
        for segment in segments where (segment["request_s"] as? Double ?? 0) < 40 {
            #expect(segment["variant"] as? Int ?? 0 <= 4)
        }
        let rotate = try #require(try rotated.events().first { $0["kind"] as? String == "rotate" })
        #expect(rotate["t"] as? Double == 40)
        #expect(rotate["position_before_s"] as? Double == rotate["position_after_s"] as? Double)
        #expect(rotate["playing_before"] as? Bool == rotate["playing_after"] as? Bool)
    }

    @Test func selectFixesTheQualityUntilAuto() throws {
        let run = Self.fast(["--select", "30:360p", "--select", "100:auto"])
        #expect(run.code == 0, "\(run.stderr)")
        let segments = try run.segments()
        let between = segments.filter {
            let t = $0["request_s"] as? Double ?? 0
            return t > 30 && t < 100
        }
        #expect(!between.isEmpty)
        #expect(between.allSatisfy { $0["variant_name"] as? String == "360p" })
        #expect(segments.last?["variant"] as? Int == 5)
        let selects = try run.events().filter { $0["kind"] as? String == "select" }
        #expect(selects.map { $0["detail"] as? String } == ["360p", "auto"])
        for event in selects {
            #expect(event["position_before_s"] as? Double == event["position_after_s"] as? Double)
        }
    }

    @Test func seekMovesThePlayhead() throws {
        let run = Self.fast(["--seek", "30:100"])
        #expect(run.code == 0, "\(run.stderr)")
        let seek = try #require(try run.events().first { $0["kind"] as? String == "seek" })
        #expect(seek["position_after_s"] as? Double == 100)
        #expect((seek["position_before_s"] as? Double ?? 0) < 30)
        // Media before the target is never played after the jump: fewer segments than the whole stream.
        #expect(try run.summary()["played_segments"] as? Int ?? 48 < 48)
    }

    @Test func subtitlesAreLoggedAsAnAction() throws {
        let run = Self.fast(["--subtitles", "ko"])
        #expect(run.code == 0, "\(run.stderr)")
        let event = try #require(try run.events().first { $0["kind"] as? String == "subtitles" })
        #expect(event["detail"] as? String == "ko")
    }

    @Test func plotWritesAnSVGWithTheActionMarkers() throws {
        let folder = try TemporaryFolder(prefix: "filterz-simulate-plot")
        let path = folder.url.appendingPathComponent("report.svg").path
        let run = Self.simulate([
            "--trace", Self.busTrace, "--no-optimum", "--rotate", "20:landscape", "--select", "60:720p",
            "--seek", "90:10", "--plot", path,
        ])
        #expect(run.code == 0, "\(run.stderr)")
        let svg = try String(contentsOfFile: path, encoding: .utf8)
        #expect(svg.hasPrefix("<svg") || svg.hasPrefix("<?xml"))
        #expect(svg.contains("</svg>"))
        for word in ["landscape", "720p", "seek"] { #expect(svg.contains(word), "\(word)") }
        #expect(run.stdout.contains("QoE"), "the text summary still goes to stdout")
    }

    @Test func tracesRunsEveryTraceWithOneColumnPerRule() throws {
        let folder = SharedData.sampleMedia.appendingPathComponent("traces").path
        let run = Self.simulate(["--traces", folder, "--abr", "bola", "--abr", "mpc", "--abr", "filterz"])
        #expect(run.code == 0, "\(run.stderr)")
        let header = try #require(run.stdout.split(separator: "\n").first)
        #expect(header.contains("bola") && header.contains("mpc") && header.contains("filterz"))
        #expect(run.stdout.contains("3g-norway-bus") || run.stdout.contains("norway"))
        let json = Self.simulate(["--traces", folder, "--abr", "bola", "--abr", "mpc", "--json"])
        let report = try json.report()
        #expect(report["traces"] as? Int == 2)
        let rules = try #require(report["rules"] as? [[String: Any]])
        #expect(rules.map { $0["abr"] as? String } == ["bola", "mpc"])
        for rule in rules {
            let qoe = try #require(rule["mean_qoe_lin"] as? Double)
            let percent = try #require(rule["percent_of_optimum"] as? Double)
            #expect(qoe > 0 && percent <= 100 + 1e-6)
        }
    }

    static let badValues: [(arguments: [String], says: String)] = [
        (["--buffer", "lots"], "--buffer"),
        (["--buffer", "-5"], "--buffer"),
        (["--startup", "-1"], "--startup"),
        (["--viewport", "big"], "--viewport"),
        (["--viewport", "390x844@0"], "--viewport"),
        (["--rotate", "10:sideways"], "--rotate"),
        (["--rotate", "soon:landscape"], "--rotate"),
        (["--select", "5:4k"], "--select"),
        (["--select", "5"], "--select"),
        (["--seek", "10:-5"], "--seek"),
        (["--seek", "-1:5"], "--seek"),
        (["--grid", "0"], "--grid"),
        (["--latency", "fast"], "--latency"),
        (["--abr", "bola", "--abr", "mpc"], "--abr"),
        (["--abr", "fastest"], "--abr"),
        (["--trace", "x.json"], "--trace"),
    ]

    @Test(arguments: badValues.indices)
    func aBadValueExitsTwoWithOneLineNamingTheFlag(_ index: Int) throws {
        let (arguments, says) = Self.badValues[index]
        let run = Self.simulate(["--bandwidth", "3mbps"] + arguments)
        #expect(run.code == 2, "\(arguments): \(run.stderr)")
        let first = run.stderr.split(separator: "\n").first.map(String.init) ?? ""
        #expect(first.contains(says), "\(arguments): \(first)")
        #expect(run.stderr.split(separator: "\n").count <= 3, "error, usage, help hint: \(run.stderr)")
        #expect(run.stdout.isEmpty)
    }

    @Test func aMissingOrEmptyTracesFolderExitsTwo() throws {
        let folder = try TemporaryFolder(prefix: "filterz-simulate-empty")
        for path in [folder.url.path, folder.url.appendingPathComponent("missing").path] {
            let run = Self.simulate(["--traces", path])
            #expect(run.code == 2, "\(run.stderr)")
            #expect(run.stderr.split(separator: "\n").first?.contains(path) == true, "\(run.stderr)")
        }
    }

    /// Every bad value the command line alone shows is refused before the stream is read or fetched: with a
    /// stream file that does not exist, and with a URL whose server would never answer (it is never contacted).
    @Test(arguments: badValues.indices.filter { badValues[$0].arguments != ["--select", "5:4k"] })
    func aBadValueIsRefusedBeforeTheStreamIsReadOrFetched(_ index: Int) throws {
        let (arguments, says) = Self.badValues[index]
        let silent = try SilentListener()
        let missing = FileManager.default.temporaryDirectory.appendingPathComponent("no-such-\(UUID()).json").path
        for stream in [missing, "http://127.0.0.1:\(silent.port)/master.m3u8"] {
            let run = runFilterz(["simulate", stream, "--bandwidth", "3mbps"] + arguments)
            #expect(run.code == 2, "\(arguments): \(run.err)")
            let first = run.err.split(separator: "\n").first.map(String.init) ?? ""
            #expect(first.contains(says), "\(stream) \(arguments): \(first)")
        }
        #expect(!silent.wasContacted, "\(arguments): the stream's server was contacted")
    }
}
