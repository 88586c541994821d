import FilterzTestSupport
import Foundation
import RealClients
import Server
import Testing

@testable import CLIKit
@testable import FilterzCLI
@testable import Inspect

@Suite(.slow) struct ServeCommandTests {
    @Test func helpListsEveryFlag() {
        let help = runFilterz(["serve", "--help"])
        #expect(help.code == 0)
        for flag in ["--host", "--port", "--cors-origin", "--token-secret", "--quiet", "--nginx-config"] {
            #expect(help.out.contains(flag), "\(flag)")
        }
        #expect(runFilterz(["sign", "--help"]).out.contains("--ttl"))
    }

    @Test func nginxConfigPrintsAServerBlockForTheFolder() throws {
        let folder = try TemporaryFolder()
        let result = runFilterz([
            "serve", folder.url.path, "--port", "9000", "--cors-origin", "https://app.example", "--nginx-config",
        ])
        #expect(result.code == 0)
        #expect(result.out.contains("server {"))
        #expect(result.out.contains("listen 127.0.0.1:9000;"))
        #expect(result.out.contains("application/vnd.apple.mpegurl m3u8;"))
        #expect(result.out.contains("add_header Access-Control-Allow-Origin \"https://app.example\" always;"))
        #expect(result.out.contains("public, max-age=31536000, immutable"))
    }

    /// nginx expands `$x` inside `root` (the block then fails `nginx -t` with 'unknown "x" variable'), and cannot
    /// listen on port 0.
    @Test func nginxConfigRefusesWhatNginxCannotLoad() throws {
        let folder = try TemporaryFolder()
        let odd = folder.url.appendingPathComponent("price$x")
        try FileManager.default.createDirectory(at: odd, withIntermediateDirectories: true)
        let result = runFilterz(["serve", odd.path, "--nginx-config"])
        #expect(result.code == 2)
        // nginx refuses `listen 127.0.0.1:0` ("invalid port"), so that block would not load either.
        let portZero = runFilterz(["serve", folder.url.path, "--port", "0", "--nginx-config"])
        #expect(portZero.code == 2 && portZero.out.isEmpty)
        #expect(portZero.err.contains("--port"), "\(portZero.err)")
        #expect(result.out.isEmpty)
        #expect(result.err.contains("price$x") && result.err.contains("variable"), "\(result.err)")
    }

    @Test func badArgumentsAreUsageErrors() {
        #expect(runFilterz(["serve"]).code == 2)
        #expect(runFilterz(["serve", "/nonexistent/folder/x"]).code == 2)
        #expect(runFilterz(["serve", "/tmp", "--port", "70000"]).code == 2)
        #expect(runFilterz(["serve", "/tmp", "--token-secret", ""]).code == 2)
        // An origin the header (or the nginx block) cannot carry would silently leave players without CORS.
        for origin in [
            "", "app.example", "https://app.example/", "https://a.example https://b.example", "https://x\"; evil",
        ] {
            let result = runFilterz(["serve", "/tmp", "--cors-origin", origin, "--nginx-config"])
            #expect(result.code == 2, "'\(origin)'")
            #expect(result.err.contains("--cors-origin"), "'\(origin)': \(result.err)")
        }
        for origin in ["*", "null", "https://app.example:8443", "http://[::1]:8080"] {
            #expect(runFilterz(["serve", "/tmp", "--cors-origin", origin, "--nginx-config"]).code == 0, "'\(origin)'")
        }
        #expect(runFilterz(["sign", "abc"]).code == 2)
        #expect(runFilterz(["sign", "abc", "--token-secret", "s", "--ttl", "0"]).code == 2)
        // Ids the server can never serve as a video folder would print URLs that are always refused.
        for id in ["", "a/b", "..", ".", ".hidden", "a\u{0}b"] {
            let result = runFilterz(["sign", id, "--token-secret", "s"])
            #expect(result.code == 2, "'\(id)': \(result.out)")
            #expect(result.out.isEmpty && result.err.contains("video id"), "'\(id)': \(result.err)")
        }
        for id in ["warm-film", "한국", "a?b#c", "100%"] {
            #expect(runFilterz(["sign", id, "--token-secret", "s"]).code == 0, "'\(id)'")
        }
    }

    @Test func signPrintsAURLTheServerAccepts() throws {
        let result = runFilterz(
            ["sign", "warm film", "--ttl", "60", "--base-url", "http://127.0.0.1:8080/"],
            environment: ["FILTERZ_TOKEN_SECRET": "s3cret"])
        #expect(result.code == 0)
        let url = result.out.trimmingCharacters(in: .newlines)
        #expect(url.hasPrefix("http://127.0.0.1:8080/v1/videos/warm%20film/master.m3u8?token="))
        let token = String(url.split(separator: "=").last ?? "")
        let now = Int64(Date().timeIntervalSince1970)
        #expect(URLSigner(secret: "s3cret").isValid(token, videoID: "warm film", now: now))
        #expect(!URLSigner(secret: "s3cret").isValid(token, videoID: "warm film", now: now + 61))
    }

    /// `filterz inspect --recursive` reads a stream through our server (plain and signed) and finds no problem.
    @Test(.enabled(if: ExternalTool.isInstalled("ffmpeg")), arguments: [nil, "s3cret"] as [String?])
    func inspectRecursiveOverHTTPFindsNoProblem(secret: String?) throws {
        let folder = try TemporaryFolder()
        let variant = folder.url.appendingPathComponent("clip/v0")
        try FileManager.default.createDirectory(at: variant, withIntermediateDirectories: true)
        let made = try ExternalTool.run(
            "ffmpeg",
            [
                "-v", "error", "-nostdin", "-f", "lavfi", "-i", "testsrc2=size=160x90:rate=10", "-t", "3", "-c:v",
                "libx264",
                "-preset", "ultrafast", "-g", "10", "-f", "hls", "-hls_time", "1", "-hls_playlist_type", "vod",
                variant.appendingPathComponent("index.m3u8").path,
            ], timeoutSeconds: 60)
        try #require(made.exitCode == 0, "\(made.stderr)")
        try "#EXTM3U\n#EXT-X-STREAM-INF:BANDWIDTH=300000,RESOLUTION=160x90,CODECS=\"avc1.640014\"\nv0/index.m3u8\n"
            .write(
                to: folder.url.appendingPathComponent("clip/master.m3u8"), atomically: true, encoding: .utf8)
        var configuration = ServerConfiguration(root: folder.url.path)
        configuration.port = 0
        configuration.tokenSecret = secret
        let server = try HTTPServer(configuration: configuration)
        defer { server.stop() }
        var url = server.baseURL + "/v1/videos/clip/master.m3u8"
        if let secret {
            url =
                server.baseURL
                + URLSigner(secret: secret).signedMasterURL(
                    videoID: "clip", expiresAt: Int64(Date().timeIntervalSince1970) + 60)
        }
        let result = runFilterz(["inspect", "--recursive", url])
        #expect(result.code == 0, "\(result.out)\(result.err)")
        // Our hand-written master draws authoring warnings; what matters is that every playlist loaded and lines up.
        #expect(!result.out.contains(": error:"), "\(result.out)")
        #expect(result.out.contains("Cross-playlist checks: ok"), "\(result.out)")
    }

    static var binary: URL { URL(fileURLWithPath: FilterzChild.binary ?? "/nonexistent/filterz") }

    /// `filterz serve --port 0` as a process: first line is the URL; SIGTERM and SIGINT end it with 0.
    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: binary.path)), arguments: [SIGTERM, SIGINT])
    func serveAnnouncesItsURLAndExitsCleanlyOnASignal(signal: Int32) throws {
        let folder = try TemporaryFolder()
        try FileManager.default.createDirectory(
            at: folder.url.appendingPathComponent("v"), withIntermediateDirectories: true)
        try "#EXTM3U\n#EXT-X-STREAM-INF:BANDWIDTH=1\na.m3u8\n".write(
            to: folder.url.appendingPathComponent("v/master.m3u8"), atomically: true, encoding: .utf8)
        let process = Process()
        process.executableURL = Self.binary
        process.arguments = ["serve", folder.url.path, "--port", "0"]
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        defer { if process.isRunning { process.terminate() } }
        var line = Data()
        while !line.contains(10) {
            let chunk = out.fileHandleForReading.availableData
            if chunk.isEmpty { break }
            line.append(chunk)
        }
        let url = String(decoding: line, as: UTF8.self).split(separator: "\n").first.map(String.init) ?? ""
        #expect(url.hasPrefix("http://127.0.0.1:") && url.hasSuffix("/"))
        let fetched = try ExternalTool.run(
            "curl", ["-s", "-o", "/dev/null", "-w", "%{http_code}", url + "v1/videos/v/master.m3u8"], timeoutSeconds: 10
        )
        #expect(fetched.stdout == "200")
        kill(process.processIdentifier, signal)
        process.waitUntilExit()
        #expect(process.terminationReason == .exit)
        #expect(process.terminationStatus == 0)
        let log = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        #expect(log.contains("\"GET /v1/videos/v/master.m3u8 HTTP/1.1\" 200"))
    }

    /// `filterz serve --quiet` on `folder`, holding one video, as a child whose descriptor limit is
    /// `descriptorLimit` (`ulimit -n`), once it has printed its URL; and the port it listens on.
    static func serve(_ folder: TemporaryFolder, descriptorLimit: Int) throws -> (child: FilterzChild, port: UInt16) {
        try FileManager.default.createDirectory(
            at: folder.url.appendingPathComponent("v"), withIntermediateDirectories: true)
        try "#EXTM3U\n#EXT-X-STREAM-INF:BANDWIDTH=1\na.m3u8\n".write(
            to: folder.url.appendingPathComponent("v/master.m3u8"), atomically: true, encoding: .utf8)
        let child = try FilterzChild(
            ["serve", folder.url.path, "--port", "0", "--quiet"],
            launcher: ["bash", "-c", "ulimit -n \(descriptorLimit) && exec \"$0\" \"$@\""], logs: folder.url)
        let deadline = Date().addingTimeInterval(30)
        while !child.stdout.contains("\n") && child.isRunning && Date() < deadline { usleep(50_000) }
        let url = child.stdout.split(separator: "\n").first.map(String.init) ?? ""
        let port = try #require(UInt16(url.split(separator: ":").last?.split(separator: "/").first ?? ""), "\(url)")
        return (child, port)
    }

    /// Out of file descriptors (a hard limit of 64 for the whole process): a new client is told 503 and closed
    /// at once rather than left waiting, a file that cannot be opened for want of a descriptor is 503 (not 404),
    /// and once the clients leave new ones are served again.
    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: binary.path)))
    func outOfDescriptorsEveryClientHearsAndNoneIsToldAFileIsMissing() throws {
        let folder = try TemporaryFolder()
        let (child, port) = try Self.serve(folder, descriptorLimit: 64)
        // More connections than the process has descriptors for; each new one, once the limit is hit, gets its
        // answer (or is closed) without waiting.
        var connections: [RawConnection] = []
        var refused = 0
        for _ in 0..<90 {
            let connection = try RawConnection(port: port, timeoutSeconds: 10)
            try connection.send("GET /v/master.m3u8 HTTP/1.1\r\nHost: x\r\n\r\n")
            connections.append(connection)
        }
        var served = 0, waiting = 0, unexpected: [Int] = []
        for connection in connections {
            do {
                switch try connection.readResponse().status {
                case 200: served += 1
                case 503: refused += 1
                case let other: unexpected.append(other)
                }
            } catch RawHTTPError.closed, RawHTTPError.receive(ECONNRESET) {
                refused += 1
            } catch {
                waiting += 1
            }
        }
        // Whether a client is served or refused depends on how far the server got before its slots (fewer than
        // its descriptors) or its descriptors ran out; every one of them hears which, and none is told a file
        // that is there is missing.
        #expect(
            served + refused == 90,
            "served \(served), refused \(refused), no answer within 10 s \(waiting), other \(unexpected)")
        connections.removeAll()
        usleep(200_000)
        #expect(try RawConnection(port: port, timeoutSeconds: 10).request("GET", "/v/master.m3u8").status == 200)
        #expect(child.isRunning)
    }

    /// A low descriptor limit (1,024 in many containers) is announced at start-up with the cap it leaves, and
    /// clients that connect and send nothing, more of them than that cap, do not lock out new ones.
    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: binary.path)))
    func aLowDescriptorLimitIsAnnouncedAndIdleClientsDoNotLockOutNewOnes() throws {
        let folder = try TemporaryFolder()
        let (child, port) = try Self.serve(folder, descriptorLimit: 256)
        // The start-up lines follow the URL on stdout.
        for _ in 0..<100 where !child.stderr.contains("warning") { usleep(50_000) }
        #expect(
            child.stderr.contains("connections, 256 per address (descriptor limit 256)"), "\(child.stderr)")
        #expect(child.stderr.contains("warning: the descriptor limit of 256 is low"), "\(child.stderr)")
        let idle = try (0..<300).map { _ in try RawConnection(port: port, timeoutSeconds: 10) }
        usleep(200_000)
        var statuses: [Int] = []
        for _ in 0..<10 {
            statuses.append(
                (try? RawConnection(port: port, timeoutSeconds: 10).request("GET", "/v/master.m3u8").status) ?? 0)
        }
        #expect(statuses == Array(repeating: 200, count: 10))
        #expect(idle.count == 300 && child.isRunning)
    }

    /// `--max-connections` beyond what the descriptor limit leaves room for is a usage error naming the limit,
    /// reported before the folder is read (here it does not exist).
    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: binary.path)))
    func maxConnectionsBeyondTheDescriptorLimitIsAUsageError() throws {
        let folder = try TemporaryFolder()
        for (value, message) in [("1000", "descriptors than the limit of 256 allows"), ("0", "--max-connections")] {
            let child = try FilterzChild(
                [
                    "serve", folder.url.appendingPathComponent("missing").path, "--port", "0", "--max-connections",
                    value,
                ],
                launcher: ["bash", "-c", "ulimit -n 256 && exec \"$0\" \"$@\""], logs: folder.url)
            #expect(child.waitForExit(timeoutSeconds: 30) == 2, "\(value)")
            #expect(child.stderr.contains(message) && child.stderr.contains("--max-connections"), "\(child.stderr)")
            #expect(child.stdout.isEmpty)
        }
    }

    /// `--shape` and `--faults` are checked before the folder is read (here it does not exist): a wrong value is a
    /// usage error naming it.
    @Test(arguments: [
        UsageCase(arguments: ["--shape", "fast,40ms"], message: "--shape expects a positive rate like 3mbps"),
        UsageCase(arguments: ["--shape", "3mbps,soon"], message: "--shape expects a time like 40ms"),
        UsageCase(arguments: ["--shape", "3mbps,90s"], message: "--shape expects a time in 0…60s, got '90s'"),
        UsageCase(arguments: ["--shape-by", "connection"], message: "--shape-by needs --shape"),
        UsageCase(
            arguments: ["--shape", "3mbps,0", "--shape-by", "radio"],
            message: "--shape-by expects one of client, connection, got 'radio'"),
        UsageCase(arguments: ["--fault-seed", "3"], message: "--fault-seed needs --faults"),
        UsageCase(
            arguments: ["--faults", "path=*.ts,status=200"],
            message: "--faults 'path=*.ts,status=200': status expects a code in 400…599, got '200'"),
        UsageCase(
            arguments: ["--faults", "path=*.ts,status=503", "--nginx-config", "--port", "80"],
            message: "--shape and --faults shape filterz's own answers"),
    ])
    func badShapesAndFaultsAreUsageErrors(_ usage: UsageCase) {
        let run = runFilterz(["serve", "/nonexistent/folder"] + usage.arguments)
        #expect(run.code == 2)
        #expect(run.err.hasPrefix("Error: \(usage.message)"), "\(run.err)")
    }

    @Test func aShapeTraceThatCannotBeReadIsAnInputErrorNamingIt() {
        let run = runFilterz(["serve", "/nonexistent/folder", "--shape", "/nonexistent/train.json"])
        #expect(run.code == 2)
        #expect(run.err.contains("/nonexistent/train.json"), "\(run.err)")
    }
}
