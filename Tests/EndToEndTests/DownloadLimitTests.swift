import FilterzTestSupport
import Foundation
import RealClients
import Testing

@testable import CLIKit
@testable import FilterzCLI
@testable import Inspect

/// `inspect` and `simulate` against a hostile origin on 127.0.0.1 (python3): endless bodies, huge declared
/// lengths, a gzip bomb, a trickle, and slow HEAD answers. Every download is cut at the size limit or the
/// deadline, with a message that says which.
@Suite(.enabled(if: ExternalTool.isInstalled("python3"), "needs python3"), .serialized, .network)
struct DownloadLimitTests {
    static let serverScript = #"""
        import gzip, http.server, json, os, sys, threading, time
        bomb = []  # made on first request: compressing 200 MB takes seconds on a busy machine
        def fresh(): return {"active": 0, "most": 0, "heads": 0, "media_gets": 0, "connections": set()}
        stats = fresh()
        lock = threading.Lock()
        def media_playlist(count, duration):
            segments = "".join(f"#EXTINF:{duration},\nseg{k}.ts\n" for k in range(count))
            return f"#EXTM3U\n#EXT-X-TARGETDURATION:{duration}\n" + segments + "#EXT-X-ENDLIST\n"
        media = media_playlist(40, 4)
        master = ("#EXTM3U\n#EXT-X-STREAM-INF:BANDWIDTH=500000\nlow.m3u8\n"
                  "#EXT-X-STREAM-INF:BANDWIDTH=1500000\nhigh.m3u8\n")
        # Beyond the simulator's limits: 100,001 segments, and 65 levels.
        many = media_playlist(100001, 1)
        # Within the segment and level limits, beyond the HEAD requests a stream is measured with: 2 × 50,001.
        half = media_playlist(50001, 1)
        wide = "#EXTM3U\n" + "".join(f"#EXT-X-STREAM-INF:BANDWIDTH={k * 100000}\nv{k}.m3u8\n" for k in range(1, 66))
        class Handler(http.server.BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"
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
                    stats["connections"].add(self.client_address)
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
                    elif self.path in ("/gzip-endless.m3u8", "/gzip-trickle.m3u8"):
                        # A gzip member of empty stored deflate blocks that never ends: it inflates to nothing.
                        self.send_response(200); self.send_header("Content-Encoding", "gzip"); self.end_headers()
                        self.wfile.write(b"\x1f\x8b\x08\x00\x00\x00\x00\x00\x00\x03")
                        trickle = self.path == "/gzip-trickle.m3u8"
                        block = b"\x00\x00\x00\xff\xff" * (1 if trickle else 20000)
                        while True:
                            self.wfile.write(block)
                            if trickle: self.wfile.flush(); time.sleep(0.05)
                    elif self.path == "/gzip-huge.m3u8":
                        self.send_response(200); self.send_header("Content-Encoding", "gzip")
                        self.send_header("Content-Length", "300000000"); self.end_headers()
                        chunk = b"\x1f\x8b" * 32768
                        for _ in range(300000000 // 65536): self.wfile.write(chunk)
                    elif self.path == "/slow.m3u8":
                        self.send_response(200); self.send_header("Content-Length", "1000"); self.end_headers()
                        for _ in range(1000): self.wfile.write(b"#"); self.wfile.flush(); time.sleep(0.05)
                    elif self.path == "/hls/master.m3u8": self.send_text(master)
                    elif self.path in ("/hls/low.m3u8", "/hls/high.m3u8"): self.send_text(media)
                    elif self.path == "/heads/master.m3u8":
                        self.send_text(master.replace("low", "a").replace("high", "b"))
                    elif self.path in ("/heads/a.m3u8", "/heads/b.m3u8"):
                        with lock: stats["media_gets"] += 1
                        self.send_text(half)
                    elif self.path in ("/many/master.m3u8", "/wide/master.m3u8"):
                        self.send_text(master.replace("low", "media").replace("high", "media")
                                       if self.path.startswith("/many") else wide)
                    elif self.path.startswith("/many/") or self.path.startswith("/wide/"):
                        with lock: stats["media_gets"] += 1
                        self.send_text(many if self.path.startswith("/many/") else media)
                    elif self.path == "/stats":
                        # The counts since the last call.
                        with lock:
                            counts = dict(stats, connections=len(stats["connections"]))
                            stats.clear(); stats.update(fresh())
                        self.send_text(json.dumps(counts))
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

    /// The hostile origin, stopped when the suite's process ends.
    static let origin: LoopbackScript? = try? LoopbackScript(serverScript)

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

    /// Compressed bytes count against the limit as they arrive, not only what they inflate to: a stream of
    /// empty deflate blocks grows by nothing once inflated but would be received for ever.
    @Test func anEndlessCompressedBodyIsCutAtTheLimitOfBytesReceived() throws {
        let result = try inspect("/gzip-endless.m3u8")
        #expect(result.code == 2)
        #expect(
            result.stderr.contains("gzip-compressed body: more than the limit of 67108864 bytes received"),
            "\(result.stderr)")
    }

    @Test func aHugeDeclaredLengthOfACompressedBodyIsRefusedBeforeTheBody() throws {
        let result = try inspect("/gzip-huge.m3u8")
        #expect(result.code == 2)
        #expect(result.stderr.contains("Content-Length 300000000 is larger than the limit"), "\(result.stderr)")
    }

    /// At the deadline the message counts the bytes received and what they decoded to, each as it is.
    @Test func aTrickledCompressedBodyAtTheDeadlineSaysWhatArrivedAndWhatItDecodedTo() throws {
        let result = try inspect("/gzip-trickle.m3u8", ["--timeout", "1"])
        #expect(result.code == 2)
        #expect(result.stderr.contains("not complete within 1 s ("), "\(result.stderr)")
        #expect(result.stderr.contains(" bytes received, 0 once decoded from gzip)"), "\(result.stderr)")
        #expect(!result.stderr.contains("(0 bytes received"), "\(result.stderr)")
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

    /// The counts since the last call: HEAD requests, the most at once, the connections they came on, and
    /// media playlists loaded for `/many/` and `/wide/`.
    func stats() throws -> [String: Int] {
        let origin = try #require(Self.origin)
        let stats = try LoopbackHTTP(timeoutSeconds: 10).sendBlocking("GET", "http://127.0.0.1:\(origin.port)/stats")
        return try #require(try JSONSerialization.jsonObject(with: Data(stats.body)) as? [String: Int])
    }

    @Test func simulateAsksSegmentSizesSeveralAtATimeOnKeptConnections() throws {
        let origin = try #require(Self.origin)
        _ = try stats()
        let result = InspectHTTPTests.run(
            ["simulate", "http://127.0.0.1:\(origin.port)/hls/master.m3u8", "--bandwidth", "3mbps", "--no-optimum"])
        #expect(result.code == 0, "\(result.stderr)")
        let counts = try stats()
        #expect(counts["heads"] == 80)
        #expect((2...8).contains(counts["most"] ?? 0), "\(counts)")
        #expect((1...8).contains(counts["connections"] ?? 0), "\(counts)")
    }

    /// 100,001 segments are within what a playlist may hold but beyond what the simulator takes: refused
    /// before any segment's size is asked for.
    @Test func simulateRefusesTooManySegmentsBeforeAnyHEAD() throws {
        let origin = try #require(Self.origin)
        _ = try stats()
        let result = InspectHTTPTests.run(
            ["simulate", "http://127.0.0.1:\(origin.port)/many/master.m3u8", "--bandwidth", "3mbps", "--no-optimum"])
        #expect(result.code == 1, "\(result.stderr)")
        #expect(result.stderr.contains("100001 segments; a stream has at most 100000"), "\(result.stderr)")
        #expect(try stats()["heads"] == 0)
    }

    @Test func simulateRefusesTooManyLevelsBeforeLoadingTheirPlaylists() throws {
        let origin = try #require(Self.origin)
        _ = try stats()
        let result = InspectHTTPTests.run(
            ["simulate", "http://127.0.0.1:\(origin.port)/wide/master.m3u8", "--bandwidth", "3mbps", "--no-optimum"])
        #expect(result.code == 1, "\(result.stderr)")
        #expect(result.stderr.contains("65 levels; a ladder has at most 64"), "\(result.stderr)")
        let counts = try stats()
        #expect(counts["heads"] == 0 && counts["media_gets"] == 0, "\(counts)")
    }

    /// Two levels of 50,001 segments each are within the segment and level limits but would take 100,002 HEAD
    /// requests: refused, naming the limit, after both media playlists and before any HEAD.
    @Test func simulateRefusesMoreHEADRequestsThanItsLimitBeforeAny() throws {
        let origin = try #require(Self.origin)
        _ = try stats()
        let result = InspectHTTPTests.run(
            ["simulate", "http://127.0.0.1:\(origin.port)/heads/master.m3u8", "--bandwidth", "3mbps", "--no-optimum"])
        #expect(result.code == 1, "\(result.stderr)")
        #expect(
            result.stderr.contains("takes 100002 HEAD requests; a stream is measured with at most 100000"),
            "\(result.stderr)")
        let counts = try stats()
        #expect(counts["heads"] == 0 && counts["media_gets"] == 2, "\(counts)")
    }
}
