import FilterKit
import Foundation
import Packaging
import RealClients
import Testing

@testable import Recording

/// A source of the test's own, which the recording knows only through `RecordingSource`: what a network source or
/// a capture device would be.
@Suite(.serialized) struct RecordingSourceTests {
    /// `count` grey frames of 64×36 at 10 fps, no audio, counting how often it was pulled.
    final class GreyFrames: RecordingSource {
        let format: SourceFormat
        let count: Int
        private(set) var pulled = 0

        init(count: Int) {
            self.count = count
            format = SourceFormat(
                width: 64, height: 36, frameDuration: Timestamp(1, timescale: 10), timescale: 10, audio: nil,
                expectedFrames: count)
        }

        func next() throws -> SourceFrame? {
            guard pulled < count else { return nil }
            defer { pulled += 1 }
            var frame = Frame(rgbaWidth: format.width, height: format.height)
            frame.planes[0].bytes = [UInt8](repeating: 128, count: frame.planes[0].bytes.count)
            return SourceFrame(frame: frame, time: Timestamp(Int64(pulled), timescale: 10), audio: [])
        }
    }

    static func settings(out: String) -> Recording.Settings {
        Recording.Settings(
            preset: Preset(name: "neutral", values: .neutral), outputFolder: out,
            ladder: Ladder([LadderRung(width: 64, height: 36, bitsPerSecond: 100_000)]), segmentDuration: .seconds(1),
            container: .mpegTS, mode: .vod, x264Preset: "ultrafast", keys: nil)
    }

    @Test func aSourceOfItsOwnIsRecordedToTheEnd() throws {
        let folder = try TemporaryFolder()
        let out = folder.url.appendingPathComponent("grey").path
        let source = GreyFrames(count: 25)
        var progress: [Int] = []
        let summary = try Recording(Self.settings(out: out), source: source).run { event in
            if case .progress(let frames, _) = event { progress.append(frames) }
        }
        #expect(source.pulled == 25)
        #expect(progress == Array(1...25))
        #expect(summary.ladder.segmentCount == 3)
        #expect(summary.ladder.duration == .seconds(2) + Timestamp(5, timescale: 10))
        let files = try FileManager.default.contentsOfDirectory(atPath: out).sorted()
        #expect(files == ["36p", "filter.json", "master.m3u8", "poster.jpg", "subs"])
        let media = try String(contentsOfFile: out + "/36p/index.m3u8", encoding: .utf8)
        #expect(media.contains("seg_00002.ts") && media.contains("#EXT-X-ENDLIST"))
    }

    @Test func aSourceWithNoFramesFailsAndLeavesNothing() throws {
        let folder = try TemporaryFolder()
        let out = folder.url.appendingPathComponent("empty").path
        #expect(throws: RecordingError.failed("no frames to encode")) {
            try Recording(Self.settings(out: out), source: GreyFrames(count: 0)).run()
        }
        #expect(!FileManager.default.fileExists(atPath: out))
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.url.path).isEmpty, "no staging folder left")
    }
}
