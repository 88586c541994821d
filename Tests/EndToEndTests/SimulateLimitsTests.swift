import FilterzTestSupport
import Foundation
import RealClients
import Testing

@testable import CLIKit
@testable import FilterzCLI
@testable import Inspect

/// `filterz simulate` on extreme numbers (in process through `CLI.run`): a flag outside its range is a usage
/// error naming it (exit 2), a trace or manifest value outside its range names the field (exit 1), and a
/// network too slow for the stream ends at the session bound (exit 1) — never a trap, a huge allocation or a
/// run without end.
@Suite struct SimulateLimitsTests {
    static let manifest = SharedData.sampleMedia.appendingPathComponent("manifests/pensieve-envivio-48.json").path

    static func simulate(_ arguments: [String]) -> (code: Int32, out: String, err: String) {
        runFilterz(["simulate"] + arguments)
    }

    struct FlagCase: Sendable, CustomTestStringConvertible {
        var flags: [String]
        var names: String
        var testDescription: String { flags.joined(separator: " ") }
    }

    @Test(arguments: [
        FlagCase(flags: ["--bandwidth", "1e308bps"], names: "--bandwidth"),
        FlagCase(flags: ["--bandwidth", "1e-300bps"], names: "--bandwidth"),
        FlagCase(flags: ["--bandwidth", "1bps"], names: "--bandwidth"),
        FlagCase(flags: ["--bandwidth", "101gbps"], names: "--bandwidth"),
        FlagCase(flags: ["--bandwidth", "nan"], names: "--bandwidth"),
        FlagCase(flags: ["--bandwidth", "3mbps", "--latency", "1e300ms"], names: "--latency"),
        FlagCase(flags: ["--bandwidth", "3mbps", "--latency", "61s"], names: "--latency"),
        FlagCase(flags: ["--bandwidth", "3mbps", "--buffer", "1e308"], names: "--buffer"),
        FlagCase(flags: ["--bandwidth", "3mbps", "--startup", "1e308"], names: "--startup"),
        FlagCase(flags: ["--bandwidth", "3mbps", "--grid", "1e-300"], names: "--grid"),
        FlagCase(flags: ["--bandwidth", "3mbps", "--grid", "1e308"], names: "--grid"),
        FlagCase(flags: ["--bandwidth", "3mbps", "--viewport", "9223372036854775807x2@10"], names: "--viewport"),
        FlagCase(flags: ["--bandwidth", "3mbps", "--viewport", "390x844@1000000"], names: "--viewport"),
        FlagCase(flags: ["--bandwidth", "3mbps", "--seek", "1e300:10"], names: "--seek"),
        FlagCase(flags: ["--bandwidth", "3mbps", "--seek", "10:1e300"], names: "--seek"),
        FlagCase(flags: ["--bandwidth", "3mbps", "--rotate", "1e308:landscape"], names: "--rotate"),
        FlagCase(flags: ["--bandwidth", "3mbps", "--select", "1e308:auto"], names: "--select"),
    ])
    func aFlagOutsideItsRangeIsAUsageErrorNamingIt(_ flag: FlagCase) {
        let run = Self.simulate([Self.manifest] + flag.flags)
        #expect(run.code == 2, "\(run.err)")
        let first = run.err.split(separator: "\n").first.map(String.init) ?? ""
        #expect(first.contains(flag.names), "\(first)")
        #expect(!run.err.contains("Fatal error"))
    }

    struct TraceCase: Sendable, CustomTestStringConvertible {
        var sample: String
        var says: String
        var testDescription: String { sample }
    }

    /// Each bad sample in both trace formats: the normalised object and a bare Sabre list.
    @Test(arguments: [
        TraceCase(
            sample: #"{"duration_ms": 1e308, "bandwidth_kbps": 1000, "latency_ms": 20}"#,
            says: "samples[1].duration_ms is 1e+308"),
        TraceCase(
            sample: #"{"duration_ms": 1e-300, "bandwidth_kbps": 1000, "latency_ms": 20}"#,
            says: "samples[1].duration_ms"),
        TraceCase(
            sample: #"{"duration_ms": 1000, "bandwidth_kbps": 1e308, "latency_ms": 20}"#,
            says: "samples[1].bandwidth_kbps"),
        TraceCase(
            sample: #"{"duration_ms": 1000, "bandwidth_kbps": 1e-300, "latency_ms": 20}"#,
            says: "samples[1].bandwidth_kbps"),
        TraceCase(
            sample: #"{"duration_ms": 1000, "bandwidth_kbps": 1000, "latency_ms": 1e300}"#,
            says: "samples[1].latency_ms"),
        TraceCase(
            sample: #"{"duration_ms": 1000, "bandwidth_kbps": 1e309, "latency_ms": 20}"#,
            says: "samples[1].bandwidth_kbps: 1e309 is out of the range of a number"),
        TraceCase(
            sample: #"{"duration_ms": 1000, "bandwidth_kbps": "fast", "latency_ms": 20}"#,
            says: "samples[1].bandwidth_kbps is not a number"),
        TraceCase(sample: #"{"duration_ms": 1000, "bandwidth_kbps": 1000}"#, says: "samples[1] has no latency_ms"),
    ])
    func aTraceValueOutsideItsRangeFailsNamingTheSample(_ bad: TraceCase) throws {
        let folder = try TemporaryFolder()
        let good = #"{"duration_ms": 1000, "bandwidth_kbps": 3000, "latency_ms": 20}"#
        let list = "[\(good), \(bad.sample)]"
        for (name, text) in [("object.json", #"{"name": "bad", "samples": \#(list)}"#), ("list.json", list)] {
            let path = folder.url.appendingPathComponent(name).path
            try Data(text.utf8).write(to: URL(fileURLWithPath: path))
            let run = Self.simulate([Self.manifest, "--trace", path])
            #expect(run.code == 1, "\(name): \(run.err)")
            #expect(run.err.contains(bad.says), "\(name): \(run.err)")
            #expect(run.err.split(separator: "\n").count == 1, "\(run.err)")
        }
    }

    @Test(arguments: [
        (#"{"segment_duration_ms": 1e308, "bitrates_kbps": [300], "segment_sizes_bits": [[1e6]]}"#, "segment duration"),
        (
            #"{"segment_duration_ms": 4000, "bitrates_kbps": [1e-300], "segment_sizes_bits": [[1e6]]}"#,
            "bitrate of level 0"
        ),
        (#"{"segment_duration_ms": 4000, "bitrates_kbps": [300], "segment_sizes_bits": [[1e308]]}"#, "segment 0 needs"),
        (
            #"{"segment_duration_ms": 4000, "bitrates_kbps": [300], "segment_sizes_bits": [[1e309]]}"#,
            "segment_sizes_bits[0][0]: 1e309 is out of the range"
        ),
    ])
    func aManifestValueOutsideItsRangeFailsNamingTheField(_ text: String, _ says: String) throws {
        let folder = try TemporaryFolder()
        let path = folder.url.appendingPathComponent("movie.json").path
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        let run = Self.simulate([path, "--bandwidth", "3mbps"])
        #expect(run.code == 1, "\(run.err)")
        #expect(run.err.contains(says), "\(run.err)")
    }

    /// Only outages but for 1 ms a day at 1 bit/s: a 48-segment stream would take millennia.
    @Test func aNetworkTooSlowForTheStreamFailsAtTheSessionBound() throws {
        let folder = try TemporaryFolder()
        let path = folder.url.appendingPathComponent("trickle.json").path
        let trace =
            #"{"samples": [{"duration_ms": 1, "bandwidth_kbps": 0.001, "latency_ms": 0}, "#
            + #"{"duration_ms": 86400000, "bandwidth_kbps": 0, "latency_ms": 60000}]}"#
        try Data(trace.utf8).write(to: URL(fileURLWithPath: path))
        for extra in [[], ["--seek", "5:20"], ["--traces", folder.url.path]] {
            let run = Self.simulate([Self.manifest] + (extra.first == "--traces" ? extra : ["--trace", path] + extra))
            #expect(run.code == 1, "\(extra): \(run.err)")
            #expect(run.err.contains("did not finish within 7 days of virtual time"), "\(extra): \(run.err)")
        }
    }

    /// A trace file is refused by its size before it is read (a sparse file: nothing is written to disk).
    @Test func aTraceFileLargerThanTheLimitIsRefusedUnread() throws {
        let folder = try TemporaryFolder()
        let path = folder.url.appendingPathComponent("huge.json").path
        FileManager.default.createFile(atPath: path, contents: nil)
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
        try handle.truncate(atOffset: UInt64(InputFile.maximumBytes + 1))
        try handle.close()
        let run = Self.simulate([Self.manifest, "--trace", path])
        #expect(run.code == 1, "\(run.err)")
        #expect(run.err.contains("a trace file is at most 256 MiB"), "\(run.err)")
    }

    /// A batch keeps every trace in memory: past a total number of samples it is refused, naming the trace.
    @Test func aBatchWithTooManySamplesInAllIsRefused() throws {
        let folder = try TemporaryFolder()
        let sample = #"{"duration_ms": 1000, "bandwidth_kbps": 3000, "latency_ms": 20}"#
        for name in ["a", "b"] {
            try Data("[\(sample), \(sample), \(sample)]".utf8).write(
                to: folder.url.appendingPathComponent("\(name).json"))
        }
        #expect(try TraceLoader.loadFolder(folder.url.path, maximumPeriods: 6).count == 2)
        #expect {
            try TraceLoader.loadFolder(folder.url.path, maximumPeriods: 5)
        } throws: { "\($0)".contains("more than 5 samples in all (reached at \(folder.url.path)/b.json)") }
    }
}
