import FilterzTestSupport
import Foundation
import Playback
import RealClients
import Testing

@testable import Simulation

/// `Benchmarks/sabre_anchor.py`, the driver with which `filterz-bench simulate` runs Sabre (when `--sabre FILE`
/// names a checkout's `sabre.py`; Sabre itself is not here). A stand-in for `sabre.py` records the command lines
/// it is given and checks the files they name, so these tests show that each session gets Sabre's flags for the rule (and
/// `-noa` when asked), the manifest in its movie format and one trace's periods as its network file,
/// round-robin over the traces; that the levels are read from Sabre's log, an abandoned download replaced by
/// its retry; and that a script which is not Sabre is refused instead of timed.
@Suite(
    .enabled(if: ExternalTool.isInstalled("python3"), "needs python3 to run Benchmarks/sabre_anchor.py"), .slow)
struct SabreAnchorTests {
    static let driver = SharedData.packageRoot.appendingPathComponent("Benchmarks/sabre_anchor.py").path

    /// Two traces of different lengths (3 and 5 periods), three segments.
    static func input(rule: ABRRuleKind, in folder: TemporaryFolder) throws -> URL {
        let manifest = try StreamManifest(
            segmentDurationMilliseconds: 4000, bitratesKilobitsPerSecond: [300, 750],
            segmentSizesBits: [[1_200_000, 3_000_000], [1_100_000, 2_900_000], [1_300_000, 3_100_000]])
        let traces = try [3, 5].map { count in
            try NetworkTrace(
                name: "t\(count)",
                periods: (0..<count).map { _ in
                    .init(durationMilliseconds: 1000, bandwidthKilobitsPerSecond: 900, latencyMilliseconds: 80)
                })
        }
        let url = folder.url.appendingPathComponent("input.json")
        try ReferenceSimulatorInput.json(
            manifest: manifest, traces: traces, configuration: SessionConfiguration(rule: rule)
        )
        .write(to: url, atomically: true, encoding: .utf8)
        return url
    }

    /// A stand-in for Sabre: parses Sabre's flags, checks the two files, appends one line per session to `log`
    /// and prints a summary line like Sabre's (or nothing, when `summary` is false).
    static func fakeSabre(log: URL, summary: Bool, in folder: TemporaryFolder) throws -> URL {
        let source = """
            import argparse, json
            parser = argparse.ArgumentParser()
            parser.add_argument('-m'); parser.add_argument('-n'); parser.add_argument('-b', type=float)
            parser.add_argument('-a'); parser.add_argument('-ab', action='store_true')
            parser.add_argument('-noa', action='store_true'); parser.add_argument('-v', action='store_true')
            args = parser.parse_args()
            movie = json.load(open(args.m))
            network = json.load(open(args.n))
            assert movie['segment_duration_ms'] == 4000 and len(movie['segment_sizes_bits']) == 3
            assert all(set(p) == {'duration_ms', 'bandwidth_kbps', 'latency_ms'} for p in network)
            with open(\(String(reflecting: log.path)), 'a') as f:
                f.write('%s %s %g %d %s\\n' % (args.a, args.ab, args.b, len(network), args.noa))
            if args.v:
                # Segment 1 is abandoned at level 1 and fetched again at level 0.
                print('[0-100] Network: 900,80  (q=1: bitrate=750)')
                for index, level in [(0, 0), (1, 1), (1, 0), (2, len(network) - 3)]:
                    print('[0-100]  %d: q=%d s=1200000/0 t=1400=80+1320 bl=0->0->4000' % (index, level))
                    if (index, level) == (1, 1):
                        print(' ABANDONED to 0 - 600000/3000000 bits in 700=80+620 ttfb+ttdl  bl=3300')
            if \(summary ? "True" : "False"):
                print('total rebuffer: %f' % (1.5 * len(network)))
            """
        let url = folder.url.appendingPathComponent("sabre.py")
        try source.write(to: url, atomically: true, encoding: .utf8)
        return url
    }

    @Test func eachSessionRunsSabreWithTheRulesFlagsOnOneTrace() throws {
        let folder = try TemporaryFolder(prefix: "filterz-sabre-anchor")
        let log = folder.url.appendingPathComponent("sessions.log")
        let sabre = try Self.fakeSabre(log: log, summary: true, in: folder)
        let cases: [(ABRRuleKind, [String], String)] = [
            (.bola, [], "bola True 60"), (.throughput, [], "throughput False 60"),
            (.bola, ["--no-abandon"], "bola True 60"),
        ]
        for (rule, options, flags) in cases {
            try? FileManager.default.removeItem(at: log)
            let input = try Self.input(rule: rule, in: folder)
            let result = try ExternalTool.run(
                "python3", [Self.driver, sabre.path, input.path, "--bench", "0.05"] + options, timeoutSeconds: 60)
            #expect(result.exitCode == 0, "\(result.stderr)")
            let object = try #require(
                try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
            let sessions = try #require(object["sessions"] as? Int)
            #expect(((object["sessions_per_s"] as? NSNumber)?.doubleValue ?? 0) > 0)
            // The untimed first session, then the timed ones, alternating between the 3- and 5-period traces.
            let lines = try String(contentsOf: log, encoding: .utf8).split(separator: "\n").map(String.init)
            let noAbandon = options.isEmpty ? "False" : "True"
            #expect(lines.count == sessions + 1)
            #expect(
                lines.enumerated().allSatisfy { $1 == "\(flags) \($0 == 0 || ($0 - 1) % 2 == 0 ? 3 : 5) \(noAbandon)" },
                "\(lines.prefix(4))")
        }
    }

    @Test func checkReadsTheLevelsAndRebufferingFromSabresLog() throws {
        let folder = try TemporaryFolder(prefix: "filterz-sabre-anchor")
        let sabre = try Self.fakeSabre(
            log: folder.url.appendingPathComponent("sessions.log"), summary: true, in: folder)
        let input = try Self.input(rule: .bola, in: folder)
        let result = try ExternalTool.run(
            "python3", [Self.driver, sabre.path, input.path, "--check"], timeoutSeconds: 60)
        #expect(result.exitCode == 0, "\(result.stderr)")
        let objects = try result.stdout.split(separator: "\n").map { line in
            try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
        }
        #expect(objects.map { $0["trace"] as? String } == ["t3", "t5"])
        #expect(objects.map { $0["levels"] as? [Int] } == [[0, 0, 0], [0, 0, 2]])
        #expect(objects.map { ($0["rebuffer_s"] as? NSNumber)?.doubleValue } == [4.5, 7.5])
    }

    @Test func aScriptThatPrintsNoSessionSummaryIsRefused() throws {
        let folder = try TemporaryFolder(prefix: "filterz-sabre-anchor")
        let sabre = try Self.fakeSabre(
            log: folder.url.appendingPathComponent("sessions.log"), summary: false, in: folder)
        let input = try Self.input(rule: .bola, in: folder)
        let result = try ExternalTool.run(
            "python3", [Self.driver, sabre.path, input.path, "--bench", "0.05"], timeoutSeconds: 60)
        #expect(result.exitCode == 1)
        #expect(result.stderr.contains(sabre.path) && result.stderr.contains("no session summary"))
        #expect(result.stdout.isEmpty)
    }
}
