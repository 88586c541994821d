import FilterzTestSupport
import Foundation
import RealClients
import Testing

@testable import Server

/// A real nginx (Debian's) as the TLS/HTTP/2 edge in front of our origin, with the block `--nginx-config
/// --upstream` prints and a self-signed certificate made here: HTTP/2 through it, and a hundred low-latency
/// viewers collapsed into about one request to the origin.
@Suite(
    .enabled(
        if: RunningNginx.isAvailable && ExternalTool.isInstalled("openssl") && ExternalTool.isInstalled("curl")
            && ExternalTool.isInstalled("python3")), .serialized, .network)
struct NginxEdgeTests {
    final class Edge {
        let site: TestSite
        let writer: LowLatencyWriter
        let nginx: RunningNginx
        let certificates: TemporaryFolder

        init() throws {
            site = try TestSite(populate: { _ in }, configure: { $0.connectionsPerAddress = 0 }, logsAccess: true)
            writer = try LowLatencyWriter(folder: site.root.appendingPathComponent("live/v0"))
            for _ in 0..<6 { try writer.addPart() }
            certificates = try TemporaryFolder(prefix: "filterz-edge-tls")
            let certificate = certificates.url.appendingPathComponent("edge.pem").path
            let key = certificates.url.appendingPathComponent("edge.key").path
            let made = try ExternalTool.run(
                "openssl",
                [
                    "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", key, "-out", certificate, "-days", "1",
                    "-subj", "/CN=127.0.0.1", "-addext", "subjectAltName=IP:127.0.0.1",
                ], timeoutSeconds: 60)
            guard made.exitCode == 0 else { throw TinyStreamError.ffmpeg("openssl: \(made.stderr)") }
            let port = try LoopbackPort.unused()
            var edge = ServerConfiguration(root: site.root.path)
            edge.port = port
            let block = try NginxEdgeConfig.serverBlock(
                for: edge, upstream: "http://127.0.0.1:\(site.port)", certificate: certificate, key: key,
                cacheFolder: certificates.url.appendingPathComponent("cache").path)
            nginx = try RunningNginx(serverBlock: block, port: port)
        }

        var base: String { "https://127.0.0.1:\(nginx.port)" }
    }

    @Test func curlGetsHTTP2ThroughTheEdge() throws {
        let edge = try Edge()
        let result = try ExternalTool.run(
            "curl",
            [
                "--http2", "-k", "-s", "-o", "/dev/null", "-w", "%{http_version} %{http_code}",
                edge.base + "/live/v0/index.m3u8",
            ])
        #expect(result.stdout == "2 200", "\(result.stderr)")
    }

    static let viewers = #"""
        import json, ssl, sys, threading, urllib.request
        url, count = sys.argv[1], int(sys.argv[2])
        context = ssl.create_default_context(); context.check_hostname = False; context.verify_mode = ssl.CERT_NONE
        bodies, lock = [], threading.Lock()
        def view():
            try:
                body = urllib.request.urlopen(url, context=context, timeout=30).read().decode()
            except Exception as error:
                body = "error: " + repr(error)
            with lock: bodies.append(body)
        threads = [threading.Thread(target=view) for _ in range(count)]
        for thread in threads: thread.start()
        print("started", flush=True)
        for thread in threads: thread.join()
        print(json.dumps(bodies))
        """#

    @Test func aHundredViewersWaitingForTheSamePartCostTheOriginAboutOneRequest() throws {
        let edge = try Edge()
        let target = "/live/v0/index.m3u8?_HLS_msn=1&_HLS_part=3"
        let viewers = Process()
        viewers.executableURL = URL(fileURLWithPath: ExternalTool.path(of: "python3") ?? "/usr/bin/python3")
        viewers.arguments = ["-c", Self.viewers, edge.base + target, "100"]
        let output = Pipe()
        viewers.standardOutput = output
        try viewers.run()
        // Every viewer is waiting (held at the origin or at nginx's cache lock) before the part comes.
        _ = output.fileHandleForReading.readData(ofLength: 8)
        Thread.sleep(forTimeInterval: 1.5)
        try edge.writer.addPart()
        try edge.writer.addPart()
        let expected = edge.writer.playlist
        let data = output.fileHandleForReading.readDataToEndOfFile()
        viewers.waitUntilExit()
        let bodies = try #require(try JSONSerialization.jsonObject(with: data) as? [String])
        #expect(bodies.count == 100)
        // Each got a version with the part: the first (or, for late ones, a later one).
        #expect(bodies.allSatisfy { $0.contains(LowLatencyWriter.partName(1, 3)) }, "\(bodies.first ?? "")")
        #expect(bodies.filter { $0 == expected }.count >= 1)
        let upstream = edge.site.accessLog.all.filter { $0.contains(target) }
        #expect((1...3).contains(upstream.count), "\(upstream.count) origin requests for one target")
    }
}
