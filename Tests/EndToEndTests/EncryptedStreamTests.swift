import Encryption
import FilterzTestSupport
import Foundation
import HLS
import RealClients
import Server
import Testing

@testable import CLIKit
@testable import FilterzCLI
@testable import Inspect

/// A short encrypted recording (`--encrypt aes-128 --key-rotation 2`, three 2 s segments, so two keys), TS and
/// fMP4, checked with clients we did not write: ffmpeg decodes it over HTTP from our server with a token, Python
/// m3u8 reads its key URIs and IVs, `openssl enc -d` decrypts every segment to media, hls.js plays it in Chromium.
@Suite(
    .serialized, .slow,
    .enabled(if: !StreamGate.ffmpegMissing && ExternalTool.isInstalled("openssl"), "needs ffmpeg and openssl"))
struct EncryptedStreamTests {
    static let secret = "enc-s3cret"

    /// One recording per container, made once.
    final class Recording: Sendable {
        let folder: TemporaryFolder
        let format: String
        let id: String
        var media: URL { folder.url.appendingPathComponent("media") }
        var video: URL { media.appendingPathComponent(id) }
        var keys: URL { folder.url.appendingPathComponent("keys") }

        init(format: String) throws {
            folder = try TemporaryFolder(prefix: "filterz-encrypted")
            self.format = format
            self.id = "enc-\(format)"
            let run = runFilterz(
                [
                    "record", "--preset", "warm-film", "--duration", "6", "--fps", "15", "--size", "320x180",
                    "--ladder", "320x180@400k", "--segment-duration", "2", "--format", format,
                    "--encrypt", "aes-128", "--key-rotation", "2",
                    "--keys", self.folder.url.appendingPathComponent("keys").path,
                    "--out", self.folder.url.appendingPathComponent("media/enc-\(format)").path,
                ],
                environment: samplePresets)
            guard run.code == 0 else { throw CLIError.failure("record exit \(run.code): \(run.err)") }
        }

        /// The segments of one track with the key in effect for each (URI, key file path, IV).
        func segments(_ playlist: String) throws -> [(file: URL, key: URL, iv: [UInt8])] {
            let url = video.appendingPathComponent(playlist)
            guard case .media(let parsed)? = HLS.parse([UInt8](try Data(contentsOf: url))).playlist else {
                throw CLIError.failure("\(url.path) is not a media playlist")
            }
            var current: Key?
            return try parsed.segments.map { segment in
                if let key = segment.keys.last { current = key }
                guard let key = current, let uri = key.uri, let iv = key.iv?.bytes else {
                    throw CLIError.failure("\(segment.uri) in \(playlist) has no key")
                }
                let name = String(uri.split(separator: "/").last ?? "")
                return (
                    url.deletingLastPathComponent().appendingPathComponent(segment.uri),
                    keys.appendingPathComponent(id).appendingPathComponent(name), iv
                )
            }
        }

        var tracks: [String] { ["180p/index.m3u8", "audio/index.m3u8"] }
    }

    /// Made once, on first use, for all the tests of the suite.
    static let recordings: [String: Result<Recording, any Error>] = [
        "ts": Result { try Recording(format: "ts") }, "fmp4": Result { try Recording(format: "fmp4") },
    ]

    static func recording(_ format: String) throws -> Recording {
        try #require(recordings[format]).get()
    }

    static func server(for recording: Recording) throws -> HTTPServer {
        var configuration = ServerConfiguration(root: recording.media.path)
        configuration.port = 0
        configuration.tokenSecret = secret
        configuration.keysFolder = recording.keys.path
        return try HTTPServer(configuration: configuration)
    }

    static func token(_ id: String, expiresIn seconds: Int64 = 600) -> String {
        URLSigner(secret: secret).token(videoID: id, expiresAt: Int64(Date().timeIntervalSince1970) + seconds)
    }

    static func hex(_ bytes: [UInt8]) -> String { bytes.map { String(format: "%02x", $0) }.joined() }

    /// MPEG-TS: a sync byte at every 188-byte packet start.
    static func looksLikeTS(_ bytes: [UInt8]) -> Bool {
        bytes.count >= 188 && bytes.count % 188 == 0
            && stride(from: 0, to: bytes.count, by: 188).allSatisfy { bytes[$0] == 0x47 }
    }

    /// The type of the first ISO BMFF box.
    static func firstBox(_ bytes: [UInt8]) -> String {
        bytes.count >= 8 ? String(decoding: bytes[4..<8], as: UTF8.self) : ""
    }

    static func looksLikeMedia(_ bytes: [UInt8], format: String) -> Bool {
        format == "ts" ? looksLikeTS(bytes) : ["moof", "styp"].contains(firstBox(bytes))
    }

    /// Plaintext of any kind we write: TS sync bytes at 0, 188, 376, or a known box at the start.
    static func isPlaintext(_ bytes: [UInt8]) -> Bool {
        let ts = bytes.count > 376 && bytes[0] == 0x47 && bytes[188] == 0x47 && bytes[376] == 0x47
        return ts || ["ftyp", "moof", "styp", "mdat", "sidx", "moov"].contains(firstBox(bytes))
    }

    @Test(arguments: ["ts", "fmp4"])
    func ffmpegDecodesTheEncryptedStreamOverHTTPWithAToken(format: String) throws {
        let recording = try Self.recording(format)
        let server = try Self.server(for: recording)
        defer { server.stop(graceSeconds: 1) }
        let master = "\(server.baseURL)/v1/videos/\(recording.id)/master.m3u8?token=\(Self.token(recording.id))"
        let played = try ExternalTool.run(
            "ffmpeg",
            [
                "-nostdin", "-v", "warning", "-xerror", "-i", master, "-map", "0:v:0", "-map", "0:a:0", "-f",
                "framecrc", "-",
            ],
            timeoutSeconds: 120)
        #expect(played.exitCode == 0, "\(played.stderr)")
        let complaints = played.stderr.split(separator: "\n").filter { !$0.contains("Can't support the subtitle") }
        #expect(complaints.isEmpty, "\(complaints.joined(separator: "\n"))")
        let videoFrames = played.stdout.split(separator: "\n").filter { $0.hasPrefix("0,") }.count
        #expect(videoFrames >= 85, "decoded \(videoFrames) video frames of 90")
        let unsigned = try ExternalTool.run(
            "ffmpeg",
            [
                "-nostdin", "-v", "error", "-i", "\(server.baseURL)/v1/videos/\(recording.id)/master.m3u8", "-f",
                "null", "-",
            ],
            timeoutSeconds: 60)
        #expect(unsigned.exitCode != 0)
    }

    @Test(arguments: ["ts", "fmp4"])
    func opensslDecryptsEverySegmentToMediaAndNoSegmentIsStoredOrServedInTheClear(format: String) throws {
        let recording = try Self.recording(format)
        var keyFiles = Set<String>()
        for track in recording.tracks {
            let segments = try recording.segments(track)
            #expect(segments.count == 3, "\(track)")
            for (index, segment) in segments.enumerated() {
                let sealed = [UInt8](try Data(contentsOf: segment.file))
                #expect(sealed.count % 16 == 0, "\(segment.file.lastPathComponent)")
                #expect(!Self.isPlaintext(sealed), "\(segment.file.path) is stored in the clear")
                let key = try KeyRing.read(segment.key.path)
                keyFiles.insert(segment.key.lastPathComponent)
                #expect(segment.key.lastPathComponent == "\(index / 2).key")
                let opened = try ExternalTool.runFeeding(
                    "openssl", ["enc", "-d", "-aes-128-cbc", "-K", Self.hex(key.bytes), "-iv", Self.hex(segment.iv)],
                    input: sealed)
                #expect(
                    Self.looksLikeMedia(opened, format: format), "\(segment.file.path) does not decrypt to \(format)")
                #expect(try AES128CBC.decrypt(sealed, key: key.bytes, iv: segment.iv) == opened)
                // The other key does not open it, and a truncated segment is refused.
                let other = try KeyRing.read(
                    recording.keys.appendingPathComponent("\(recording.id)/\(1 - index / 2).key").path)
                let wrong = try? AES128CBC.decrypt(sealed, key: other.bytes, iv: segment.iv)
                #expect(wrong.map { !Self.looksLikeMedia($0, format: format) } ?? true)
                #expect(throws: EncryptionError.notBlockAligned(bytes: sealed.count - 5)) {
                    try AES128CBC.decrypt(Array(sealed.dropLast(5)), key: key.bytes, iv: segment.iv)
                }
            }
        }
        #expect(keyFiles == ["0.key", "1.key"])
        let keyNames = try FileManager.default.contentsOfDirectory(
            atPath: recording.keys.appendingPathComponent(recording.id).path)
        #expect(keyNames.sorted() == ["0.key", "1.key"])
        // No key in the media folder; init sections and subtitles stay clear.
        let files = FileManager.default.enumerator(atPath: recording.video.path)?.compactMap { $0 as? String } ?? []
        #expect(!files.contains { $0.hasSuffix(".key") })
        if format == "fmp4" {
            #expect(
                Self.firstBox([UInt8](try Data(contentsOf: recording.video.appendingPathComponent("180p/init.mp4"))))
                    == "ftyp")
        }
        let cue = try String(
            contentsOf: recording.video.appendingPathComponent("subs/en/seg_00000.vtt"), encoding: .utf8)
        #expect(cue.hasPrefix("WEBVTT"))

        // What the server sends is the ciphertext.
        let server = try Self.server(for: recording)
        defer { server.stop(graceSeconds: 1) }
        let first = try #require(try recording.segments("180p/index.m3u8").first)
        let url =
            "\(server.baseURL)/v1/videos/\(recording.id)/180p/\(first.file.lastPathComponent)?token=\(Self.token(recording.id))"
        let served = try Self.curl(url)
        #expect(served.status == 200)
        #expect(served.body == [UInt8](try Data(contentsOf: first.file)))
        #expect(!Self.isPlaintext(served.body))
    }

    @Test func aLiveSlidingWindowDeclaresTheKeyInEffectAndWritesEachKeyBeforeItsSegments() throws {
        let folder = try TemporaryFolder(prefix: "filterz-encrypted-live")
        let video = folder.url.appendingPathComponent("media/live")
        let keys = folder.url.appendingPathComponent("keys")
        let run = runFilterz(
            [
                "record", "--preset", "neutral", "--duration", "6", "--fps", "10", "--size", "160x90",
                "--ladder", "160x90@150k", "--segment-duration", "2", "--live", "--window", "2",
                "--encrypt", "aes-128", "--key-rotation", "1", "--keys", keys.path, "--out", video.path,
            ],
            environment: samplePresets)
        try #require(run.code == 0, "\(run.err)")
        for track in ["90p/index.m3u8", "audio/index.m3u8"] {
            let url = video.appendingPathComponent(track)
            guard case .media(let playlist)? = HLS.parse([UInt8](try Data(contentsOf: url))).playlist else {
                Issue.record("\(track) does not parse")
                continue
            }
            #expect(playlist.mediaSequence == 1, "\(track)")
            #expect(
                playlist.segments.map { $0.keys.first?.uri } == [
                    "/v1/videos/live/keys/1.key", "/v1/videos/live/keys/2.key",
                ])
            for segment in playlist.segments {
                let key = try KeyRing.read(
                    keys.appendingPathComponent(
                        "live/" + (segment.keys.first?.uri?.split(separator: "/").last.map(String.init) ?? "")
                    ).path)
                let sealed = [UInt8](
                    try Data(contentsOf: url.deletingLastPathComponent().appendingPathComponent(segment.uri)))
                #expect(!Self.isPlaintext(sealed))
                #expect(
                    Self.looksLikeTS(
                        try AES128CBC.decrypt(sealed, key: key.bytes, iv: segment.keys.first?.iv?.bytes ?? [])))
            }
        }
        #expect(
            try String(contentsOf: video.appendingPathComponent("master.m3u8"), encoding: .utf8)
                .contains("#EXT-X-SESSION-KEY:METHOD=AES-128,URI=\"/v1/videos/live/keys/1.key\""))
    }

    /// A key folder holding the recording's keys 0 and 1 under each other's names: every segment's key is wrong.
    static func swappedKeys(of recording: Recording) throws -> TemporaryFolder {
        let swapped = try TemporaryFolder(prefix: "filterz-swapped-keys")
        let folder = swapped.url.appendingPathComponent(recording.id)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let own = recording.keys.appendingPathComponent(recording.id)
        try FileManager.default.copyItem(
            at: own.appendingPathComponent("0.key"), to: folder.appendingPathComponent("1.key"))
        try FileManager.default.copyItem(
            at: own.appendingPathComponent("1.key"), to: folder.appendingPathComponent("0.key"))
        return swapped
    }

    @Test func withTheWrongKeysServedFFmpegFailsToDecode() throws {
        let recording = try Self.recording("ts")
        let swapped = try Self.swappedKeys(of: recording)
        // The same server with the right keys decodes (so the failure below is the keys' doing).
        for (keysFolder, decodes) in [(recording.keys.path, true), (swapped.url.path, false)] {
            var configuration = ServerConfiguration(root: recording.media.path)
            configuration.port = 0
            configuration.keysFolder = keysFolder
            let server = try HTTPServer(configuration: configuration)
            defer { server.stop(graceSeconds: 1) }
            let played = try ExternalTool.run(
                "ffmpeg",
                [
                    "-nostdin", "-v", "warning", "-xerror", "-i",
                    "\(server.baseURL)/v1/videos/\(recording.id)/180p/index.m3u8",
                    "-f", "null", "-",
                ],
                timeoutSeconds: 120)
            #expect(
                (played.exitCode == 0) == decodes,
                "keys \(keysFolder): ffmpeg exit \(played.exitCode): \(played.stderr)")
        }
    }

    @Test func inspectDeepDecryptsWithTheServedKeysAndNamesAWrongKey() throws {
        let recording = try Self.recording("ts")
        let swapped = try Self.swappedKeys(of: recording)
        for (keysFolder, right) in [(recording.keys.path, true), (swapped.url.path, false)] {
            var configuration = ServerConfiguration(root: recording.media.path)
            configuration.port = 0
            configuration.keysFolder = keysFolder
            let server = try HTTPServer(configuration: configuration)
            defer { server.stop(graceSeconds: 1) }
            let run = runFilterz([
                "inspect", "--deep", "--json", "\(server.baseURL)/v1/videos/\(recording.id)/master.m3u8",
            ])
            let json = String(run.out.filter { !$0.isWhitespace })
            let codes = Set(
                json.components(separatedBy: "\"code\":\"").dropFirst().map { String($0.prefix { $0 != "\"" }) })
            if right {
                #expect(!codes.contains("key.unusable") && !codes.contains("segment.unreadable"), "\(codes) \(run.err)")
                #expect(
                    json.contains("\"codecs_measured\":[\"avc1."),
                    "the decrypted segments were demuxed: \(json.prefix(600))")
            } else {
                #expect(run.code == 1, "a wrong key is a must finding: \(run.err)")
                #expect(codes.contains("key.unusable") || codes.contains("segment.unreadable"), "\(codes)")
            }
        }
    }

    @Test func inspectDeepNamesATruncatedSegmentAndRefusesATokenForAnotherVideoOrExpired() throws {
        let recording = try Self.recording("ts")
        let copy = try TemporaryFolder(prefix: "filterz-encrypted-cut")
        let media = copy.url.appendingPathComponent("media")
        try FileManager.default.copyItem(at: recording.media, to: media)
        // The first video segment loses its last 5 bytes: no longer a whole number of cipher blocks.
        let cut = media.appendingPathComponent("\(recording.id)/180p/seg_00000.ts")
        let sealed = try Data(contentsOf: cut)
        try sealed.prefix(sealed.count - 5).write(to: cut)
        var configuration = ServerConfiguration(root: media.path)
        configuration.port = 0
        configuration.tokenSecret = Self.secret
        configuration.keysFolder = recording.keys.path
        let server = try HTTPServer(configuration: configuration)
        defer { server.stop(graceSeconds: 1) }
        let master = "\(server.baseURL)/v1/videos/\(recording.id)/master.m3u8"
        let run = runFilterz(["inspect", "--deep", "--json", master + "?token=\(Self.token(recording.id))"])
        let json = String(run.out.filter { !$0.isWhitespace })
        #expect(run.code == 1, "\(run.err)")
        let findings = json.components(separatedBy: "{\"severity\":").filter { $0.contains("seg_00000.ts") }
        #expect(
            findings.contains {
                $0.contains("\"code\":\"key.unusable\"") || $0.contains("\"code\":\"segment.unreadable\"")
            },
            "no finding names the truncated segment: \(json.prefix(800))")
        for query in ["?token=\(Self.token("enc-fmp4"))", "?token=\(Self.token(recording.id, expiresIn: -5))"] {
            let refused = runFilterz(["inspect", "--deep", master + query])
            #expect(refused.code != 0)
            #expect((refused.out + refused.err).contains("403"), "\(refused.out)\(refused.err)")
        }
    }

    @Test func theServerRefusesKeysWithoutAValidTokenForThatVideo() throws {
        let recording = try Self.recording("ts")
        let server = try Self.server(for: recording)
        defer { server.stop(graceSeconds: 1) }
        let key = "\(server.baseURL)/v1/videos/\(recording.id)/keys/0.key"
        let good = try Self.curl(key + "?token=\(Self.token(recording.id))")
        #expect(good.status == 200 && good.body.count == 16)
        #expect(
            good.body == (try KeyRing.read(recording.keys.appendingPathComponent("\(recording.id)/0.key").path)).bytes)
        for (name, query) in [
            ("none", ""), ("another video", "?token=\(Self.token("enc-fmp4"))"),
            ("expired", "?token=\(Self.token(recording.id, expiresIn: -5))"),
        ] {
            let refused = try Self.curl(key + query)
            #expect(refused.status == 403, "\(name)")
            #expect(refused.body.isEmpty, "\(name)")
        }
        #expect(
            try Self.curl("\(server.baseURL)/v1/videos/\(recording.id)/keys/7.key?token=\(Self.token(recording.id))")
                .status == 404)
    }

    @Test(
        .enabled(
            if: (try? ExternalTool.run("python3", ["-c", "import m3u8"], timeoutSeconds: 20).exitCode) == 0,
            "needs python3 m3u8"),
        arguments: ["ts", "fmp4"])
    func pythonM3U8ReadsTheKeyURIsAndIVs(format: String) throws {
        let recording = try Self.recording(format)
        let script = """
            import json, sys, m3u8
            master = m3u8.load(sys.argv[1])
            out = {"session": [[k.method, k.uri, k.iv] for k in master.session_keys if k], "tracks": {}}
            for path in sys.argv[2:]:
                playlist = m3u8.load(path)
                out["tracks"][path] = [[s.key.method, s.key.uri, s.key.iv] if s.key else None for s in playlist.segments]
                out.setdefault("init", []).append(bool(playlist.segment_map))
            print(json.dumps(out))
            """
        let paths = ["180p/index.m3u8", "audio/index.m3u8", "180p/iframes.m3u8", "subs/en/index.m3u8"].map {
            recording.video.appendingPathComponent($0).path
        }
        let result = try ExternalTool.run(
            "python3", ["-c", script, recording.video.appendingPathComponent("master.m3u8").path] + paths,
            timeoutSeconds: 30)
        try #require(result.exitCode == 0, "\(result.stderr)")
        struct Read: Decodable {
            var session: [[String?]]
            var tracks: [String: [[String?]?]]
        }
        let read = try JSONDecoder().decode(Read.self, from: Data(result.stdout.utf8))
        let uri0 = "/v1/videos/\(recording.id)/keys/0.key", uri1 = "/v1/videos/\(recording.id)/keys/1.key"
        #expect(read.session.count == 1 && read.session.first?[1] == uri0)
        let prefix = read.session.first?[2].map { String($0.prefix(18)) } ?? "?"
        for path in paths.prefix(3) {
            let keys = try #require(read.tracks[path])
            #expect(keys.map { $0?[1] } == [uri0, uri0, uri1], "\(path)")
            #expect(keys.allSatisfy { $0?[0] == "AES-128" }, "\(path)")
            #expect(keys.map { $0?[2] } == [0, 0, 1].map { prefix + String(format: "%016X", $0) }, "\(path)")
        }
        #expect(read.tracks[paths[3]]?.allSatisfy { $0 == nil } == true, "subtitles are clear")
    }

    @Test(
        .browser,
        .enabled(if: HLSJSPlayer.unavailableReason == nil, Comment(rawValue: HLSJSPlayer.unavailableReason ?? "")),
        arguments: ["ts", "fmp4"])
    func hlsJSPlaysTheEncryptedStreamWithAToken(format: String) async throws {
        let recording = try Self.recording(format)
        let server = try Self.server(for: recording)
        defer { server.stop(graceSeconds: 1) }
        let browser = try await HeadlessChromium.start()
        do {
            try await browser.open(server.baseURL + "/")
            let master = "\(server.baseURL)/v1/videos/\(recording.id)/master.m3u8?token=\(Self.token(recording.id))"
            let report = try await HLSJSPlayer.play(master, in: browser, seconds: 8, lowLatency: false)
            #expect(report.error == nil, "\(report.error ?? "")")
            #expect(report.fragmentsLoaded >= 3, "\(report.fragmentsLoaded) fragments")
            #expect(report.endTime > 3, "played to \(report.endTime) s")
        } catch {
            await browser.quit()
            throw error
        }
        await browser.quit()
    }

    /// `curl` the URL: status and body bytes.
    static func curl(_ url: String) throws -> (status: Int, body: [UInt8]) {
        let folder = try TemporaryFolder(prefix: "filterz-curl")
        let file = folder.url.appendingPathComponent("body").path
        let result = try ExternalTool.run("curl", ["-s", "-o", file, "-w", "%{http_code}", url], timeoutSeconds: 30)
        let body = (try? Data(contentsOf: URL(fileURLWithPath: file))).map { [UInt8]($0) } ?? []
        return (Int(result.stdout) ?? 0, body)
    }
}
