import FilterzTestSupport
import Foundation
import RealClients
import Server
import Testing

@testable import CLIKit
@testable import FilterzCLI
@testable import Inspect

/// `filterz simulate` on a real stream: the folder `filterz record` wrote and the same stream over HTTP from
/// `filterz serve` must give the same simulation (segment sizes from the files and from Content-Length agree).
@Suite(.slow) struct SimulateStreamInputTests {
    @Test func aRecordedFolderAndTheSameStreamServedOverHTTPSimulateIdentically() throws {
        let folder = try TemporaryFolder(prefix: "filterz-simulate-input")
        let video = folder.url.appendingPathComponent("clip")
        let recorded = runFilterz(
            [
                "record", "--preset", "neutral", "--duration", "4", "--fps", "10", "--size", "320x180",
                "--ladder", "320x180@400k,160x90@150k", "--segment-duration", "2", "--out", video.path,
            ],
            environment: samplePresets)
        try #require(recorded.code == 0, "record failed: \(recorded.err)")

        func simulate(_ stream: String) -> (code: Int32, out: String, err: String) {
            runFilterz(["simulate", stream, "--bandwidth", "300kbps", "--latency", "20ms", "--json"])
        }

        let local = simulate(video.path)
        #expect(local.code == 0, "\(local.err)")
        let report = try #require(try JSONSerialization.jsonObject(with: Data(local.out.utf8)) as? [String: Any])
        let segments = try #require(report["segments"] as? [[String: Any]])
        #expect(segments.count == 2)
        #expect(Set(segments.compactMap { $0["variant_name"] as? String }).isSubset(of: ["90p", "180p"]))

        var configuration = ServerConfiguration(root: folder.url.path)
        configuration.host = "127.0.0.1"
        configuration.port = 0
        let server = try HTTPServer(configuration: configuration)
        defer { server.stop(graceSeconds: 1) }
        let remote = simulate("\(server.baseURL)/v1/videos/clip/master.m3u8")
        #expect(remote.code == 0, "\(remote.err)")
        #expect(remote.out == local.out)

        let missing = simulate("\(server.baseURL)/v1/videos/none/master.m3u8")
        #expect(missing.code == 2)
        #expect(missing.err.contains("HTTP 404"))
    }
}
