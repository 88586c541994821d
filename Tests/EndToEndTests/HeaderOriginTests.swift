import FilterzTestSupport
import Foundation
import RealClients
import Testing

/// `inspect --header` sends the user's headers only to the origin (scheme, host, port) of the URL the user
/// named: not to child playlists on another origin, and not after a redirect to one. Two origins on
/// 127.0.0.1 (python3), on different ports, record which headers each request carried.
@Suite(.enabled(if: ExternalTool.isInstalled("python3"), "needs python3"), .serialized, .network)
struct HeaderOriginTests {
    static let serverScript = #"""
        import http.server, json, os, sys, threading
        seen = []
        lock = threading.Lock()
        media = "#EXTM3U\n#EXT-X-TARGETDURATION:4\n#EXTINF:4,\nseg0.ts\n#EXT-X-ENDLIST\n"
        def handler(name):
            class Handler(http.server.BaseHTTPRequestHandler):
                protocol_version = "HTTP/1.1"
                def answer(self, status, body=b"", location=None):
                    self.send_response(status)
                    if location: self.send_header("Location", location)
                    self.send_header("Content-Length", str(len(body)))
                    self.end_headers()
                    self.wfile.write(body)
                def do_GET(self):
                    if self.path == "/seen":
                        with lock: body = json.dumps(seen).encode(); seen.clear()
                        return self.answer(200, body)
                    with lock:
                        seen.append({"origin": name, "path": self.path,
                                     "authorization": self.headers.get("Authorization"),
                                     "key": self.headers.get("X-API-Key")})
                    if self.path == "/master.m3u8":
                        master = ("#EXTM3U\n#EXT-X-STREAM-INF:BANDWIDTH=500000\nlow.m3u8\n"
                                  f"#EXT-X-STREAM-INF:BANDWIDTH=1500000\nhttp://127.0.0.1:{ports[1]}/high.m3u8\n")
                        self.answer(200, master.encode())
                    elif self.path == "/elsewhere.m3u8":
                        self.answer(302, location=f"http://127.0.0.1:{ports[1]}/high.m3u8")
                    elif self.path == "/here.m3u8":
                        self.answer(302, location="/low.m3u8")
                    elif self.path in ("/low.m3u8", "/high.m3u8"):
                        self.answer(200, media.encode())
                    else:
                        self.answer(404)
                def log_message(self, *args): pass
            return Handler
        servers = [http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler(name)) for name in ("a", "b")]
        ports = [server.server_address[1] for server in servers]
        for server in servers:
            server.daemon_threads = True
            threading.Thread(target=server.serve_forever, daemon=True).start()
        threading.Timer(3600, os._exit, [0]).start()
        print(ports[0], ports[1], flush=True)
        sys.stdin.read()
        os._exit(0)
        """#

    struct Request: Decodable, Equatable {
        var origin: String
        var path: String
        var authorization: String?
        var key: String?
    }

    static let origins: LoopbackScript? = try? LoopbackScript(serverScript)
    static let headers = ["-H", "Authorization: Bearer secret", "-H", "X-API-Key: k1"]

    /// The requests both origins saw since the last call, sorted by origin and path.
    func seen() throws -> [Request] {
        let origins = try #require(Self.origins)
        let response = try LoopbackHTTP(timeoutSeconds: 10).sendBlocking("GET", "http://127.0.0.1:\(origins.port)/seen")
        return try JSONDecoder().decode([Request].self, from: Data(response.body)).sorted {
            ($0.origin, $0.path) < ($1.origin, $1.path)
        }
    }

    func inspect(_ arguments: [String]) throws -> (code: Int32, stdout: String, stderr: String) {
        _ = try seen()
        return InspectHTTPTests.run(["inspect"] + Self.headers + arguments)
    }

    func withHeaders(_ origin: String, _ path: String) -> Request {
        Request(origin: origin, path: path, authorization: "Bearer secret", key: "k1")
    }

    func without(_ origin: String, _ path: String) -> Request {
        Request(origin: origin, path: path, authorization: nil, key: nil)
    }

    @Test func aChildPlaylistOnAnotherOriginIsLoadedWithoutTheHeaders() throws {
        let origins = try #require(Self.origins)
        let result = try inspect(["--recursive", "http://127.0.0.1:\(origins.port)/master.m3u8"])
        #expect(result.code == 0, "\(result.stderr)")
        #expect(
            try seen() == [
                withHeaders("a", "/low.m3u8"), withHeaders("a", "/master.m3u8"), without("b", "/high.m3u8"),
            ])
    }

    @Test func aRedirectToAnotherOriginIsFollowedWithoutTheHeaders() throws {
        let origins = try #require(Self.origins)
        let result = try inspect(["http://127.0.0.1:\(origins.port)/elsewhere.m3u8"])
        #expect(result.code == 0, "\(result.stderr)")
        #expect(try seen() == [withHeaders("a", "/elsewhere.m3u8"), without("b", "/high.m3u8")])
    }

    @Test func aRedirectWithinTheOriginKeepsTheHeaders() throws {
        let origins = try #require(Self.origins)
        let result = try inspect(["http://127.0.0.1:\(origins.port)/here.m3u8"])
        #expect(result.code == 0, "\(result.stderr)")
        #expect(try seen() == [withHeaders("a", "/here.m3u8"), withHeaders("a", "/low.m3u8")])
    }

    /// The user named origin b: its requests carry the headers, and a's none.
    @Test func theOriginIsTheOneTheUserNamed() throws {
        let origins = try #require(Self.origins)
        let result = try inspect(["http://127.0.0.1:\(origins.ports[1])/high.m3u8"])
        #expect(result.code == 0, "\(result.stderr)")
        #expect(try seen() == [withHeaders("b", "/high.m3u8")])
    }
}
