import FilterzTestSupport
import Foundation
import RealClients
import Testing
import Traces

@testable import Server

/// `serve --shape` over real sockets, seen by curl: no answer arrives faster than its link carries it (these
/// bounds are what a link guarantees, not timings of the machine; how close to the link a transfer comes is
/// measured by `filterz-bench shape`), the first byte waits the latency, a client's connections share its link,
/// and the access log tells each answer's timing on the link.
@Suite(.serialized, .network, .enabled(if: ExternalTool.isInstalled("curl")))
struct ShapedServingTests {
    static func site(_ trace: NetworkTrace, scope: LinkShape.Scope = .client) throws -> TestSite {
        try TestSite(
            populate: { site in
                try site.write("v/big.bin", (0..<(1 << 20)).map { UInt8(truncatingIfNeeded: $0 &* 31) })
                try site.write("v/index.m3u8", "#EXTM3U\n" + String(repeating: "#EXT-X-COMMENT\n", count: 4000))
            },
            configure: { $0.shape = LinkShape(trace: trace, scope: scope) }, logsAccess: true)
    }

    /// curl's (first byte, total) seconds and bytes for each URL, fetched at once by separate processes.
    static func fetch(_ urls: [String], headers: [String] = []) async throws -> [(
        first: Double, total: Double, bytes: Int
    )] {
        try await withThrowingTaskGroup(of: (Int, (Double, Double, Int)).self) { group in
            for (index, url) in urls.enumerated() {
                group.addTask {
                    let result = try ExternalTool.run(
                        "curl",
                        ["-s", "-o", "/dev/null", "-w", "%{time_starttransfer} %{time_total} %{size_download}"]
                            + headers.flatMap { ["-H", $0] } + [url], timeoutSeconds: 60)
                    let fields = result.stdout.split(separator: " ")
                    guard result.exitCode == 0, fields.count == 3, let first = Double(fields[0]),
                        let total = Double(fields[1]), let bytes = Int(fields[2])
                    else { throw CurlFailure(output: result.stdout + result.stderr) }
                    return (index, (first, total, bytes))
                }
            }
            var results = Array(repeating: (first: 0.0, total: 0.0, bytes: 0), count: urls.count)
            for try await (index, result) in group { results[index] = result }
            return results
        }
    }

    struct CurlFailure: Error { var output: String }

    /// What a link may deliver ahead of its rate: the bucket it starts with and one burst.
    static let aheadSeconds = 0.05

    @Test func aFileArrivesNoFasterThanTheLinkAfterItsLatencyAndTheLogTellsItsTiming() async throws {
        let site = try Self.site(try .constant(bitsPerSecond: 2_000_000, latencySeconds: 0.04))
        let url = "\(site.server.baseURL)/v/big.bin"
        let result = try #require(try await Self.fetch([url]).first)
        #expect(result.bytes == 1 << 20)
        #expect(result.first >= 0.04, "first byte after \(result.first) s, under the 40 ms latency")
        let linkSeconds = Double(1 << 20) * 8 / 2_000_000
        #expect(result.total >= linkSeconds - Self.aheadSeconds, "\(result.total) s for \(linkSeconds) s of link")
        print("1 MiB over 2 Mb/s, 40 ms: first byte \(result.first) s, all \(result.total) s (link: \(linkSeconds) s)")
        let line = try #require(site.accessLog.all.first { $0.contains("/v/big.bin") })
        let fields = Dictionary(
            uniqueKeysWithValues: line.split(separator: " ").compactMap { field -> (String, String)? in
                let pair = field.split(separator: "=")
                return pair.count == 2 ? (String(pair[0]), String(pair[1])) : nil
            })
        let ready = try #require(fields["ready"].flatMap(Double.init)),
            first = try #require(fields["first"].flatMap(Double.init))
        let last = try #require(fields["last"].flatMap(Double.init))
        #expect(first - ready >= 0.04 && last - first >= linkSeconds - Self.aheadSeconds, "\(line)")
        #expect(fields["sent"] == "\(1 << 20)", "\(line)")
    }

    @Test func aClientsConnectionsShareItsLinkUnlessEachHasItsOwn() async throws {
        let trace = try NetworkTrace.constant(bitsPerSecond: 4_000_000, latencySeconds: 0)
        let alone = Double(1 << 20) * 8 / 4_000_000
        let shared = try Self.site(trace)
        // From the first request to the last byte (the two processes do not start at the same instant).
        let started = Date()
        let both = try await Self.fetch(Array(repeating: "\(shared.server.baseURL)/v/big.bin", count: 2))
        let span = Date().timeIntervalSince(started)
        #expect(span >= 2 * alone - Self.aheadSeconds, "\(span) s for \(both): one link carried both")
        // Each connection alone on a link of its own: neither is held to the other's share (only the lower bound
        // is a guarantee; that they do not wait for each other is the links' keys, checked without sockets in
        // ShapedLinkTests).
        let own = try Self.site(trace, scope: .connection)
        let apart = try await Self.fetch(Array(repeating: "\(own.server.baseURL)/v/big.bin", count: 2))
        #expect(apart.allSatisfy { $0.total >= alone - Self.aheadSeconds && $0.bytes == 1 << 20 }, "\(apart)")
    }

    @Test func rangesAndAnswersFromMemoryGoThroughTheLinkAndAnOutageStallsIt() async throws {
        // 1 s at 4 Mb/s, then 2 s with nothing: 500,000 bytes, then a 2 s wait for the rest.
        let trace = try NetworkTrace(
            name: "outage",
            periods: [
                .init(durationMilliseconds: 1000, bandwidthKilobitsPerSecond: 4000, latencyMilliseconds: 0),
                .init(durationMilliseconds: 2000, bandwidthKilobitsPerSecond: 0, latencyMilliseconds: 0),
            ])
        let site = try Self.site(trace)
        let results = try await Self.fetch(["\(site.server.baseURL)/v/big.bin"], headers: ["Range: bytes=0-599999"])
        #expect(results[0].bytes == 600_000)
        #expect(results[0].total >= 3.0 - Self.aheadSeconds, "\(results[0].total) s: the outage did not hold the range")
        // A playlist (answered from memory) on the same client's link, now in its second pass.
        let playlist = try await Self.fetch(["\(site.server.baseURL)/v/index.m3u8"])
        #expect(playlist[0].bytes > 50_000)
    }
}
