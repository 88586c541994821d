import Foundation
import FilterzTestSupport
import Server
import Testing
@testable import FilterzCLI

@Suite struct ServeCommandTests {
    func run(_ arguments: [String], environment: [String: String] = [:]) -> (code: Int32, out: String, err: String) {
        let out = CapturedOutput(), err = CapturedOutput()
        let code = CLI.run(arguments: arguments, stdout: out, stderr: err, environment: environment)
        return (code, out.text, err.text)
    }

    @Test func helpListsEveryFlag() {
        let help = run(["serve", "--help"])
        #expect(help.code == 0)
        for flag in ["--host", "--port", "--cors-origin", "--token-secret", "--quiet", "--nginx-config"] {
            #expect(help.out.contains(flag), "\(flag)")
        }
        #expect(run(["sign", "--help"]).out.contains("--ttl"))
    }

    @Test func nginxConfigPrintsAServerBlockForTheFolder() throws {
        let folder = try TemporaryFolder()
        let result = run(["serve", folder.url.path, "--port", "9000", "--cors-origin", "https://app.example", "--nginx-config"])
        #expect(result.code == 0)
        #expect(result.out.contains("server {"))
        #expect(result.out.contains("listen 127.0.0.1:9000;"))
        #expect(result.out.contains("application/vnd.apple.mpegurl m3u8;"))
        #expect(result.out.contains("add_header Access-Control-Allow-Origin \"https://app.example\" always;"))
        #expect(result.out.contains("public, max-age=31536000, immutable"))
    }

    @Test func badArgumentsAreUsageErrors() {
        #expect(run(["serve"]).code == 2)
        #expect(run(["serve", "/nonexistent/folder/x"]).code == 2)
        #expect(run(["serve", "/tmp", "--port", "70000"]).code == 2)
        #expect(run(["serve", "/tmp", "--token-secret", ""]).code == 2)
        #expect(run(["sign", "abc"]).code == 2)
        #expect(run(["sign", "abc", "--token-secret", "s", "--ttl", "0"]).code == 2)
    }

    @Test func signPrintsAURLTheServerAccepts() throws {
        let result = run(["sign", "warm film", "--ttl", "60", "--base-url", "http://127.0.0.1:8080/"], environment: ["FILTERZ_TOKEN_SECRET": "s3cret"])
        #expect(result.code == 0)
        let url = result.out.trimmingCharacters(in: .newlines)
        #expect(url.hasPrefix("http://127.0.0.1:8080/v1/videos/warm%20film/master.m3u8?token="))
        let token = String(url.split(separator: "=").last ?? "")
        let now = Int64(Date().timeIntervalSince1970)
        #expect(URLSigner(secret: "s3cret").isValid(token, videoID: "warm film", now: now))
        #expect(!URLSigner(secret: "s3cret").isValid(token, videoID: "warm film", now: now + 61))
    }

    static var binary: URL { SharedData.packageRoot.appendingPathComponent(".build/debug/filterz") }

    /// `filterz serve --port 0` as a process: first line is the URL; SIGTERM and SIGINT end it with 0.
    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: binary.path)), arguments: [SIGTERM, SIGINT])
    func serveAnnouncesItsURLAndExitsCleanlyOnASignal(signal: Int32) throws {
        let folder = try TemporaryFolder()
        try FileManager.default.createDirectory(at: folder.url.appendingPathComponent("v"), withIntermediateDirectories: true)
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
        let fetched = try ExternalTool.run("curl", ["-s", "-o", "/dev/null", "-w", "%{http_code}", url + "v1/videos/v/master.m3u8"], timeoutSeconds: 10)
        #expect(fetched.stdout == "200")
        kill(process.processIdentifier, signal)
        process.waitUntilExit()
        #expect(process.terminationReason == .exit)
        #expect(process.terminationStatus == 0)
        let log = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        #expect(log.contains("\"GET /v1/videos/v/master.m3u8 HTTP/1.1\" 200"))
    }
}
