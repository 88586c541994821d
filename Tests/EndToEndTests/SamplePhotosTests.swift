import FilterzTestSupport
import Foundation
import PhotoMetadata
import Photos
import RealClients
import Testing

@testable import CLIKit
@testable import FilterzCLI
@testable import Inspect

/// The sample photos in SampleMedia/photos (made by scripts/make-sample-photos.sh): each reads without a warning,
/// shows a camera's details, and filters to a photo that reads back upright with Orientation 1.
@Suite struct SamplePhotosTests {
    static let folder = SharedData.sampleMedia.appendingPathComponent("photos")
    static let names = ((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []).sorted()

    @Test func theSamplesAreThere() {
        #expect(Self.names == ["alpha.png", "camera.heic", "portrait-orientation-6.jpg", "progressive.jpg"])
    }

    @Test(arguments: names)
    func eachSampleShowsItsDetailsAndFilters(_ name: String) throws {
        let path = Self.folder.appendingPathComponent(name).path
        let info = runFilterz(["photo", "info", path])
        #expect(info.code == 0 && info.err.isEmpty, "\(info.err)")
        #expect(PhotoInfoCommandTests.row("Camera", in: info.out) == "Filterz Sample Camera")
        #expect(PhotoInfoCommandTests.row("Shutter speed", in: info.out) == "1/120 s")
        let temporary = try TemporaryFolder(prefix: "filterz-samples")
        let output = temporary.url.appendingPathComponent("out.png").path
        let applied = PhotoApplyCommandTests.run(["photo", "apply", path, "--preset", "dreamy", "-o", output])
        #expect(applied.code == 0, "\(applied.err)")
        let photo = try PhotoReader.decode(
            try #require(FileManager.default.contents(atPath: output).map { [UInt8]($0) }))
        #expect(photo.metadata.exif?.orientation == 1)
        let portrait = name.contains("orientation-6")
        #expect((photo.frame.width < photo.frame.height) == portrait)
        if name == "alpha.png" {
            let alphas = Set(
                stride(from: 3, to: photo.frame.planes[0].bytes.count, by: 4).map { photo.frame.planes[0].bytes[$0] })
            #expect(alphas.count > 10, "the alpha channel is kept")
        }
    }
}
