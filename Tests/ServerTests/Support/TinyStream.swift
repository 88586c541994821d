import FilterzTestSupport
import Foundation
import RealClients
import Server

/// A real, tiny HLS video made by the ffmpeg CLI (4 s of 160×90 test pattern at 10 fps, 1 s segments) in
/// `<root>/<id>/`, with a master playlist, English subtitles, a poster and `filter.json` beside it.
enum TinyStream {
    static var isAvailable: Bool { ExternalTool.isInstalled("ffmpeg") }

    static func make(in root: URL, id: String) throws {
        let folder = root.appendingPathComponent(id)
        let variant = folder.appendingPathComponent("v0")
        try FileManager.default.createDirectory(at: variant, withIntermediateDirectories: true)
        let result = try ExternalTool.run(
            "ffmpeg",
            [
                "-v", "error", "-nostdin", "-f", "lavfi", "-i", "testsrc2=size=160x90:rate=10", "-t", "4",
                "-c:v", "libx264", "-preset", "ultrafast", "-pix_fmt", "yuv420p", "-g", "10",
                "-f", "hls", "-hls_time", "1", "-hls_playlist_type", "vod",
                "-hls_segment_filename", variant.appendingPathComponent("seg_%03d.ts").path,
                variant.appendingPathComponent("index.m3u8").path,
            ], timeoutSeconds: 60)
        guard result.exitCode == 0 else { throw TinyStreamError.ffmpeg(result.stderr) }
        try """
        #EXTM3U
        #EXT-X-VERSION:3
        #EXT-X-MEDIA:TYPE=SUBTITLES,GROUP-ID="subs",NAME="English",LANGUAGE="en",AUTOSELECT=YES,URI="subs/en.m3u8"
        #EXT-X-STREAM-INF:BANDWIDTH=300000,RESOLUTION=160x90,CODECS="avc1.640014",SUBTITLES="subs"
        v0/index.m3u8

        """.write(to: folder.appendingPathComponent("master.m3u8"), atomically: true, encoding: .utf8)
        let subtitles = folder.appendingPathComponent("subs")
        try FileManager.default.createDirectory(at: subtitles, withIntermediateDirectories: true)
        try "#EXTM3U\n#EXT-X-TARGETDURATION:4\n#EXT-X-PLAYLIST-TYPE:VOD\n#EXTINF:4.0,\nen_0.vtt\n#EXT-X-ENDLIST\n"
            .write(to: subtitles.appendingPathComponent("en.m3u8"), atomically: true, encoding: .utf8)
        try "WEBVTT\n\n00:00:00.000 --> 00:00:03.000\nhello\n"
            .write(to: subtitles.appendingPathComponent("en_0.vtt"), atomically: true, encoding: .utf8)
        try Data([0xFF, 0xD8, 0xFF, 0xE0, 1, 2, 3]).write(to: folder.appendingPathComponent("poster.jpg"))
        try Data(#"{"name":"test-pattern"}"#.utf8).write(to: folder.appendingPathComponent("filter.json"))
    }
}

enum TinyStreamError: Error { case ffmpeg(String) }

/// nginx running in the foreground on 127.0.0.1 with a generated configuration, stopped on deinit.
final class RunningNginx: @unchecked Sendable {
    let port: UInt16
    let state: TemporaryFolder
    private let process = Process()

    static var isAvailable: Bool {
        FileManager.default.isExecutableFile(atPath: "/usr/sbin/nginx") || ExternalTool.isInstalled("nginx")
    }

    /// - Parameter serverBlock: made for `port` (see `LoopbackPort.unused()`).
    init(serverBlock: String, port: UInt16) throws {
        self.port = port
        state = try TemporaryFolder(prefix: "filterz-nginx")
        let configuration = state.url.appendingPathComponent("nginx.conf")
        try NginxStandalone.config(serverBlock: serverBlock, state: state.url.path)
            .write(to: configuration, atomically: true, encoding: .utf8)
        process.executableURL = URL(fileURLWithPath: ExternalTool.path(of: "nginx") ?? "/usr/sbin/nginx")
        process.arguments = [
            "-e", state.url.appendingPathComponent("error.log").path, "-p", state.url.path, "-c", configuration.path,
        ]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        for _ in 0..<100 {
            if (try? RawConnection(port: port, timeoutSeconds: 1)) != nil { return }
            Thread.sleep(forTimeInterval: 0.05)
        }
        let log = (try? String(contentsOf: state.url.appendingPathComponent("error.log"), encoding: .utf8)) ?? ""
        process.terminate()
        throw TinyStreamError.ffmpeg("nginx did not start: \(log)")
    }

    deinit {
        process.terminate()
        process.waitUntilExit()
    }
}

enum NginxStandalone {
    static func config(serverBlock: String, state: String) -> String {
        Server.NginxConfig.standalone(serverBlock: serverBlock, stateFolder: state)
    }
}
