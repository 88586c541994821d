import FilterzTestSupport
import Foundation
import HLS
import RealClients
import Testing

@testable import CLIKit
@testable import FilterzCLI
@testable import Inspect

/// `filterz package` on short clips made by `ffmpeg -f lavfi`, and on each kind of bad input.
@Suite(
    .serialized,
    .enabled(if: ExternalTool.isInstalled("ffmpeg") && ExternalTool.isInstalled("ffprobe"), "needs ffmpeg (make deps)"),
    .slow)
struct PackageCommandTests {
    static let ladder = ["--ladder", "320x180@400k,160x90@150k", "--segment-duration", "1"]

    func package(_ input: String, out: URL, extra: [String] = []) -> (code: Int32, out: String, err: String) {
        runFilterz(["package", input, "--preset", "neutral", "--out", out.path] + Self.ladder + extra)
    }

    func ffmpeg(_ arguments: [String]) throws {
        let result = try ExternalTool.run("ffmpeg", ["-v", "error", "-y"] + arguments)
        try #require(result.exitCode == 0, "ffmpeg failed: \(result.stderr)")
    }

    @Test func clipWithAudioBecomesACompleteLadder() throws {
        let folder = try TemporaryFolder()
        let clip = folder.url.appendingPathComponent("clip.mp4").path
        try ffmpeg([
            "-f", "lavfi", "-i", "testsrc2=s=320x180:r=30:d=2", "-f", "lavfi", "-i", "sine=f=440:d=2:sample_rate=48000",
            "-c:v", "libx264", "-c:a", "aac", "-shortest", clip,
        ])
        let out = folder.url.appendingPathComponent("out")
        let result = package(clip, out: out)
        #expect(result.code == 0, "\(result.err)")
        try HLSLadderCheck(folder: out).checkFinishedLadder(
            resolutions: [(320, 180), (160, 90)], frameRate: 30, durationSeconds: 2, isFragmentedMP4: false)
        try StreamGate.check(out)
    }

    struct AudioCase: Sendable, CustomTestStringConvertible {
        /// What ffmpeg writes into the clip.
        var rate: Int, layout: String, codec: String, container: String
        /// What the audio rendition must be.
        var expectedRate: Int, expectedChannels: Int
        var testDescription: String { "\(rate) Hz \(layout) \(codec)" }
    }

    /// Any input audio is re-encoded to AAC-LC: resampled where AAC lacks the rate, downmixed to stereo.
    @Test(arguments: [
        AudioCase(
            rate: 44_100, layout: "mono", codec: "aac", container: "mp4", expectedRate: 44_100, expectedChannels: 1),
        AudioCase(
            rate: 48_000, layout: "stereo", codec: "aac", container: "mp4", expectedRate: 48_000, expectedChannels: 2),
        AudioCase(
            rate: 96_000, layout: "5.1", codec: "pcm_s16le", container: "mov", expectedRate: 48_000, expectedChannels: 2
        ),
        AudioCase(
            rate: 37_800, layout: "stereo", codec: "pcm_s32le", container: "mov", expectedRate: 48_000,
            expectedChannels: 2),
    ])
    func anyInputAudioBecomesAACLC(_ audio: AudioCase) throws {
        let folder = try TemporaryFolder()
        let clip = folder.url.appendingPathComponent("clip.\(audio.container)").path
        try ffmpeg([
            "-f", "lavfi", "-i", "testsrc2=s=160x90:r=30:d=2",
            "-f", "lavfi", "-i", "sine=f=440:d=2:sample_rate=\(audio.rate),aformat=channel_layouts=\(audio.layout)",
            "-c:v", "libx264", "-c:a", audio.codec, "-shortest", clip,
        ])
        let out = folder.url.appendingPathComponent("out")
        let packaged = runFilterz([
            "package", clip, "--preset", "neutral", "--out", out.path, "--ladder", "160x90@150k", "--segment-duration",
            "1",
        ])
        #expect(packaged.code == 0, "\(packaged.err)")
        let check = HLSLadderCheck(folder: out)
        let master = try check.master()
        #expect(master.variants.first?.codecList.last == "mp4a.40.2")
        let rendition = try #require(master.renditions.first { $0.type == .audio })
        #expect(rendition.channels == String(audio.expectedChannels))
        let playlist = try check.media(try #require(rendition.uri))
        #expect(
            abs(playlist.totalDuration - 2) <= 2048.0 / Double(audio.expectedRate) + 1.0 / 30,
            "audio lasts \(playlist.totalDuration) s")
        let probe = try ExternalTool.run(
            "ffprobe",
            [
                "-v", "error", "-select_streams", "a:0", "-show_entries",
                "stream=codec_name,profile,sample_rate,channels",
                "-of", "csv=p=0", out.appendingPathComponent(try #require(rendition.uri)).path,
            ])
        // (ffprobe lists the stream once under the HLS program and once on its own.)
        #expect(
            Set(probe.stdout.split(separator: "\n").map(String.init))
                == ["aac,LC,\(audio.expectedRate),\(audio.expectedChannels)"], "\(probe.stdout) \(probe.stderr)")
        // Not silence: the sine survives resampling and downmixing (the loudest AAC packet is well above empty).
        let volume = try ExternalTool.run(
            "ffmpeg",
            [
                "-v", "info", "-i", out.appendingPathComponent(try #require(rendition.uri)).path,
                "-af", "volumedetect", "-f", "null", "-",
            ])
        let maxVolume = volume.stderr.split(separator: "\n").first { $0.contains("max_volume:") }
        let decibels = maxVolume.flatMap { Double($0.split(separator: " ").dropLast().last ?? "") } ?? -100
        #expect(decibels > -30, "\(maxVolume ?? "no volumedetect output")")
    }

    /// The audio's first sample plays with the first video frame, whatever the input's start times.
    @Test(arguments: [
        ["-f", "mpegts"],  // both streams start near 1.4 s
        ["-itsoffset", "0.5"],  // (placed before the audio input) audio starts 0.5 s after the video
        ["-video-later"],  // video starts 0.5 s after the audio
    ])
    func audioStartsWithTheVideo(_ variant: [String]) throws {
        let folder = try TemporaryFolder()
        let isTS = variant.first == "-f"
        let clip = folder.url.appendingPathComponent(isTS ? "clip.ts" : "clip.mp4").path
        let video = ["-f", "lavfi", "-i", "testsrc2=s=160x90:r=30:d=3"]
        let audio = ["-f", "lavfi", "-i", "sine=f=440:d=3"]
        var inputs = video + audio
        if variant.first == "-itsoffset" { inputs = video + variant + audio }
        if variant.first == "-video-later" { inputs = ["-itsoffset", "0.5"] + video + audio }
        try ffmpeg(inputs + ["-c:v", "libx264", "-c:a", "aac"] + (isTS ? variant : []) + [clip])
        let out = folder.url.appendingPathComponent("out")
        let result = package(clip, out: out)
        #expect(result.code == 0, "\(result.err)")
        func start(_ relative: String) throws -> Double {
            let probe = try ExternalTool.run(
                "ffprobe",
                [
                    "-v", "error", "-show_entries", "stream=start_time", "-of", "csv=p=0",
                    out.appendingPathComponent(relative).path,
                ])
            // (ffprobe may list the stream twice: under the program and on its own.)
            return try #require(probe.stdout.split(separator: "\n").compactMap { Double($0) }.first, "\(probe.stdout)")
        }
        let videoStart = try start("90p/seg_00000.ts"), audioStart = try start("audio/seg_00000.ts")
        // AAC priming puts the first audio packet up to one frame (1024 samples) early.
        #expect(abs(audioStart - videoStart) <= 1024.0 / 44_100 + 0.005, "video \(videoStart) s, audio \(audioStart) s")
        let audioPlaylist = try HLSLadderCheck(folder: out).media("audio/index.m3u8")
        #expect(abs(audioPlaylist.totalDuration - 3) <= 0.1, "audio lasts \(audioPlaylist.totalDuration) s")
    }

    @Test func portraitPhoneVideoComesOutUpright() throws {
        let folder = try TemporaryFolder()
        // Left half red, right half blue, stored landscape with a display matrix saying "turn 90° clockwise".
        let stored = folder.url.appendingPathComponent("stored.mp4").path
        try ffmpeg([
            "-f", "lavfi", "-i", "color=c=red:s=320x180:r=30:d=1,drawbox=x=160:y=0:w=160:h=180:c=blue:t=fill",
            "-c:v", "libx264", "-pix_fmt", "yuv420p", stored,
        ])
        let rotated = folder.url.appendingPathComponent("phone.mp4")
        try Self.setDisplayMatrixRotation(of: URL(fileURLWithPath: stored), to: rotated)
        let out = folder.url.appendingPathComponent("out")
        let result = package(rotated.path, out: out)
        #expect(result.code == 0, "\(result.err)")
        let master = try HLSLadderCheck(folder: out).master()
        #expect(master.variants.map { $0.resolution?.description } == ["180x320", "90x160"])
        // Upright means the left (red) half ends up on top after a clockwise quarter turn.
        let png = folder.url.appendingPathComponent("frame.rgb").path
        try ffmpeg([
            "-i", out.appendingPathComponent("180p/seg_00000.ts").path, "-frames:v", "1", "-vf", "scale=1:2",
            "-f", "rawvideo", "-pix_fmt", "rgb24", png,
        ])
        let rgb = [UInt8](try Data(contentsOf: URL(fileURLWithPath: png)))
        try #require(rgb.count == 6)
        #expect(rgb[0] > 150 && rgb[2] < 100, "top should be red, got \(rgb[0...2])")
        #expect(rgb[5] > 150 && rgb[3] < 100, "bottom should be blue, got \(rgb[3...5])")
        try StreamGate.check(out)
    }

    /// Rewrites the track header matrix of an MP4 to a 90° rotation (what phones store for portrait video).
    static func setDisplayMatrixRotation(of source: URL, to destination: URL) throws {
        var bytes = [UInt8](try Data(contentsOf: source))
        let tag = Array("tkhd".utf8)
        let index = try #require((0..<(bytes.count - 4)).first { Array(bytes[$0..<($0 + 4)]) == tag })
        let version = bytes[index + 4]
        let matrix = index + 4 + 4 + (version == 1 ? 32 : 20) + 8 + 8
        let values: [UInt32] = [0, 0x10000, 0, 0xFFFF_0000, 0, 0, 0, 0, 0x4000_0000]
        for (k, value) in values.enumerated() {
            for b in 0..<4 { bytes[matrix + k * 4 + b] = UInt8((value >> (24 - 8 * UInt32(b))) & 0xFF) }
        }
        try Data(bytes).write(to: destination)
    }

    /// A Filterz fMP4 rendition joined into one file (init.mp4 + fragments) starts at 10 s; libav states its
    /// duration as its end time (~12 s for 2 s of video), which once read as "truncated".
    @Test func aFragmentedMP4ThatStartsLateIsNotTakenForTruncated() throws {
        let folder = try TemporaryFolder()
        let recorded = folder.url.appendingPathComponent("recorded")
        let recording = runFilterz([
            "record", "--preset", "neutral", "--duration", "2", "--size", "320x180", "--format", "fmp4",
            "--ladder", "320x180@400k", "--segment-duration", "1", "--out", recorded.path,
        ])
        try #require(recording.code == 0, "\(recording.err)")
        let rendition = recorded.appendingPathComponent("180p")
        var joined = try Data(contentsOf: rendition.appendingPathComponent("init.mp4"))
        for index in 0..<2 { joined += try Data(contentsOf: rendition.appendingPathComponent("seg_0000\(index).m4s")) }
        let input = folder.url.appendingPathComponent("joined.mp4")
        try joined.write(to: input)
        let result = package(input.path, out: folder.url.appendingPathComponent("out"))
        #expect(result.code == 0, "\(result.err)")
    }

    @Test func videoWithoutAudioIsFine() throws {
        let folder = try TemporaryFolder()
        let clip = folder.url.appendingPathComponent("silent.mp4").path
        try ffmpeg(["-f", "lavfi", "-i", "testsrc2=s=320x180:r=25:d=1", "-c:v", "libx264", clip])
        let out = folder.url.appendingPathComponent("out")
        #expect(package(clip, out: out).code == 0)
        let master = try HLSLadderCheck(folder: out).master()
        #expect(master.variants.allSatisfy { $0.audio == nil && $0.codecList.count == 1 })
        try StreamGate.check(out)
    }

    struct BadInput: Sendable, CustomTestStringConvertible {
        var name: String
        var reason: String
        var testDescription: String { name }
    }

    @Test(arguments: [
        BadInput(name: "missing", reason: "no such file"),
        BadInput(name: "empty", reason: "the file is empty (0 bytes)"),
        BadInput(name: "text", reason: "not a video libav can read, or damaged"),
        BadInput(name: "truncated", reason: "not a video libav can read, or damaged"),
        BadInput(name: "truncated-faststart", reason: "damaged or truncated"),
        BadInput(name: "truncated-ts", reason: "damaged or truncated"),
        BadInput(name: "audio-only", reason: "no video stream"),
    ])
    func badInputIsOneClearLineAndLeavesTheEarlierPackage(_ bad: BadInput) throws {
        let folder = try TemporaryFolder()
        let input = folder.url.appendingPathComponent(bad.name + (bad.name == "truncated-ts" ? ".ts" : ".mp4"))
        switch bad.name {
        case "empty": try Data().write(to: input)
        case "text": try Data("this is not a video\n".utf8).write(to: input)
        case "truncated", "truncated-faststart":
            let whole = folder.url.appendingPathComponent("whole.mp4").path
            try ffmpeg(
                ["-f", "lavfi", "-i", "testsrc2=s=320x180:r=25:d=8", "-c:v", "libx264"]
                    + (bad.name == "truncated-faststart" ? ["-movflags", "+faststart"] : []) + [whole])
            let bytes = try Data(contentsOf: URL(fileURLWithPath: whole))
            try bytes.prefix(bytes.count / 3).write(to: input)
        case "truncated-ts":
            // MPEG-TS declares no duration: the cut shows only as a last picture with missing data.
            let whole = folder.url.appendingPathComponent("whole.ts").path
            try ffmpeg(["-f", "lavfi", "-i", "testsrc2=s=320x180:r=25:d=6", "-c:v", "libx264", whole])
            let bytes = try Data(contentsOf: URL(fileURLWithPath: whole))
            let cut = try #require(TransportStreamCut.offsetInsideAPicture(of: bytes, after: bytes.count / 3))
            try bytes.prefix(cut).write(to: input)
        case "audio-only":
            try ffmpeg(["-f", "lavfi", "-i", "sine=d=1", "-c:a", "aac", input.path])
        default: break
        }
        let out = folder.url.appendingPathComponent("out")
        // An earlier run's package stays exactly as it was.
        try FileManager.default.createDirectory(at: out, withIntermediateDirectories: true)
        try Data("#EXTM3U\n".utf8).write(to: out.appendingPathComponent("master.m3u8"))
        let result = package(input.path, out: out)
        #expect(result.code == ExitCode.failure)
        let lines = result.err.split(separator: "\n")
        #expect(lines.count == 1, "\(result.err)")
        #expect(result.err.hasPrefix("filterz package: error: \(input.path): \(bad.reason)"), "\(result.err)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: out.path) == ["master.m3u8"])
        #expect(try String(contentsOf: out.appendingPathComponent("master.m3u8"), encoding: .utf8) == "#EXTM3U\n")
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: folder.url.path).allSatisfy { !$0.contains("filterz-") }
        )
    }
}
