import FilterzTestSupport
import Foundation
import Testing

@testable import CLIKit
@testable import FilterzCLI
@testable import Inspect

/// `inspect` and `simulate` against a hostile origin on 127.0.0.1 (python3): endless bodies, huge declared
/// lengths, a gzip bomb, a trickle, and slow HEAD answers. Every download is cut at the size limit or the
/// deadline, with a message that says which.
@Suite(.enabled(if: ExternalTool.isInstalled("python3"), "needs python3"), .serialized, .tags(.network), .fullRunOnly)
struct DownloadLimitTests {
    static let serverScript = #"""
        import gzip, http.server, json, os, sys, threading, time
        bomb = []  # made on first request: compressing 200 MB takes seconds on a busy machine
        stats = {"active": 0, "most": 0, "heads": 0}
        lock = threading.Lock()
        segments = "".join(f"#EXTINF:4,\nseg{k}.ts\n" for k in range(40))
        media = "#EXTM3U\n#EXT-X-TARGETDURATION:4\n" + segments + "#EXT-X-ENDLIST\n"
        master = ("#EXTM3U\n#EXT-X-STREAM-INF:BANDWIDTH=500000\nlow.m3u8\n"
                  "#EXT-X-STREAM-INF:BANDWIDTH=1500000\nhigh.m3u8\n")
        class Handler(http.server.BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.0"
            def send_text(self, text):
                body = text.encode()
                self.send_response(200)
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)
            def do_HEAD(self):
                with lock:
                    stats["active"] += 1; stats["heads"] += 1
                    stats["most"] = max(stats["most"], stats["active"])
                time.sleep(0.3)
                with lock: stats["active"] -= 1
                self.send_response(200)
                self.send_header("Content-Length", "250000")
                self.end_headers()
            def do_GET(self):
                try:
                    if self.path == "/endless.m3u8":
                        self.send_response(200); self.end_headers()
                        chunk = b"#EXTM3U\n" + b"#" * 65536
                        while True: self.wfile.write(chunk)
                    elif self.path == "/huge.m3u8":
                        self.send_response(200); self.send_header("Content-Length", "300000000"); self.end_headers()
                        chunk = b"#" * 65536
                        for _ in range(300000000 // 65536): self.wfile.write(chunk)
                    elif self.path == "/bomb.m3u8":
                        with lock:
                            if not bomb: bomb.append(gzip.compress(b"\0" * (200 << 20), compresslevel=9))
                        self.send_response(200); self.send_header("Content-Encoding", "gzip")
                        self.send_header("Content-Length", str(len(bomb[0]))); self.end_headers()
                        self.wfile.write(bomb[0])
                    elif self.path == "/slow.m3u8":
                        self.send_response(200); self.send_header("Content-Length", "1000"); self.end_headers()
                        for _ in range(1000): self.wfile.write(b"#"); self.wfile.flush(); time.sleep(0.05)
                    elif self.path == "/hls/master.m3u8": self.send_text(master)
                    elif self.path in ("/hls/low.m3u8", "/hls/high.m3u8"): self.send_text(media)
                    elif self.path == "/stats": self.send_text(json.dumps(stats))
                    else: self.send_error(404)
                except (BrokenPipeError, ConnectionResetError):
                    pass
            def log_message(self, *args): pass
        server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        server.daemon_threads = True
        # Ends when the test process closes stdin; the timer only bounds an orphan, so it is longer than a
        # whole loaded test run can take.
        threading.Timer(3600, os._exit, [0]).start()
        threading.Thread(target=lambda: (sys.stdin.read(), os._exit(0)), daemon=True).start()
        print(server.server_address[1], flush=True)
        server.serve_forever()
        """#

    /// The hostile origin, stopped when the value goes away.
    final class Origin: @unchecked Sendable {
        let process = Process()
        let input = Pipe()
        let port: Int

        init() throws {
            process.executableURL = URL(fileURLWithPath: ExternalTool.path(of: "python3") ?? "/usr/bin/python3")
            process.arguments = ["-c", DownloadLimitTests.serverScript]
            let output = Pipe()
            process.standardOutput = output
            process.standardError = FileHandle.nullDevice
            process.standardInput = input
            try process.run()
            let line = String(decoding: output.fileHandleForReading.readLine(), as: UTF8.self)
            guard let port = Int(line) else {
                process.terminate()
                throw CLIError.input("hostile origin did not start")
            }
            self.port = port
        }

        deinit {
            try? input.fileHandleForWriting.close()
            process.waitUntilExit()
        }
    }

    static let origin: Origin? = try? Origin()

    func inspect(_ path: String, _ extra: [String] = []) throws -> (code: Int32, stdout: String, stderr: String) {
        let origin = try #require(Self.origin)
        return InspectHTTPTests.run(["inspect"] + extra + ["http://127.0.0.1:\(origin.port)\(path)"])
    }

    @Test func anEndlessBodyIsCutAtTheLimit() throws {
        let result = try inspect("/endless.m3u8")
        #expect(result.code == 2)
        #expect(result.stderr.contains("body larger than the limit of 67108864 bytes"), "\(result.stderr)")
    }

    /// The body is not read ahead of the limit: the process's peak memory stays within a few times the 64 MiB
    /// limit (a client that buffers without back-pressure holds gigabytes of an endless body before it stops).
    @Test(.enabled(if: ExternalTool.isInstalled("time"), "needs GNU time"))
    func anEndlessBodyIsNotReadAheadOfTheLimit() throws {
        let origin = try #require(Self.origin)
        let binary = try #require(FilterzChild.binary, "the built filterz is needed to measure its memory")
        let run = try ExternalTool.run(
            "time", ["-f", "peak %M", binary, "inspect", "http://127.0.0.1:\(origin.port)/endless.m3u8"],
            timeoutSeconds: 120)
        #expect(run.exitCode == 2, "\(run.stderr)")
        let peakLine = try #require(run.stderr.split(separator: "\n").last { $0.hasPrefix("peak ") })
        let peakKiB = try #require(Int(peakLine.dropFirst(5)))
        #expect(peakKiB < 3 * 65_536, "peak \(peakKiB) KiB while refusing an endless body")
    }

    @Test func aHugeDeclaredLengthIsRefusedBeforeTheBody() throws {
        let result = try inspect("/huge.m3u8")
        #expect(result.code == 2)
        #expect(result.stderr.contains("Content-Length 300000000 is larger than the limit"), "\(result.stderr)")
    }

    @Test func aGzipBombIsCutWhereItsInflatedSizePassesTheLimit() throws {
        let result = try inspect("/bomb.m3u8")
        #expect(result.code == 2)
        #expect(result.stderr.contains("body larger than the limit"), "\(result.stderr)")
    }

    @Test func aTrickledBodyIsCutAtTheWholeRequestDeadline() throws {
        let result = try inspect("/slow.m3u8", ["--timeout", "1"])
        #expect(result.code == 2)
        #expect(result.stderr.contains("not complete within 1 s"), "\(result.stderr)")
        #expect(!result.stderr.contains("no response"))
    }

    @Test func simulateOnAnEndlessPlaylistFailsCleanly() throws {
        let origin = try #require(Self.origin)
        let result = InspectHTTPTests.run([
            "simulate", "http://127.0.0.1:\(origin.port)/endless.m3u8", "--bandwidth", "3mbps",
        ])
        #expect(result.code == 2, "\(result.stderr)")
        #expect(result.stderr.contains("larger than the limit"), "\(result.stderr)")
    }

    @Test func simulateAsksSegmentSizesSeveralAtATime() throws {
        let origin = try #require(Self.origin)
        let result = InspectHTTPTests.run(
            ["simulate", "http://127.0.0.1:\(origin.port)/hls/master.m3u8", "--bandwidth", "3mbps", "--no-optimum"])
        #expect(result.code == 0, "\(result.stderr)")
        let stats = try LoopbackHTTP(timeoutSeconds: 10).sendBlocking("GET", "http://127.0.0.1:\(origin.port)/stats")
        let counts = try #require(try JSONSerialization.jsonObject(with: Data(stats.body)) as? [String: Int])
        #expect(counts["heads"] == 80)
        #expect((2...8).contains(counts["most"] ?? 0), "\(counts)")
    }
}

extension FileHandle {
    /// Bytes up to the next line feed (without it), or to the end.
    fileprivate func readLine() -> Data {
        var line = Data()
        while true {
            let byte = readData(ofLength: 1)
            if byte.isEmpty || byte == Data("\n".utf8) { return line }
            line.append(byte)
        }
    }
}
