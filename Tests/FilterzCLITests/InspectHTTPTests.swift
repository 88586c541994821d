import FilterzTestSupport
import Foundation
import Testing

@testable import CLIKit
@testable import FilterzCLI
@testable import Inspect

/// `filterz inspect` over HTTP against a tiny loopback server (python3 http.server on an ephemeral port of
/// 127.0.0.1) that serves SampleMedia/playlists only to requests carrying `X-Filterz-Key: secret`.
@Suite(.enabled(if: ExternalTool.isInstalled("python3"), "needs python3"), .serialized, .tags(.network), .fullRunOnly)
struct InspectHTTPTests {
    /// The server: prints its port, answers 403 without the key header, exits when its standard input closes
    /// (or by itself after 300 s).
    static let serverScript = """
        import http.server, os, sys, threading
        class Handler(http.server.SimpleHTTPRequestHandler):
            def do_GET(self):
                if self.headers.get("X-Filterz-Key") != "secret":
                    self.send_error(403)
                    return
                super().do_GET()
            def log_message(self, *args):
                pass
        os.chdir(sys.argv[1])
        server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        threading.Timer(300, os._exit, [0]).start()
        threading.Thread(target=lambda: (sys.stdin.read(), os._exit(0)), daemon=True).start()
        print(server.server_address[1], flush=True)
        server.serve_forever()
        """

    /// The script above serving `folder`; it ends when the value goes away.
    static func server(serving folder: URL) throws -> LoopbackScript {
        try LoopbackScript(serverScript, arguments: [folder.path])
    }

    /// Runs `filterz` as its own process when the binary is built (as a user would), else in this process.
    static func run(_ arguments: [String]) -> (code: Int32, stdout: String, stderr: String) {
        if let binary = FilterzChild.binary, let result = try? ExternalTool.run(binary, arguments, timeoutSeconds: 120)
        {
            return (result.exitCode, result.stdout, result.stderr)
        }
        let run = runFilterz(arguments)
        return (run.code, run.out, run.err)
    }

    @Test func recursiveOverHTTPLoadsEveryPlaylistWithTheHeader() throws {
        let server = try Self.server(serving: SharedData.sampleMedia.appendingPathComponent("playlists"))
        let url = "http://127.0.0.1:\(server.port)/filterz-master.m3u8?token=demo-7f3a"
        let result = Self.run(["inspect", "--recursive", "--header", "X-Filterz-Key: secret", url])
        #expect(result.code == 0, "\(result.stderr)\n\(result.stdout)")
        #expect(result.stdout.hasPrefix("\(url): multivariant playlist, version 6"))
        #expect(result.stdout.contains("Playlists (6)"))
        #expect(result.stdout.components(separatedBy: "  ended  ok\n").count == 7)
        #expect(result.stdout.contains("Cross-playlist checks: ok"))
    }

    @Test func recursiveJSONNamesTheResolvedURLOfEveryChild() throws {
        let server = try Self.server(serving: SharedData.sampleMedia.appendingPathComponent("playlists"))
        let base = "http://127.0.0.1:\(server.port)"
        let result = Self.run(["inspect", "-r", "--json", "-H", "X-Filterz-Key: secret", "\(base)/filterz-master.m3u8"])
        #expect(result.code == 0)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        let playlists = try #require(object["playlists"] as? [[String: Any]])
        #expect(
            playlists.compactMap { $0["location"] as? String }.first
                == "\(base)/filterz/720p/index.m3u8?token=demo-7f3a")
        #expect(playlists.allSatisfy { ($0["facts"] as? [String: Any])?["kind"] as? String == "media" })
        #expect((object["cross_playlist_diagnostics"] as? [Any])?.isEmpty == true)
    }

    @Test func aProtectedOriginWithoutTheHeaderIsAnInputError() throws {
        let server = try Self.server(serving: SharedData.sampleMedia.appendingPathComponent("playlists"))
        let url = "http://127.0.0.1:\(server.port)/filterz-vod.m3u8"
        let result = Self.run(["inspect", url])
        #expect(result.code == 2)
        #expect(result.stderr == "filterz inspect: error: \(url): HTTP 403\n")
    }
}
