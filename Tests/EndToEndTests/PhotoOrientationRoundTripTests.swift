import FilterKit
import FilterzTestSupport
import Foundation
import Parallel
import PhotoMetadata
import PhotoTestSupport
import RealClients
import Testing

@testable import FilterzCLI
@testable import Photos

/// Every EXIF orientation, from each kind of source to each output format, checked by construction: ImageMagick
/// turns an upright picture into the pixels a camera stores with that orientation, exiftool tags it, and the output
/// of `photo apply` must be the upright picture filtered (within the codecs' loss), with Orientation 1 and every
/// other tag kept. HEIF files turned by their own `irot`/`imir` properties come out upright too.
@Suite(.slow) struct PhotoOrientationRoundTripTests {
    static var canRun: Bool { ExifTool.isInstalled && ExternalTool.isInstalled("convert") }
    static let missing =
        "needs exiftool and ImageMagick's convert (make deps installs libimage-exiftool-perl and imagemagick)"
    static let heicEncoderMissing = "libheif has no HEVC encoder (x265) here"
    /// Whether libheif can write HEIC here (its x265 encoder).
    static let canWriteHEIC = (try? TestPhotos.encode(TestPhotos.frame(width: 8, height: 8), as: .heif)) != nil
    static let preset = "warm-film"

    /// The sources a camera or editor writes, as ImageMagick makes them from a PNG.
    enum Source: String, CaseIterable, Sendable {
        case baselineJPEG, progressiveJPEG, rgba16PNG

        var fileName: String { self == .rgba16PNG ? "stored.png" : "stored.jpg" }

        /// `convert` options after the picture's turn, and the output's format prefix.
        var convertOptions: (options: [String], prefix: String) {
            switch self {
            case .baselineJPEG: (["-quality", "95"], "")
            case .progressiveJPEG: (["-quality", "95", "-interlace", "JPEG"], "")
            case .rgba16PNG: (["-alpha", "set", "-depth", "16"], "PNG64:")
            }
        }
    }

    /// ImageMagick's operation from the upright picture to the pixels stored with `orientation`: the inverse of the
    /// turn a reader applies (5 and 7 are their own inverses; 6 and 8 are each other's).
    static func storing(_ orientation: Int) -> [String] {
        switch orientation {
        case 2: ["-flop"]
        case 3: ["-rotate", "180"]
        case 4: ["-flip"]
        case 5: ["-transpose"]
        case 6: ["-rotate", "270"]
        case 7: ["-transverse"]
        case 8: ["-rotate", "90"]
        default: []
        }
    }

    static func bytes(_ path: String) throws -> [UInt8] {
        try #require(FileManager.default.contents(atPath: path).map { [UInt8]($0) }, "\(path) missing")
    }

    /// Checks that `decoded` is `expected` within a lossy codec's difference on this small, noisy picture (HEIC at
    /// the default quality differs by about 6.5 code values on average), and at least twice as close to it as to
    /// its mirror images and half turn, which a wrong turn would give.
    static func expectUpright(_ decoded: Frame, _ expected: Frame, _ label: String) {
        #expect((decoded.width, decoded.height) == (expected.width, expected.height), "\(label): size")
        guard (decoded.width, decoded.height) == (expected.width, expected.height) else { return }
        let difference = TestPhotos.meanDifference(decoded, expected)
        #expect(difference < 8, "\(label): mean difference \(difference) from the upright picture")
        for wrong in [ImageOrientation.mirrored, .rotated180, .mirroredVertically] {
            let other = TestPhotos.meanDifference(decoded, wrong.apply(to: expected))
            #expect(difference * 2 < other, "\(label): \(difference) from upright, \(other) from \(wrong)")
        }
    }

    /// The upright picture, written as a PNG in `folder`, turned by ImageMagick into what `orientation` stores.
    static func storedPicture(_ upright: Frame, orientation: Int, as source: Source, in folder: URL) throws -> String {
        let uprightPath = folder.appendingPathComponent("upright.png").path
        try Data(TestPhotos.encode(upright, as: .png)).write(to: URL(fileURLWithPath: uprightPath))
        let stored = folder.appendingPathComponent(source.fileName).path
        let (options, prefix) = source.convertOptions
        let convert = try ExternalTool.run(
            "convert", [uprightPath] + storing(orientation) + options + [prefix + stored])
        #expect(convert.exitCode == 0, "\(convert.stderr)")
        return stored
    }

    /// `photo apply` on `stored` to `format`: the output's pixels against the upright picture filtered, and its
    /// metadata against the source's, tag by tag.
    static func checkOutput(
        of stored: String, as format: PhotoFormat, expected: Frame, in folder: URL, _ label: String
    ) throws {
        let output = folder.appendingPathComponent("out.\(format.fileExtension)").path
        let result = runFilterz(
            ["photo", "apply", stored, "--preset", preset, "-o", output], environment: samplePresets)
        #expect(result.code == 0, "\(label): \(result.err)")
        let decoded = try PhotoReader.decode(bytes(output))
        #expect(decoded.format == format)
        expectUpright(decoded.frame, expected, label)
        #expect(decoded.metadata.exif?.orientation == 1, "\(label)")
        let differences = MetadataComparison.differences(
            source: try ExifTool.tags(of: stored), output: try ExifTool.tags(of: output), width: expected.width,
            height: expected.height)
        #expect(differences.isEmpty, "\(label): \(differences.joined(separator: "\n"))")
    }

    @Test(.enabled(if: canRun, "\(missing)"), arguments: Array(1...8), Source.allCases)
    func everyOrientationComesOutUprightInEveryFormat(_ orientation: Int, _ source: Source) throws {
        let folder = try TemporaryFolder(prefix: "filterz-orient")
        let upright = TestPhotos.frame(width: 48, height: 32, seed: 9)
        let stored = try Self.storedPicture(upright, orientation: orientation, as: source, in: folder.url)
        try ExifTool.write(TestPhotos.cameraTags(orientation: orientation), to: stored)
        let values = try PresetLocator(environment: samplePresets).load(Self.preset).values
        let expected = FilterRenderer(values: values, threads: .callingThread).renderImage(upright)
        let formats: [PhotoFormat] = Self.canWriteHEIC ? [.jpeg, .png, .heif] : [.jpeg, .png]
        for format in formats {
            try Self.checkOutput(
                of: stored, as: format, expected: expected, in: folder.url, "\(source) \(orientation) → \(format)")
        }
    }

    /// A HEIF file stores its picture turned and says so with `irot`/`imir` (written here by libheif from an
    /// orientation): the decoded pixels, `photo info`'s size and `photo apply`'s output are upright.
    @Test(
        .enabled(if: canRun, "\(missing)"), .enabled(if: canWriteHEIC, "\(heicEncoderMissing)"),
        arguments: Array(2...8))
    func heifTransformationsAreAppliedOnReading(_ orientation: Int) throws {
        let folder = try TemporaryFolder(prefix: "filterz-orient")
        let upright = TestPhotos.frame(width: 48, height: 32, seed: 9)
        let storedPNG = try Self.storedPicture(upright, orientation: orientation, as: .rgba16PNG, in: folder.url)
        let stored = try PhotoReader.decode(Self.bytes(storedPNG)).frame
        let heic = try HEIFCodec.encode(
            stored, metadata: CarriedMetadata(), quality: 95,
            storedOrientation: try #require(ImageOrientation(exifValue: orientation))
        ).bytes
        let path = folder.url.appendingPathComponent("turned.heic").path
        try Data(heic).write(to: URL(fileURLWithPath: path))
        Self.expectUpright(try PhotoReader.decode(heic).frame, upright, "decoded")
        let info = runFilterz(["photo", "info", path])
        #expect(PhotoInfoCommandTests.row("Pixels", in: info.out) == "48 × 32", "\(info.out)")
        let values = try PresetLocator(environment: samplePresets).load(Self.preset).values
        let expected = FilterRenderer(values: values, threads: .callingThread).renderImage(upright)
        for format in [PhotoFormat.jpeg, .png] {
            let output = folder.url.appendingPathComponent("out.\(format.fileExtension)").path
            let result = runFilterz(
                ["photo", "apply", path, "--preset", Self.preset, "-o", output], environment: samplePresets)
            #expect(result.code == 0, "\(result.err)")
            Self.expectUpright(try PhotoReader.decode(Self.bytes(output)).frame, expected, "\(format)")
        }
    }
}
