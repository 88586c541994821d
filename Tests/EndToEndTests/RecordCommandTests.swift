import FilterzTestSupport
import Foundation
import HLS
import RealClients
import Testing

@testable import CLIKit
@testable import FilterzCLI
@testable import Inspect
@testable import StreamAudit

/// `filterz record` end to end on a tiny ladder (320×180 + 160×90, 2–3 s) so CI stays quick.
@Suite(
    .serialized, .enabled(if: ExternalTool.isInstalled("ffprobe"), "needs ffprobe (make deps)"), .slow)
struct RecordCommandTests {
    static let smallLadder = ["--size", "320x180", "--ladder", "320x180@400k,160x90@150k"]

    func record(_ extra: [String], out: URL) -> (code: Int32, out: String, err: String) {
        runFilterz(["record", "--out", out.path] + Self.smallLadder + extra)
    }

    @Test func vodTransportStreamLadderPlaysEverywhere() throws {
        let folder = try TemporaryFolder()
        let out = folder.url.appendingPathComponent("neutral")
        let result = record(["--preset", "neutral", "--duration", "2.5", "--segment-duration", "1"], out: out)
        #expect(result.code == 0, "\(result.err)")
        #expect(result.out.contains("2 renditions, 3 segments"))
        #expect(result.err.isEmpty, "no progress line when not on a terminal")
        let check = HLSLadderCheck(folder: out)
        try check.checkFinishedLadder(
            resolutions: [(320, 180), (160, 90)], frameRate: 30, durationSeconds: 2.5, isFragmentedMP4: false)
        let media = try check.media("180p/index.m3u8")
        #expect(media.version == 3 && media.playlistType == .vod)
        #expect(media.segments.map(\.duration) == [1, 1, 0.5])
        let iFrames = try check.media("180p/iframes.m3u8")
        #expect(iFrames.iFramesOnly && iFrames.segments.allSatisfy { $0.byteRange?.offset == 0 })
        for name in ["poster.jpg", "filter.json"] {
            #expect(FileManager.default.fileExists(atPath: out.appendingPathComponent(name).path))
        }
        let poster = try Data(contentsOf: out.appendingPathComponent("poster.jpg"))
        #expect(poster.prefix(2) == Data([0xFF, 0xD8]))
        try StreamGate.check(out)
    }

    @Test func fragmentedMP4LadderUsesInitSegmentsAndMaps() throws {
        let folder = try TemporaryFolder()
        let out = folder.url.appendingPathComponent("fmp4")
        let result = record(
            ["--preset", "neutral", "--duration", "2", "--segment-duration", "1", "--format", "fmp4"], out: out)
        #expect(result.code == 0, "\(result.err)")
        let check = HLSLadderCheck(folder: out)
        try check.checkFinishedLadder(
            resolutions: [(320, 180), (160, 90)], frameRate: 30, durationSeconds: 2, isFragmentedMP4: true)
        let media = try check.media("180p/index.m3u8")
        #expect(media.version == 6)
        #expect(media.map(inEffectAt: 0)?.uri == "init.mp4")
        #expect(try check.master().version == 6)
        #expect(media.segments.allSatisfy { $0.uri.hasSuffix(".m4s") })
        try StreamGate.check(out)
    }

    /// CMAF: each fragment's earliest presentation time is its decode time (`tfdt`), so a player that places
    /// fragments by `tfdt` finds no gap before the first frame. Video uses signed composition offsets (`trun`
    /// version 1) and starts where the TS output's PTS start (10 s, then every segment duration), with audio.
    @Test func fragmentedMP4VideoIsPresentedFromEachFragmentsDecodeTime() throws {
        let folder = try TemporaryFolder()
        let out = folder.url.appendingPathComponent("cmaf")
        let result = record(
            ["--preset", "neutral", "--duration", "2", "--segment-duration", "1", "--format", "fmp4"], out: out)
        try #require(result.code == 0, "\(result.err)")
        var audioStarts: [Double] = []
        for track in ["180p", "90p", "audio"] {
            let timescale = try #require(
                MP4BoxWalker.initTracks([UInt8](try Data(contentsOf: out.appendingPathComponent("\(track)/init.mp4"))))
                    .first?.timescale)
            for index in 0..<2 {
                let segment = out.appendingPathComponent("\(track)/seg_0000\(index).m4s")
                let samples = MP4BoxWalker.fragmentSamples([UInt8](try Data(contentsOf: segment)))
                let start = try #require(samples.first?.decodingTime, "\(segment.path) has no samples")
                #expect(
                    samples.map(\.presentationTime).min() == start,
                    "\(track) \(index): presented from \(samples.map(\.presentationTime).min() ?? -1), tfdt \(start)")
                let seconds = Double(start) / Double(timescale)
                if track == "audio" {
                    audioStarts.append(seconds)
                } else {
                    #expect(samples.first?.compositionOffset == 0, "\(track) \(index): the keyframe's offset")
                    #expect(start == Int64(10 + index) * Int64(timescale), "\(track) \(index) starts at \(seconds) s")
                }
            }
        }
        // Audio starts with the video, within one AAC frame (1024 samples).
        #expect(audioStarts.count == 2 && zip(audioStarts, [10.0, 11.0]).allSatisfy { abs($0 - $1) < 1024 / 44_100 })
    }

    @Test func aRealPresetFiltersThePosterAndNamesTheSubtitles() throws {
        let folder = try TemporaryFolder()
        let out = folder.url.appendingPathComponent("warm")
        // Debug builds filter slowly: a short, small, low-rate recording.
        let result = runFilterz([
            "record", "--preset", "warm-film", "--duration", "1", "--fps", "10", "--size", "160x90",
            "--ladder", "160x90@150k", "--segment-duration", "1", "--out", out.path,
        ])
        #expect(result.code == 0, "\(result.err)")
        let filter = try String(contentsOf: out.appendingPathComponent("filter.json"), encoding: .utf8)
        #expect(filter.contains("\"warm-film\"") && filter.contains("\"temperature\" : 4800"))
        let cue = try String(contentsOf: out.appendingPathComponent("subs/en/seg_00000.vtt"), encoding: .utf8)
        #expect(cue.contains("Filter warm-film · recording 00:00"))
        let korean = try String(contentsOf: out.appendingPathComponent("subs/ko/seg_00000.vtt"), encoding: .utf8)
        #expect(korean.contains("필터 warm-film"))
        try StreamGate.check(out)
    }

    @Test func portraitOrientationGivesPortraitRenditions() throws {
        let folder = try TemporaryFolder()
        let out = folder.url.appendingPathComponent("portrait")
        let result = runFilterz([
            "record", "--preset", "neutral", "--duration", "1", "--size", "320x180", "--orientation", "portrait",
            "--segment-duration", "1", "--out", out.path,
        ])
        #expect(result.code == 0, "\(result.err)")
        let master = try HLSLadderCheck(folder: out).master()
        // The default ladder does not fit a 180×320 source: one portrait rendition at the source size.
        #expect(master.variants.map { $0.resolution?.description } == ["180x320"])
        try StreamGate.check(out)
    }

    @Test(arguments: [
        UsageCase(arguments: ["--preset", "neutral", "--ladder", "320x181@400k"], message: "even"),
        UsageCase(arguments: ["--preset", "neutral", "--format", "mkv"], message: "--format expects ts or fmp4"),
        UsageCase(arguments: ["--preset", "neutral", "--window", "3"], message: "--window needs --live"),
        UsageCase(arguments: ["--preset", "neutral", "--size", "huge"], message: "--size expects"),
        UsageCase(arguments: ["--preset", "neutral", "--orientation", "diagonal"], message: "--orientation expects"),
    ])
    func badOptionsAreUsageErrors(_ usage: UsageCase) throws {
        let folder = try TemporaryFolder()
        let result = runFilterz(["record", "--out", folder.url.appendingPathComponent("x").path] + usage.arguments)
        #expect(result.code == ExitCode.usage)
        #expect(result.err.contains(usage.message), "\(result.err)")
    }

    @Test func unknownPresetIsOneClearLine() throws {
        let folder = try TemporaryFolder()
        let result = runFilterz(["record", "--preset", "no-such-preset", "--out", folder.url.path])
        #expect(result.code == ExitCode.usage)
        let lines = result.err.split(separator: "\n")
        #expect(lines.count == 1)
        #expect(result.err.hasPrefix("filterz record: error: preset 'no-such-preset' not found"))
    }

    @Test func progressLineReadsLikeAStopwatch() {
        #expect(
            ProgressLine.text(frames: 120, totalFrames: 600, elapsedSeconds: 4, frameDurationSeconds: 1.0 / 30)
                == "frames 120/600  30.0 fps  1.00× real time  ETA 16 s")
    }
}
