import FilterKit
import FilterzTestSupport
import Foundation
import PhotoMetadata
import PhotoTestSupport
import RealClients
import Testing

@testable import Photos

/// Every EXIF orientation turned upright by the pipeline, against ImageMagick's `-auto-orient` on the same file: an
/// independent reading of the tag and of the pixels' geometry.
@Suite struct OrientationAgreementTests {
    static var canRun: Bool { ExifTool.isInstalled && ExternalTool.isInstalled("convert") }
    static let missing =
        "needs exiftool and ImageMagick's convert (make deps installs libimage-exiftool-perl and imagemagick)"

    @Test(.enabled(if: canRun, "\(missing)"), arguments: 1...8)
    func theUprightPixelsAreImageMagicksAutoOrient(_ orientation: Int) throws {
        let folder = try TemporaryFolder(prefix: "filterz-orient")
        let source = folder.url.appendingPathComponent("o\(orientation).jpg").path
        // An asymmetric picture: every turn and mirror of it is different.
        let stored = TestPhotos.frame(width: 60, height: 36, seed: 5)
        try Data(TestPhotos.encode(stored, as: .jpeg, quality: 100)).write(to: URL(fileURLWithPath: source))
        try ExifTool.write(["-IFD0:Orientation=\(orientation)"], to: source)
        let decoded = try PhotoReader.decode(
            try #require(FileManager.default.contents(atPath: source).map { [UInt8]($0) }))
        #expect(decoded.orientation.rawValue == orientation)
        let upright = decoded.orientation.apply(to: decoded.frame)
        let raw = folder.url.appendingPathComponent("im.rgba").path
        let convert = try ExternalTool.run("convert", [source, "-auto-orient", "-depth", "8", "rgba:\(raw)"])
        #expect(convert.exitCode == 0, "\(convert.stderr)")
        let reference = try #require(FileManager.default.contents(atPath: raw).map { [UInt8]($0) })
        let ours = upright.packedBytes()
        #expect(ours.count == reference.count, "sizes differ: \(upright.width)×\(upright.height)")
        guard ours.count == reference.count else { return }
        // Both decode with libjpeg-turbo; allow a code value or two for its decoder settings.
        var worst = 0
        for i in ours.indices where i % 4 != 3 { worst = max(worst, abs(Int(ours[i]) - Int(reference[i]))) }
        #expect(worst <= 2, "largest difference \(worst)")
    }
}
