import Encryption
import FilterzTestSupport
import Foundation
import HLS
import RealClients
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// `filterz record --live --low-latency` as a real process: parts, preload hints and blocking-reload playlists
/// that `inspect --strict`, ffprobe and python m3u8 accept while they grow, and after Ctrl-C or `kill -9`; with
/// `--encrypt`, parts that decrypt with their segment's key and IV.
@Suite(
    .serialized, .enabled(if: LiveRecording.binary != nil, "needs the built filterz binary (swift build)"),
    .slow)
struct RecordLiveLowLatencyTests {
    static let lowLatency = ["--low-latency", "--duration", "30"]

    /// `filterz inspect --recursive --strict` of the folder's master playlist: exit status and output.
    static func inspect(_ folder: URL) throws -> (Int32, String) {
        let child = try FilterzChild(
            ["inspect", "--recursive", "--strict", folder.appendingPathComponent("master.m3u8").path],
            logs: folder.deletingLastPathComponent())
        let code = child.waitForExit(timeoutSeconds: 60)
        return (code, child.stdout + child.stderr)
    }

    @Test func playlistsPassStrictInspectionWhileTheyGrowAndEndWithoutAHintAfterCtrlC() throws {
        let temporary = try TemporaryFolder()
        let video = temporary.url.appendingPathComponent("live")
        let recording = try LiveRecording(folder: video, extra: Self.lowLatency)
        // Parts of the segment being written are listed before it closes.
        let growing = try recording.waitForPlaylist { !($0.incompleteSegment?.parts.isEmpty ?? true) }
        #expect(growing.preloadHints.first?.type == .part)
        for round in 0..<5 {
            let playlist = try recording.waitForPlaylist { $0.segments.count >= round }
            #expect(playlist.partInf != nil && playlist.serverControl?.canBlockReload == true)
            #expect(playlist.preloadHints.count == 1 && playlist.preloadHints.first?.type == .part)
            #expect(playlist.renditionReports.map(\.uri) == ["../audio/index.m3u8"])
            let (code, output) = try Self.inspect(video)
            #expect(code == 0, "round \(round): \(output)")
        }
        recording.signal(SIGINT)
        #expect(recording.waitForExit(timeoutSeconds: 60) == 0)
        let check = HLSLadderCheck(folder: video)
        for uri in ["90p/index.m3u8", "audio/index.m3u8"] {
            let media = try check.media(uri)
            #expect(media.endList && media.preloadHints.isEmpty, "\(uri)")
        }
        let (code, output) = try Self.inspect(video)
        #expect(code == 0, "\(output)")
    }

    @Test func everyListedPartIsOnDiskAndDecodesWithinItsDurationWithAKeyframeWhenIndependent() throws {
        let temporary = try TemporaryFolder()
        let video = temporary.url.appendingPathComponent("live")
        let recording = try LiveRecording(folder: video, extra: Self.lowLatency)
        let playlist = try recording.waitForPlaylist { $0.segments.count >= 2 }
        let text = try String(contentsOf: video.appendingPathComponent("90p/index.m3u8"), encoding: .utf8)
        recording.signal(SIGKILL)
        _ = recording.waitForExit(timeoutSeconds: 30)
        let parts = playlist.segments.flatMap(\.parts) + (playlist.incompleteSegment?.parts ?? [])
        #expect(parts.count >= 3)
        let initSegment = try Data(contentsOf: video.appendingPathComponent("90p/init.mp4"))
        if ExternalTool.isInstalled("ffprobe") {
            for part in parts.prefix(4) {
                let joined = temporary.url.appendingPathComponent("joined.mp4")
                try (initSegment + Data(contentsOf: video.appendingPathComponent("90p/" + part.uri))).write(to: joined)
                let probe = try ExternalTool.run(
                    "ffprobe",
                    [
                        "-v", "error", "-select_streams", "v:0", "-show_entries", "packet=flags", "-of", "csv=p=0",
                        joined.path,
                    ])
                let flags = probe.stdout.split(separator: "\n")
                #expect(probe.exitCode == 0)
                // At most its duration in frames: a recorder behind real time leaves frames out (never the first).
                #expect(
                    (1...Int((part.duration * 30).rounded())).contains(flags.count),
                    "\(part.uri): \(flags.count) frames")
                #expect(flags.first?.hasPrefix("K") == part.independent, "\(part.uri): \(flags.first ?? "")")
            }
        } else {
            Issue.record("ffprobe check skipped: ffprobe is not installed (make deps)", severity: .warning)
        }
        if PythonM3U8.isInstalled {
            let file = temporary.url.appendingPathComponent("index.m3u8")
            try text.write(to: file, atomically: true, encoding: .utf8)
            let script = """
                import sys, m3u8
                p = m3u8.load(sys.argv[1])
                parts = [x for s in p.segments for x in s.parts]
                r = p.rendition_reports[0]
                print(p.server_control.can_block_reload, p.part_inf.part_target, p.preload_hint.hint_type,
                      p.preload_hint.uri, len(parts), r.uri, r.last_msn, r.last_part)
                """
            let result = try ExternalTool.run("python3", ["-c", script, file.path])
            let ours = try #require(HLS.parse(text).playlist?.media)
            let report = try #require(ours.renditionReports.first)
            let oursParts = ours.segments.flatMap(\.parts).count + (ours.incompleteSegment?.parts.count ?? 0)
            let expected =
                "YES \(ours.partInf?.partTarget ?? 0) PART \(ours.preloadHints.first?.uri ?? "") \(oursParts) "
                + "\(report.uri) \(report.lastMediaSequenceNumber ?? -1) \(report.lastPart ?? -1)\n"
            #expect(result.exitCode == 0, "\(result.stderr)")
            #expect(result.stdout == expected)
        } else {
            Issue.record(
                "python m3u8 check skipped: python3 with m3u8 is not installed (make deps)", severity: .warning)
        }
        // kill -9 left every playlist valid, and everything it lists complete.
        let (code, output) = try Self.inspect(video)
        #expect(code == 0, "\(output)")
        let after = try HLSLadderCheck(folder: video).media("90p/index.m3u8")
        for part in after.segments.flatMap(\.parts) + (after.incompleteSegment?.parts ?? []) {
            #expect(FileManager.default.fileExists(atPath: video.appendingPathComponent("90p/" + part.uri).path))
        }
    }

    @Test func encryptedPartsDecryptWithTheirSegmentsKeyAndEveryPlaylistDeclaresIt() throws {
        let temporary = try TemporaryFolder()
        let video = temporary.url.appendingPathComponent("live")
        let keys = temporary.url.appendingPathComponent("keys")
        let recording = try LiveRecording(
            folder: video,
            extra: Self.lowLatency + ["--encrypt", "aes-128", "--key-rotation", "1", "--keys", keys.path])
        let playlist = try recording.waitForPlaylist {
            $0.segments.count >= 2 && !($0.incompleteSegment?.parts.isEmpty ?? true)
        }
        let (code, output) = try Self.inspect(video)
        recording.signal(SIGKILL)
        _ = recording.waitForExit(timeoutSeconds: 30)
        #expect(code == 0, "\(output)")
        let folder = video.appendingPathComponent("90p")
        let incomplete = try #require(playlist.incompleteSegment)
        let sequence = playlist.mediaSequence ?? 0
        var checkedParts = 0
        // A key per segment (rotation 1): every segment, the one in progress included, names its own.
        for (offset, segment) in (playlist.segments + [incomplete]).enumerated() {
            let number = sequence + offset
            let key = try #require(segment.keys.first, "segment \(number) has no EXT-X-KEY")
            #expect(key.method == .aes128 && key.uri == "/v1/videos/live/keys/\(number).key")
            let keyBytes = try KeyRing.read(keys.appendingPathComponent("live/\(number).key").path).bytes
            let iv = try #require(key.iv?.bytes)
            var clearParts: [UInt8] = []
            for part in segment.parts {
                let sealed = [UInt8](try Data(contentsOf: folder.appendingPathComponent(part.uri)))
                #expect(!EncryptedStreamTests.isPlaintext(sealed), "\(part.uri) is stored in the clear")
                let clear = try AES128CBC.decrypt(sealed, key: keyBytes, iv: iv)
                #expect(["moof", "styp"].contains(EncryptedStreamTests.firstBox(clear)), "\(part.uri)")
                clearParts += clear
                checkedParts += 1
            }
            // A finished segment is its parts, encrypted as one resource.
            if offset < playlist.segments.count && !segment.parts.isEmpty {
                let sealed = [UInt8](try Data(contentsOf: folder.appendingPathComponent(segment.uri)))
                #expect(try AES128CBC.decrypt(sealed, key: keyBytes, iv: iv) == clearParts, "\(segment.uri)")
            }
        }
        #expect(checkedParts >= 2)
        // Each finished segment's keyframe is a resource of its own, encrypted whole, decoding alone to one keyframe.
        let iFrames = try IFrameResourceCheck(folder: folder, keys: keys.appendingPathComponent("live")).verify()
        #expect(!iFrames.isEmpty)
        // openssl, not our cipher, turns the first part of the segment in progress into a fragment ffprobe decodes.
        let part = try #require(incomplete.parts.first)
        let key = try #require(incomplete.keys.first)
        let keyBytes = try KeyRing.read(
            keys.appendingPathComponent("live/\(sequence + playlist.segments.count).key").path
        ).bytes
        let clear = temporary.url.appendingPathComponent("part.clear")
        let openssl = try ExternalTool.run(
            "openssl",
            [
                "enc", "-d", "-aes-128-cbc", "-K", EncryptedStreamTests.hex(keyBytes),
                "-iv", EncryptedStreamTests.hex(key.iv?.bytes ?? []), "-in",
                folder.appendingPathComponent(part.uri).path,
                "-out", clear.path,
            ])
        #expect(openssl.exitCode == 0, "\(openssl.stderr)")
        if ExternalTool.isInstalled("ffprobe") {
            let joined = temporary.url.appendingPathComponent("joined.mp4")
            try (Data(contentsOf: folder.appendingPathComponent("init.mp4")) + Data(contentsOf: clear)).write(
                to: joined)
            let probe = try ExternalTool.run(
                "ffprobe",
                [
                    "-v", "error", "-select_streams", "v:0", "-count_packets", "-show_entries",
                    "stream=nb_read_packets", "-of", "csv=p=0", joined.path,
                ])
            #expect(
                probe.exitCode == 0 && (Int(probe.stdout.trimmingCharacters(in: .whitespacesAndNewlines)) ?? 0) > 0,
                "\(probe.stdout)\(probe.stderr)")
        } else {
            Issue.record("ffprobe check skipped: ffprobe is not installed (make deps)", severity: .warning)
        }
    }

    @Test(arguments: ["0.1", "0.25", "0.7", "abc"])
    func aBadPartDurationIsOneLineExit2AndNothingWritten(_ seconds: String) throws {
        let temporary = try TemporaryFolder()
        let out = temporary.url.appendingPathComponent("out")
        let child = try FilterzChild(
            [
                "record", "--preset", "neutral", "--live", "--low-latency", "--part-duration", seconds, "--out",
                out.path,
            ],
            logs: temporary.url)
        #expect(child.waitForExit(timeoutSeconds: 30) == 2)
        let first = child.stderr.split(separator: "\n").first ?? ""
        #expect(first.hasPrefix("Error: --part-duration"), "\(child.stderr)")
        #expect(!FileManager.default.fileExists(atPath: out.path))
    }
}
