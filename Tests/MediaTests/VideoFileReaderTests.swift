import FilterKit
import FilterzTestSupport
import Foundation
import RealClients
import Testing

@testable import Media

@Suite struct VideoFileReaderTests {
    /// A 3×2 RGBA frame whose red channel numbers the pixels 1…6 row by row.
    static let numbered: Frame = {
        let bytes: [UInt8] = (1...6).flatMap { [UInt8($0), 0, 0, 255] as [UInt8] }
        return Frame(
            format: .rgba, width: 3, height: 2,
            planes: [Frame.Plane(width: 3, height: 2, bytesPerRow: 12, bytes: bytes)])
    }()

    static func reds(_ frame: Frame) -> [UInt8] {
        stride(from: 0, to: frame.planes[0].bytes.count, by: 4).map { frame.planes[0].bytes[$0] }
    }

    @Test(arguments: [
        (90, 2, 3, [4, 1, 5, 2, 6, 3] as [UInt8]),
        (180, 3, 2, [6, 5, 4, 3, 2, 1] as [UInt8]),
        (270, 2, 3, [3, 6, 2, 5, 1, 4] as [UInt8]),
    ])
    func rotatesClockwiseByQuarterTurns(_ degrees: Int, _ width: Int, _ height: Int, _ expected: [UInt8]) {
        let turned = VideoFileReader.rotate(Self.numbered, clockwise: degrees)
        #expect(turned.width == width && turned.height == height)
        #expect(Self.reds(turned) == expected)
    }

    @Test func aMissingFileIsNamed() {
        #expect(throws: MediaInputError(path: "/no/such.mp4", reason: "no such file")) {
            try VideoFileReader(path: "/no/such.mp4")
        }
    }

    @Test(.enabled(if: ExternalTool.isInstalled("ffmpeg"))) func decodesEveryFrameWithItsTime() throws {
        let folder = try TemporaryFolder()
        let clip = folder.url.appendingPathComponent("clip.mp4").path
        let made = try ExternalTool.run(
            "ffmpeg", ["-v", "error", "-f", "lavfi", "-i", "testsrc2=s=64x48:r=10:d=1", "-c:v", "libx264", clip])
        try #require(made.exitCode == 0)
        let reader = try VideoFileReader(path: clip)
        #expect(reader.info.width == 64 && reader.info.height == 48 && reader.info.rotationDegrees == 0)
        #expect(reader.info.audio == nil)
        var times: [Double] = []
        while let item = try reader.next() {
            if case .video(let frame, let time) = item {
                #expect(frame.format == .rgba && frame.width == 64)
                times.append(time.seconds)
            }
        }
        #expect(times.count == 10)
        #expect(zip(times, times.dropFirst()).allSatisfy { abs($1 - $0 - 0.1) < 1e-6 })
    }
}
