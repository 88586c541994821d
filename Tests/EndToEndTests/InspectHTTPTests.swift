import FilterzTestSupport
import Foundation
import RealClients
import Testing

@testable import CLIKit
@testable import FilterzCLI
@testable import Inspect

/// `filterz inspect` over HTTP against a tiny loopback server (python3 http.server on an ephemeral port of
/// 127.0.0.1) that serves SampleMedia/playlists only to requests carrying `X-Filterz-Key: secret` (or, given a
/// second argument, to every request).
@Suite(.enabled(if: ExternalTool.isInstalled("python3"), "needs python3"), .serialized, .network)
struct InspectHTTPTests {
    /// The server: prints its port, answers 403 without the key header, exits when its standard input closes
    /// (or by itself after 300 s).
    static let serverScript = """
        import http.server, os, sys, threading
        class Handler(http.server.SimpleHTTPRequestHandler):
            def do_GET(self):
                if len(sys.argv) < 3 and self.headers.get("X-Filterz-Key") != "secret":
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

    /// The script above serving `folder` (to every request when `open`); it ends when the value goes away.
    static func server(serving folder: URL, open: Bool = false) throws -> LoopbackScript {
        try LoopbackScript(serverScript, arguments: [folder.path] + (open ? ["open"] : []))
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

    /// A folder served over HTTP whose playlists name local files through `file:` URIs (a child playlist holding a
    /// token, a 16-byte key), beside the local files themselves.
    static func playlistsNamingLocalFiles() throws -> (folder: TemporaryFolder, served: URL, secret: URL) {
        let folder = try TemporaryFolder(prefix: "filterz-file-uris")
        let secret = folder.url.appendingPathComponent("secret")
        let served = folder.url.appendingPathComponent("served")
        for url in [secret, served] {
            try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        }
        try Data("#EXTM3U\n#EXT-X-TARGETDURATION:4\n#EXTINF:4,\nseg.ts?token=LOCAL-SECRET-7\n#EXT-X-ENDLIST\n".utf8)
            .write(to: secret.appendingPathComponent("token.m3u8"))
        try Data(repeating: 7, count: 16).write(to: secret.appendingPathComponent("key.bin"))
        try Data(
            """
            #EXTM3U
            #EXT-X-STREAM-INF:BANDWIDTH=100000
            media.m3u8
            #EXT-X-STREAM-INF:BANDWIDTH=200000
            file://\(secret.path)/token.m3u8

            """.utf8
        ).write(to: served.appendingPathComponent("master.m3u8"))
        try Data(
            """
            #EXTM3U
            #EXT-X-TARGETDURATION:4
            #EXT-X-KEY:METHOD=AES-128,URI="file://\(secret.path)/key.bin",IV=0x00000000000000000000000000000001
            #EXTINF:4,
            seg.ts
            #EXT-X-ENDLIST

            """.utf8
        ).write(to: served.appendingPathComponent("media.m3u8"))
        try Data(repeating: 0x47, count: 188 * 4).write(to: served.appendingPathComponent("seg.ts"))
        return (folder, served, secret)
    }

    /// `-r --json` of a remote multivariant playlist naming a local playlist: not read, its entry names the
    /// playlist and the URI; the same playlist read as a local file still loads its local child.
    @Test func aRemotePlaylistCannotMakeRecursiveReadALocalFile() throws {
        let (folder, served, secret) = try Self.playlistsNamingLocalFiles()
        _ = folder
        let server = try Self.server(serving: served)
        let master = "http://127.0.0.1:\(server.port)/master.m3u8"
        let result = Self.run(["inspect", "-r", "--json", "-H", "X-Filterz-Key: secret", master])
        #expect(!result.stdout.contains("LOCAL-SECRET-7"), "\(result.stdout)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        let playlists = try #require(object["playlists"] as? [[String: Any]])
        let refused = try #require(playlists.first { ($0["uri"] as? String)?.hasPrefix("file:") == true })
        let error = try #require(refused["error"] as? String)
        #expect(error.contains(master) && error.contains("file://\(secret.path)/token.m3u8"), "\(error)")
        #expect(error.contains("may only name http(s) resources"), "\(error)")

        let local = Self.run(["inspect", "-r", "--json", served.appendingPathComponent("master.m3u8").path])
        #expect(local.stdout.contains("LOCAL-SECRET-7"), "\(local.stdout)")
    }

    /// `--deep` on a remote media playlist whose key is a local 16-byte file: the key is not read, and the
    /// finding says why.
    @Test func aRemotePlaylistCannotMakeDeepUseALocalKey() throws {
        let (folder, served, secret) = try Self.playlistsNamingLocalFiles()
        _ = folder
        let server = try Self.server(serving: served)
        let media = "http://127.0.0.1:\(server.port)/media.m3u8"
        let result = Self.run(["inspect", "--deep", "-H", "X-Filterz-Key: secret", media])
        #expect(result.stdout.contains("key.unusable"), "\(result.stdout)")
        #expect(
            result.stdout.contains("\(media) names file://\(secret.path)/key.bin: a playlist loaded over HTTP(S) "),
            "\(result.stdout)")
    }

    /// `simulate` on a remote ladder naming a local media playlist: refused, naming both.
    @Test func aRemotePlaylistCannotMakeSimulateReadALocalFile() throws {
        let (folder, served, secret) = try Self.playlistsNamingLocalFiles()
        _ = folder
        let server = try Self.server(serving: served, open: true)
        let master = "http://127.0.0.1:\(server.port)/master.m3u8"
        let result = Self.run(["simulate", master, "--bandwidth", "3mbps", "--no-optimum"])
        #expect(result.code == 2, "\(result.stderr)")
        #expect(
            result.stderr.contains("\(master) names file://\(secret.path)/token.m3u8: a playlist loaded over HTTP(S)"),
            "\(result.stderr)")
    }
}
