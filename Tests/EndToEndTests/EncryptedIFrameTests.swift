import Encryption
import FilterzTestSupport
import Foundation
import HLS
import RealClients
import Server
import Testing

@testable import CLIKit
@testable import FilterzCLI

/// What the I-frame playlists of an encrypted ladder hold: each I-frame a small resource of its own, encrypted
/// whole with its segment's key and IV, that decrypts alone to exactly one keyframe (RFC 8216bis §4.4.3.6: each
/// entry of an I-frame playlist is one I-frame); their BANDWIDTH measured from those resources; `inspect --deep`
/// clean on the served, signed ladder; a live window deleting them with their segments.
@Suite(
    .serialized, .slow,
    .enabled(if: !StreamGate.ffmpegMissing && ExternalTool.isInstalled("openssl"), "needs ffmpeg and openssl"))
struct EncryptedIFrameTests {
    /// `EncryptedStreamTests`' recordings (three 2 s segments, a key every 2 segments), TS and fMP4.
    static func recording(_ format: String) throws -> EncryptedStreamTests.Recording {
        try EncryptedStreamTests.recording(format)
    }

    /// `inspect --deep --json` of video `id`'s master playlist, served signed from `media` with the keys in `keys`.
    static func inspectServed(media: URL, keys: URL, id: String) throws -> DeepInspectFixture.Outcome {
        var configuration = ServerConfiguration(root: media.path)
        configuration.port = 0
        configuration.tokenSecret = EncryptedStreamTests.secret
        configuration.keysFolder = keys.path
        let server = try HTTPServer(configuration: configuration)
        defer { server.stop(graceSeconds: 1) }
        let master = "\(server.baseURL)/v1/videos/\(id)/master.m3u8?token=\(EncryptedStreamTests.token(id))"
        return try DeepInspectFixture.inspect(try #require(URL(string: master)))
    }

    @Test(arguments: ["ts", "fmp4"])
    func everyIFrameIsASmallResourceThatDecryptsAloneToOneKeyframe(format: String) throws {
        let recording = try Self.recording(format)
        let check = try IFrameResourceCheck(
            folder: recording.video.appendingPathComponent("180p"),
            keys: recording.keys.appendingPathComponent(recording.id))
        let frames = try check.verify()
        #expect(frames.count == 3)
        // The I-frame of segment i is encrypted under segment i's key and IV: the media playlist's schedule.
        let media = try recording.segments("180p/index.m3u8")
        #expect(frames.map(\.key.lastPathComponent) == media.map(\.key.lastPathComponent))
        #expect(frames.map(\.iv) == media.map(\.iv))
        for (frame, segment) in zip(frames, media) {
            let segmentBytes = try Data(contentsOf: segment.file).count
            #expect(
                frame.bytes * 2 < segmentBytes, "\(frame.uri): \(frame.bytes) of the segment's \(segmentBytes) bytes")
            #expect(frame.uri != segment.file.lastPathComponent)
        }
    }

    @Test(arguments: ["ts", "fmp4"])
    func theIFrameVariantsBandwidthIsMeasuredFromItsOwnResources(format: String) throws {
        let recording = try Self.recording(format)
        let master = try HLSLadderCheck(folder: recording.video).master()
        let variant = try #require(master.iFrameVariants.first)
        let folder = recording.video.appendingPathComponent("180p")
        let check = try IFrameResourceCheck(folder: folder, keys: recording.keys.appendingPathComponent(recording.id))
        let frames = try check.verify()
        let peak = frames.map { Double($0.bytes) * 8 / $0.duration }.max() ?? 0
        let average = Double(frames.reduce(0) { $0 + $1.bytes }) * 8 / frames.reduce(0) { $0 + $1.duration }
        #expect(abs(Double(variant.bandwidth) / peak - 1) < 0.01, "BANDWIDTH \(variant.bandwidth), measured \(peak)")
        let declaredAverage = Double(variant.averageBandwidth ?? 0)
        #expect(abs(declaredAverage / average - 1) < 0.01, "AVERAGE-BANDWIDTH \(declaredAverage), measured \(average)")
        // Trick play fetches a keyframe per segment, not the segments: well under half the video's own bytes.
        let segments = try recording.segments("180p/index.m3u8")
        let videoBytes = try segments.reduce(0) { $0 + (try Data(contentsOf: $1.file).count) }
        let videoAverage = Double(videoBytes) * 8 / frames.reduce(0) { $0 + $1.duration }
        #expect(declaredAverage < videoAverage / 2, "I-frames \(declaredAverage) b/s, video \(videoAverage) b/s")
    }

    @Test(arguments: ["ts", "fmp4"])
    func inspectDeepIsCleanOnTheServedSignedLadder(format: String) throws {
        let recording = try Self.recording(format)
        let server = try EncryptedStreamTests.server(for: recording)
        defer { server.stop(graceSeconds: 1) }
        let token = EncryptedStreamTests.token(recording.id)
        let base = "\(server.baseURL)/v1/videos/\(recording.id)"
        let outcome = try DeepInspectFixture.inspect(try #require(URL(string: "\(base)/master.m3u8?token=\(token)")))
        #expect(outcome.code == 0 && outcome.codes.isEmpty, "\(format): \(outcome.codes) \(outcome.stderr)")
        // The served I-frame playlist hands out the token for each I-frame resource, and each is served with it.
        let served = try EncryptedStreamTests.curl("\(base)/180p/iframes.m3u8?token=\(token)")
        guard case .media(let playlist)? = HLS.parse(served.body).playlist else {
            Issue.record("the served I-frame playlist does not parse")
            return
        }
        #expect(playlist.segments.count == 3)
        for segment in playlist.segments {
            #expect(segment.uri.hasSuffix("?token=\(token)"), "\(segment.uri)")
            #expect(try EncryptedStreamTests.curl("\(base)/180p/\(segment.uri)").status == 200, "\(segment.uri)")
        }
    }

    /// `filterz package --encrypt` of a 25 fps clip with audio, two rungs: served signed, nothing `--deep` rejects.
    @Test(arguments: ["ts", "fmp4"])
    func anEncryptedPackageIsCleanUnderInspectDeepServedSigned(format: String) throws {
        let folder = try TemporaryFolder(prefix: "filterz-encrypted-package")
        let clip = folder.url.appendingPathComponent("clip.mp4").path
        try DeepInspectFixture.ffmpeg([
            "-f", "lavfi", "-i", "testsrc2=s=320x180:r=25:d=3", "-f", "lavfi", "-i", "sine=f=440:d=3:sample_rate=44100",
            "-c:v", "libx264", "-c:a", "aac", "-shortest", clip,
        ])
        let media = folder.url.appendingPathComponent("media")
        let keys = folder.url.appendingPathComponent("keys")
        let packaged = runFilterz([
            "package", clip, "--preset", "neutral", "--out", media.appendingPathComponent("pkg").path,
            "--ladder", "320x180@400k,160x90@150k", "--segment-duration", "1", "--format", format,
            "--encrypt", "aes-128", "--key-rotation", "2", "--keys", keys.path,
        ])
        try #require(packaged.code == 0, "package: \(packaged.err)")
        for rendition in ["180p", "90p"] {
            let frames = try IFrameResourceCheck(
                folder: media.appendingPathComponent("pkg/\(rendition)"), keys: keys.appendingPathComponent("pkg")
            ).verify()
            #expect(frames.count == 3, "\(rendition)")
        }
        let outcome = try Self.inspectServed(media: media, keys: keys, id: "pkg")
        #expect(outcome.code == 0 && outcome.codes.isEmpty, "packaged \(format): \(outcome.codes) \(outcome.stderr)")
    }

    @Test func aLiveWindowDeletesEachIFrameResourceWithItsSegment() throws {
        let folder = try TemporaryFolder(prefix: "filterz-encrypted-iframes-live")
        let video = folder.url.appendingPathComponent("media/live")
        let keys = folder.url.appendingPathComponent("keys")
        let run = runFilterz(
            [
                "record", "--preset", "neutral", "--duration", "8", "--fps", "10", "--size", "160x90",
                "--ladder", "160x90@150k", "--segment-duration", "1", "--live", "--window", "2",
                "--encrypt", "aes-128", "--key-rotation", "3", "--keys", keys.path, "--out", video.path,
            ],
            environment: samplePresets)
        try #require(run.code == 0, "\(run.err)")
        let rendition = video.appendingPathComponent("90p")
        let frames = try IFrameResourceCheck(folder: rendition, keys: keys.appendingPathComponent("live")).verify()
        #expect(frames.count == 2, "the window lists two I-frames")
        // On disk: the same segment numbers as whole segments and as I-frame resources, the first ones gone.
        let names = try FileManager.default.contentsOfDirectory(atPath: rendition.path).filter { $0.hasPrefix("seg_") }
        let number = { (name: String) in Int(name.dropFirst(4).prefix(5)) }
        let iFrames = Set(names.filter { $0.hasSuffix(".iframe.ts") }.compactMap(number))
        let segments = Set(names.filter { !$0.contains(".iframe") }.compactMap(number))
        #expect(!iFrames.isEmpty && iFrames == segments, "I-frames \(iFrames.sorted()), segments \(segments.sorted())")
        #expect(!iFrames.contains(0), "the first segments left the disk with their I-frames")
        // Served signed, the finished window has no must finding (a window is held to the live limits).
        let outcome = try Self.inspectServed(media: folder.url.appendingPathComponent("media"), keys: keys, id: "live")
        let findings = outcome.deep["findings"] as? [[String: Any]] ?? []
        #expect(
            outcome.code == 0 && findings.allSatisfy { $0["severity"] as? String == "should" },
            "live window: \(outcome.codes) \(outcome.stderr)")
    }
}

/// Checks every entry of an I-frame playlist of an encrypted rendition: a resource of its own (no byte range),
/// that decrypts with the key and IV in effect (`openssl enc -d`, not our cipher) to media that ffprobe reads as
/// exactly one video frame, a keyframe.
struct IFrameResourceCheck {
    /// The rendition's folder (holding `iframes.m3u8`, its resources and, for fMP4, `init.mp4`).
    var folder: URL
    /// The video's key folder (`<keys>/<video id>`).
    var keys: URL

    struct Frame {
        var uri: String
        var bytes: Int
        var duration: Double
        var key: URL
        var iv: [UInt8]
    }

    init(folder: URL, keys: URL) throws {
        self.folder = folder
        self.keys = keys
    }

    /// Every I-frame entry checked, in order.
    func verify() throws -> [Frame] {
        let text = try Data(contentsOf: folder.appendingPathComponent("iframes.m3u8"))
        guard case .media(let playlist)? = HLS.parse([UInt8](text)).playlist, playlist.iFramesOnly else {
            throw CLIError.failure("\(folder.path)/iframes.m3u8 is not an I-frame playlist")
        }
        var current: Key?
        var frames: [Frame] = []
        for (index, segment) in playlist.segments.enumerated() {
            if let key = segment.keys.last { current = key }
            let key = try #require(current, "I-frame \(index) (\(segment.uri)) has no key")
            let keyFile = keys.appendingPathComponent(String(key.uri?.split(separator: "/").last ?? ""))
            let iv = try #require(key.iv?.bytes, "the key of \(segment.uri) states no IV")
            #expect(
                segment.byteRange == nil, "\(segment.uri) is a byte range \(segment.byteRange.map { "\($0)" } ?? "")")
            let file = folder.appendingPathComponent(segment.uri)
            let sealed = [UInt8](try Data(contentsOf: file))
            #expect(!EncryptedStreamTests.isPlaintext(sealed), "\(segment.uri) is stored in the clear")
            let clear = try ExternalTool.runFeeding(
                "openssl",
                [
                    "enc", "-d", "-aes-128-cbc", "-K", EncryptedStreamTests.hex(try KeyRing.read(keyFile.path).bytes),
                    "-iv", EncryptedStreamTests.hex(iv),
                ],
                input: sealed)
            #expect(try keyframes(in: clear, playlist: playlist, index: index) == ["1,I"], "\(segment.uri)")
            frames.append(
                Frame(uri: segment.uri, bytes: sealed.count, duration: segment.duration, key: keyFile, iv: iv))
        }
        return frames
    }

    /// `key_frame,pict_type` (`1,I`) of each video frame ffprobe decodes from `clear` (after the init section, fMP4).
    private func keyframes(in clear: [UInt8], playlist: MediaPlaylist, index: Int) throws -> [String] {
        var media = Data(clear)
        var name = "frame.ts"
        if let map = playlist.map(inEffectAt: index) {
            media = try Data(contentsOf: folder.appendingPathComponent(map.uri)) + media
            name = "frame.mp4"
        }
        let scratch = try TemporaryFolder(prefix: "filterz-iframe")
        let path = scratch.url.appendingPathComponent(name).path
        try media.write(to: URL(fileURLWithPath: path))
        let probe = try ExternalTool.run(
            "ffprobe",
            [
                "-v", "error", "-select_streams", "v:0", "-show_entries", "frame=key_frame,pict_type", "-of", "json",
                path,
            ])
        let object = try JSONSerialization.jsonObject(with: Data(probe.stdout.utf8)) as? [String: Any]
        let frames = object?["frames"] as? [[String: Any]] ?? []
        return frames.map { "\($0["key_frame"].map { "\($0)" } ?? "?"),\($0["pict_type"].map { "\($0)" } ?? "?")" }
    }
}
