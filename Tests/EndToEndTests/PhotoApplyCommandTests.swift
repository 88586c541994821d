import FilterKit
import FilterzTestSupport
import Foundation
import Media
import Parallel
import PhotoMetadata
import PhotoTestSupport
import Photos
import RealClients
import Testing

@testable import CLIKit
@testable import FilterzCLI
@testable import Inspect
@testable import Recording

/// `filterz photo apply` end to end, in process: upright pixels, every tag kept (exiftool reads both files), the
/// same bytes as the video path, batches with bad files among good ones, nothing half-written.
@Suite(.slow) struct PhotoApplyCommandTests {
    static func run(_ arguments: [String]) -> (code: Int32, out: String, err: String) {
        runFilterz(arguments, environment: samplePresets)
    }

    static func bytes(_ path: String) throws -> [UInt8] {
        try #require(FileManager.default.contents(atPath: path).map { [UInt8]($0) }, "\(path) missing")
    }

    struct FormatCase: Sendable, CustomTestStringConvertible {
        var input: String
        var output: String
        var orientation: Int
        var testDescription: String { "\(input) → \(output), orientation \(orientation)" }
    }

    /// Every orientation from JPEG to JPEG, and the other ways between formats on a few.
    static let formatCases: [FormatCase] =
        (1...8).map { FormatCase(input: "jpg", output: "jpg", orientation: $0) } + [
            FormatCase(input: "jpg", output: "png", orientation: 6),
            FormatCase(input: "png", output: "jpg", orientation: 8),
            FormatCase(input: "png", output: "png", orientation: 3),
            FormatCase(input: "png", output: "png", orientation: 5),
            FormatCase(input: "heic", output: "jpg", orientation: 1),
            FormatCase(input: "jpg", output: "heic", orientation: 7),
        ]

    @Test(.enabled(if: ExifTool.isInstalled, "\(ExifTool.missing)"), arguments: formatCases)
    func everyTagSurvivesAndThePixelsAreUpright(_ c: FormatCase) throws {
        let folder = try TemporaryFolder(prefix: "filterz-photo")
        let source = folder.url.appendingPathComponent("source.\(c.input)").path
        let output = folder.url.appendingPathComponent("filtered.\(c.output)").path
        let (width, height) = (48, 32)
        try TestPhotos.writeCameraPhoto(
            TestPhotos.frame(width: width, height: height), to: source, orientation: c.orientation)
        let result = Self.run(["photo", "apply", source, "--preset", "warm-film", "-o", output])
        #expect(result.code == 0, "\(result.err)")
        // HEIF readers turn the picture with the container's own transformations, never with EXIF.
        let swaps = c.input != "heic" && c.orientation >= 5
        let (outWidth, outHeight) = swaps ? (height, width) : (width, height)
        #expect(result.out.contains("-> \(output): \(outWidth)x\(outHeight)"), "\(result.out)")
        let decoded = try PhotoReader.decode(Self.bytes(output))
        #expect((decoded.frame.width, decoded.frame.height) == (outWidth, outHeight))
        #expect(decoded.metadata.exif?.orientation == 1)
        let differences = MetadataComparison.differences(
            source: try ExifTool.tags(of: source), output: try ExifTool.tags(of: output), width: outWidth,
            height: outHeight)
        #expect(differences.isEmpty, "\(differences.joined(separator: "\n"))")
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: folder.url.path).sorted() == [
                "filtered.\(c.output)", "source.\(c.input)",
            ])
    }

    /// Source and output extensions: JPEG to each format, and PNG and HEIC to JPEG.
    static let formatPairs = [("jpg", "jpg"), ("jpg", "png"), ("png", "jpg"), ("heic", "jpg"), ("jpg", "heic")]

    /// The ICC profile reaches the output byte for byte, in APP2 chunks (JPEG, here more than one), iCCP (PNG) or
    /// the colour box (HEIF), and exiftool reads the same profile tags in both files.
    @Test(.enabled(if: ExifTool.isInstalled, "\(ExifTool.missing)"), arguments: formatPairs)
    func theICCProfileIsCarriedWhole(_ formats: (String, String)) throws {
        let folder = try TemporaryFolder(prefix: "filterz-photo")
        let source = folder.url.appendingPathComponent("icc.\(formats.0)").path
        let output = folder.url.appendingPathComponent("out.\(formats.1)").path
        let profile = TestICCProfile.make(name: "Filterz wide RGB", padding: 100_000)
        try TestPhotos.writeCameraPhoto(
            TestPhotos.frame(width: 32, height: 24), to: source, orientation: 1, iccProfile: profile)
        let result = Self.run(["photo", "apply", source, "--preset", "crisp", "-o", output])
        #expect(result.code == 0, "\(result.err)")
        #expect(try PhotoReader.decode(Self.bytes(output)).metadata.iccProfile == profile)
        let sourceTags = try ExifTool.tags(of: source), outputTags = try ExifTool.tags(of: output)
        #expect(sourceTags["ICC_Profile:ProfileDescription"] == "Filterz wide RGB")
        let differences = MetadataComparison.differences(source: sourceTags, output: outputTags, width: 32, height: 24)
        #expect(differences.isEmpty, "\(differences.joined(separator: "\n"))")
        let info = runFilterz(["photo", "info", output])
        #expect(PhotoInfoCommandTests.row("Colour profile", in: info.out) == "Filterz wide RGB")
    }

    /// The test photos carry an EXIF thumbnail and a MakerNote. As docs/PHOTOS.md says, the thumbnail (IFD1 and its
    /// JPEG) is dropped, since it shows the unfiltered picture in its old orientation, and the MakerNote is kept byte
    /// for byte at its offset from the TIFF header, where exiftool reads the same maker tags.
    @Test(.enabled(if: ExifTool.isInstalled, "\(ExifTool.missing)"), arguments: formatPairs)
    func theMakerNoteKeepsItsOffsetAndTheThumbnailIsDropped(_ formats: (String, String)) throws {
        let folder = try TemporaryFolder(prefix: "filterz-photo")
        let source = folder.url.appendingPathComponent("camera.\(formats.0)").path
        let output = folder.url.appendingPathComponent("out.\(formats.1)").path
        try TestPhotos.writeCameraPhoto(TestPhotos.frame(width: 40, height: 30), to: source, orientation: 1)
        let result = Self.run(["photo", "apply", source, "--preset", "noir", "-o", output])
        #expect(result.code == 0, "\(result.err)")
        let before = try #require(try PhotoReader.decode(Self.bytes(source)).metadata.exif)
        let after = try #require(try PhotoReader.decode(Self.bytes(output)).metadata.exif)
        #expect(before.thumbnail?.starts(with: [0xFF, 0xD8]) == true, "the source has a JPEG thumbnail")
        #expect(after.ifd1 == nil && after.thumbnail == nil)
        #expect(before.makerNote?.bytes == TestPhotos.makerNote)
        #expect(after.makerNote?.bytes == TestPhotos.makerNote)
        #expect(after.makerNote?.sourceOffset == before.makerNote?.sourceOffset)
        let sourceTags = try ExifTool.tags(of: source), outputTags = try ExifTool.tags(of: output)
        #expect(sourceTags["IFD1:ThumbnailLength"] != nil)
        #expect(!outputTags.keys.contains { $0.hasPrefix("IFD1:") }, "\(outputTags.keys.sorted())")
        func makerTags(_ path: String) throws -> String {
            try ExternalTool.run("exiftool", ["-u", "-n", "-G1", "-s", "-MakerUnknown:all", path]).stdout
        }
        let makerBefore = try makerTags(source)
        #expect(makerBefore.contains("Unknown_0x0002") && makerBefore.contains("123456"), "\(makerBefore)")
        #expect(try makerTags(output) == makerBefore)
    }

    /// The promise of "one pipeline": a camera frame saved as PNG and filtered by `photo apply` has the bytes of
    /// the same frame filtered as `record` filters its frames (one thread, into a ring of frame buffers).
    @Test(arguments: ["warm-film", "noir", "dreamy"])
    func aPNGOfACameraFrameComesOutAsTheVideoPathRendersIt(_ preset: String) throws {
        let folder = try TemporaryFolder(prefix: "filterz-photo")
        let frame = SimulatedCamera(.init(width: 640, height: 360, durationSeconds: 2, seed: 4)).frame(atSeconds: 1)
            .image
        let source = folder.url.appendingPathComponent("frame.png").path
        // libavcodec's encoder, as preview writes PNGs.
        try Data(PNGEncoder.png(from: frame)).write(to: URL(fileURLWithPath: source))
        let output = folder.url.appendingPathComponent("filtered.png").path
        let result = Self.run(["photo", "apply", source, "--preset", preset, "-o", output])
        #expect(result.code == 0, "\(result.err)")
        let values = try PresetLocator(environment: samplePresets).load(preset).values
        let video = FrameRing(count: 6, width: 640, height: 360).render(
            frame, with: FilterRenderer(values: values, threads: .callingThread))
        let photo = try PhotoReader.decode(Self.bytes(output)).frame
        let same = photo.packedBytes() == video.packedBytes()
        #expect(same, "photo apply and the video path give different bytes")
    }

    @Test func aBatchGoesOnPastBadFilesAndLeavesNothingHalfWritten() throws {
        let folder = try TemporaryFolder(prefix: "filterz-photo")
        func path(_ name: String) -> String { folder.url.appendingPathComponent(name).path }
        var inputs: [String] = []
        for index in 0..<4 {
            let name = path("good\(index).\(index == 3 ? "png" : "jpg")")
            try Data(
                TestPhotos.encode(
                    TestPhotos.frame(width: 40, height: 30, seed: UInt64(index)), as: index == 3 ? .png : .jpeg)
            )
            .write(to: URL(fileURLWithPath: name))
            inputs.append(name)
        }
        try Data("not a photo at all".utf8).write(to: URL(fileURLWithPath: path("text.jpg")))
        var truncated = try TestPhotos.encode(TestPhotos.frame(width: 40, height: 30), as: .jpeg)
        truncated.removeLast(truncated.count / 4)
        try Data(truncated).write(to: URL(fileURLWithPath: path("truncated.jpg")))
        let out = path("out"), kept = path("originals")
        let result = Self.run(
            ["photo", "apply"] + inputs + [
                path("text.jpg"), path("truncated.jpg"), "--preset", "noir",
                "--out-dir", out, "--keep-original", kept,
            ])
        #expect(result.code == 1, "\(result.err)")
        #expect(result.err.contains("text.jpg: error: not a JPEG, PNG or HEIC/HEIF photo"), "\(result.err)")
        #expect(
            result.out.contains("photo apply: 5 of 6 photos written to \(out) with 'noir' (1 failed)"), "\(result.out)")
        // libjpeg decodes what is there of a cut-off file and says so.
        #expect(result.err.contains("truncated.jpg: warning:"), "\(result.err)")
        let written = try FileManager.default.contentsOfDirectory(atPath: out).sorted()
        #expect(written == ["good0.jpg", "good1.jpg", "good2.jpg", "good3.png", "truncated.jpg"])
        for input in inputs {
            let name = (input as NSString).lastPathComponent
            #expect(
                try Self.bytes((kept as NSString).appendingPathComponent(name)) == Self.bytes(input),
                "\(name) kept byte for byte")
        }
        let leftovers =
            try FileManager.default.contentsOfDirectory(atPath: out)
            + FileManager.default.contentsOfDirectory(atPath: kept)
        #expect(!leftovers.contains { $0.hasSuffix(".tmp") })
    }

    /// Many photos on all cores: each output is its own input filtered (told apart by their sizes), whole and
    /// decodable; a bad input and an output that cannot be put in place are each one line naming the file, exit 1,
    /// and no temporary or partial file is left.
    @Test func aBatchOnAllCoresWritesEveryGoodPhotoWholeAndNothingElse() throws {
        let folder = try TemporaryFolder(prefix: "filterz-photo")
        func path(_ name: String) -> String { folder.url.appendingPathComponent(name).path }
        let count = 16
        var inputs: [String] = []
        for index in 0..<count {
            let name = path("p\(index).\(index % 4 == 3 ? "png" : "jpg")")
            let frame = TestPhotos.frame(width: 20 + index, height: 12 + index % 5, seed: UInt64(index))
            try Data(TestPhotos.encode(frame, as: index % 4 == 3 ? .png : .jpeg)).write(to: URL(fileURLWithPath: name))
            inputs.append(name)
        }
        // A JPEG without its frame header, in the middle of the batch.
        try Data(TestPhotos.jpegWithoutFrameHeader()).write(to: URL(fileURLWithPath: path("bad.jpg")))
        inputs.insert(path("bad.jpg"), at: count / 2)
        // An output whose name is taken by a folder: encoded, written to a temporary name, and not renamed.
        let out = path("out")
        try FileManager.default.createDirectory(
            atPath: (out as NSString).appendingPathComponent("p5.jpg"), withIntermediateDirectories: true)
        let result = Self.run(["photo", "apply"] + inputs + ["--preset", "warm-film", "--out-dir", out])
        #expect(result.code == 1, "\(result.err)")
        let errors = result.err.split(separator: "\n").map(String.init).sorted()
        #expect(errors.count == 2, "\(result.err)")
        #expect(errors.first?.hasPrefix("\(path("bad.jpg")): error: not a complete JPEG") == true, "\(result.err)")
        #expect(errors.last?.hasPrefix("\(path("p5.jpg")): error: cannot write \(out)/p5.jpg") == true, "\(result.err)")
        #expect(result.out.contains("photo apply: 15 of 17 photos written to \(out) with 'warm-film' (2 failed)"))
        let expected = (0..<count).map { "p\($0).\($0 % 4 == 3 ? "png" : "jpg")" }.sorted()
        #expect(try FileManager.default.contentsOfDirectory(atPath: out).sorted() == expected)
        #expect(try FileManager.default.contentsOfDirectory(atPath: path("out/p5.jpg")).isEmpty)
        for index in 0..<count where index != 5 {
            let name = "p\(index).\(index % 4 == 3 ? "png" : "jpg")"
            let output = "\(out)/\(name)"
            let decoded = try PhotoReader.decode(Self.bytes(output))
            #expect((decoded.frame.width, decoded.frame.height) == (20 + index, 12 + index % 5), "\(name)")
            #expect(decoded.format == (index % 4 == 3 ? .png : .jpeg), "\(name)")
            #expect(result.out.contains("\(inputs[index < count / 2 ? index : index + 1]) -> \(output): "), "\(name)")
        }
    }

    @Test func aBatchDrawsItsProgressOnATerminalOnly() throws {
        let folder = try TemporaryFolder(prefix: "filterz-photo")
        let inputs = try (0..<3).map { index -> String in
            let path = folder.url.appendingPathComponent("p\(index).jpg").path
            try Data(TestPhotos.encode(TestPhotos.frame(width: 16, height: 16, seed: UInt64(index)), as: .jpeg)).write(
                to: URL(fileURLWithPath: path))
            return path
        }
        let arguments =
            ["photo", "apply"] + inputs + [
                "--preset", "noir", "--out-dir", folder.url.appendingPathComponent("out").path,
            ]
        let terminal = runFilterz(arguments, environment: samplePresets, stderrIsTerminal: true)
        #expect(terminal.code == 0)
        #expect(terminal.err.contains("photo apply: 1/3 photos"), "\(terminal.err)")
        #expect(terminal.err.contains("photo apply: 2/3 photos"))
        #expect(terminal.err.hasSuffix("\r\u{1B}[K"), "the progress line is cleared at the end")
        #expect(terminal.out.split(separator: "\n").count == 4, "three photos and the summary: \(terminal.out)")
        let plain = Self.run(arguments)
        #expect(plain.code == 0 && plain.err.isEmpty, "no progress drawn off a terminal: \(plain.err)")
    }

    /// `--quality` reaches libjpeg-turbo: ImageMagick's estimate of each output's quality (from its quantisation
    /// tables) is the quality asked for.
    @Test(
        .enabled(
            if: ExternalTool.isInstalled("identify"), "needs ImageMagick's identify (make deps installs imagemagick)"),
        arguments: [60, 95])
    func theOutputsJPEGQualityIsTheOneAskedFor(_ quality: Int) throws {
        let folder = try TemporaryFolder(prefix: "filterz-photo")
        let source = folder.url.appendingPathComponent("source.png").path
        try Data(TestPhotos.encode(TestPhotos.frame(width: 64, height: 48), as: .png)).write(
            to: URL(fileURLWithPath: source))
        let output = folder.url.appendingPathComponent("q\(quality).jpg").path
        let result = Self.run(["photo", "apply", source, "--preset", "noir", "-o", output, "--quality", "\(quality)"])
        #expect(result.code == 0, "\(result.err)")
        let identify = try ExternalTool.run("identify", ["-format", "%Q", output])
        #expect(identify.exitCode == 0, "\(identify.stderr)")
        let estimate = try #require(Int(identify.stdout.trimmingCharacters(in: .whitespacesAndNewlines)))
        #expect(abs(estimate - quality) <= 1, "ImageMagick estimates quality \(estimate)")
    }

    @Test func aMissingInputIsUnreadableAndACMYKJPEGIsRefused() throws {
        let folder = try TemporaryFolder(prefix: "filterz-photo")
        let missing = Self.run([
            "photo", "apply", folder.url.appendingPathComponent("nope.jpg").path, "--preset", "noir",
            "-o", folder.url.appendingPathComponent("x.jpg").path,
        ])
        #expect(missing.code == 2)
        #expect(missing.err.contains("nope.jpg: error: no such file"))
        guard ExternalTool.isInstalled("convert") else {
            Issue.record(
                "ImageMagick's convert is not installed (make deps installs imagemagick); the CMYK case is not checked")
            return
        }
        let cmyk = folder.url.appendingPathComponent("cmyk.jpg").path
        #expect(
            try ExternalTool.run("convert", ["-size", "16x16", "xc:orange", "-colorspace", "CMYK", cmyk]).exitCode == 0)
        let refused = Self.run([
            "photo", "apply", cmyk, "--preset", "noir", "-o", folder.url.appendingPathComponent("x.jpg").path,
        ])
        #expect(refused.code == 1)
        #expect(refused.err.contains("cmyk.jpg: error: CMYK JPEG is not supported"), "\(refused.err)")
    }

    /// The attack run's bomb: a small JPEG whose header claims 14,000 × 14,000 pixels (196 MP) is refused before
    /// it is decoded (exit 1, nothing written), naming the file, its claimed size and the option that raises the
    /// limit; over the memory limit the same, naming that option; a real photo over a lowered --max-megapixels is
    /// refused and goes through once the limit is raised.
    @Test func aPhotoClaimingMoreThanTheLimitsIsRefusedNamingTheOptionToRaiseThem() throws {
        let folder = try TemporaryFolder(prefix: "filterz-photo")
        func path(_ name: String) -> String { folder.url.appendingPathComponent(name).path }
        let bomb = try ClaimedSize.photo(.jpeg, claimingWidth: 14_000, height: 14_000)
        try Data(bomb).write(to: URL(fileURLWithPath: path("bomb.jpg")))
        let refused = Self.run(["photo", "apply", path("bomb.jpg"), "--preset", "noir", "-o", path("out.jpg")])
        #expect(refused.code == 1)
        #expect(
            refused.err.contains(
                "bomb.jpg: error: its header claims 14000×14000 pixels (196 MP), more than the limit of 128 MP; "
                    + "not decoded (raise the limit with --max-megapixels)"), "\(refused.err)")
        #expect(!FileManager.default.fileExists(atPath: path("out.jpg")))
        let memory = Self.run([
            "photo", "apply", path("bomb.jpg"), "--preset", "noir", "-o", path("out.jpg"), "--max-megapixels", "200",
            "--memory-limit", "1000",
        ])
        #expect(memory.code == 1)
        #expect(
            memory.err.contains(
                "more than the memory limit of 1.0 GB; not decoded (raise the limit with --memory-limit)"),
            "\(memory.err)")
        try Data(TestPhotos.encode(TestPhotos.frame(width: 1200, height: 1000), as: .jpeg))
            .write(to: URL(fileURLWithPath: path("photo.jpg")))
        let lowered = Self.run([
            "photo", "apply", path("photo.jpg"), "--preset", "noir", "-o", path("out.jpg"), "--max-megapixels", "1",
        ])
        #expect(lowered.code == 1)
        #expect(lowered.err.contains("1200×1000 pixels (1.2 MP), more than the limit of 1 MP"), "\(lowered.err)")
        let raised = Self.run([
            "photo", "apply", path("photo.jpg"), "--preset", "noir", "-o", path("out.jpg"), "--max-megapixels", "2",
        ])
        #expect(raised.code == 0, "\(raised.err)")
        #expect(try PhotoReader.decode(Self.bytes(path("out.jpg"))).frame.width == 1200)
    }

    /// The photos of a batch wait for their share of --memory-limit: however many workers ask at once, the
    /// memory held together never passes the budget, and each gets its share in the end.
    @Test func theBatchsMemoryBudgetHoldsPhotosBackUntilTheirShareIsFree() {
        let budget = PhotoBatch.MemoryBudget(bytes: 10)
        let lock = NSLock()
        nonisolated(unsafe) var held = 0, peak = 0, served = 0
        DispatchQueue.concurrentPerform(iterations: 24) { index in
            let share = [3, 7, 10, 5, 1][index % 5]
            budget.reserve(share)
            lock.withLock {
                held += share
                peak = max(peak, held)
            }
            usleep(1_000)
            lock.withLock {
                held -= share
                served += 1
            }
            budget.release(share)
        }
        #expect(peak <= 10 && peak > 0)
        #expect(served == 24)
    }

    /// `photo apply` writes each file through an exclusive, unpredictable temporary name: a symbolic link planted
    /// at the name it used to use (`.NAME.tmp`, in the output folder and the --keep-original folder) is left as
    /// it is, and so is the file it points to.
    @Test func aLinkPlantedAtTheOldTemporaryNameIsNotWrittenThrough() throws {
        let folder = try TemporaryFolder(prefix: "filterz-photo")
        func path(_ name: String) -> String { folder.url.appendingPathComponent(name).path }
        try Data(TestPhotos.encode(TestPhotos.frame(width: 40, height: 30), as: .jpeg))
            .write(to: URL(fileURLWithPath: path("a.jpg")))
        try Data("precious\n".utf8).write(to: URL(fileURLWithPath: path("victim.txt")))
        for planted in ["out", "originals"] {
            try FileManager.default.createDirectory(atPath: path(planted), withIntermediateDirectories: true)
            try FileManager.default.createSymbolicLink(
                atPath: path("\(planted)/.a.jpg.tmp"), withDestinationPath: path("victim.txt"))
        }
        let result = Self.run([
            "photo", "apply", path("a.jpg"), "--preset", "noir", "--out-dir", path("out"),
            "--keep-original", path("originals"),
        ])
        #expect(result.code == 0, "\(result.err)")
        #expect(try Self.bytes(path("victim.txt")) == Array("precious\n".utf8), "the link's target was written")
        for written in ["out/a.jpg", "originals/a.jpg"] {
            let attributes = try FileManager.default.attributesOfItem(atPath: path(written))
            #expect(attributes[.type] as? FileAttributeType == .typeRegular, "\(written)")
        }
        #expect(try Self.bytes(path("originals/a.jpg")) == Self.bytes(path("a.jpg")))
        #expect(try PhotoReader.decode(Self.bytes(path("out/a.jpg"))).frame.width == 40)
    }

    static let usageCases: [UsageCase] = [
        .init(arguments: ["photo", "apply", "a.jpg", "-o", "b.jpg"], message: "missing option --preset"),
        .init(
            arguments: ["photo", "apply", "a.jpg", "--preset", "noir"],
            message: "give -o/--output (one input) or --out-dir"),
        .init(
            arguments: ["photo", "apply", "a.jpg", "--preset", "noir", "-o", "b.jpg", "--out-dir", "d"],
            message: "not both"),
        .init(
            arguments: ["photo", "apply", "a.jpg", "c.jpg", "--preset", "noir", "-o", "b.jpg"],
            message: "-o/--output takes one input"),
        .init(
            arguments: ["photo", "apply", "a.jpg", "--preset", "noir", "-o", "b.gif"],
            message: "must end in .jpg, .jpeg, .png, .heic or .heif"),
        .init(
            arguments: ["photo", "apply", "a.jpg", "--preset", "noir", "-o", "b.jpg", "--quality", "0"],
            message: "--quality expects a whole number in 1…100"),
        .init(arguments: ["photo", "apply", "--preset", "noir", "-o", "b.jpg"], message: "missing argument <input>"),
        .init(
            arguments: ["photo", "apply", "a.jpg", "--preset", "nothing-here", "-o", "b.jpg"],
            message: "preset 'nothing-here' not found"),
        .init(arguments: ["photo", "info"], message: "missing argument <input>"),
    ]

    @Test(arguments: usageCases)
    func badUsageExitsWithTwo(_ c: UsageCase) {
        let result = Self.run(c.arguments)
        #expect(result.code == 2)
        #expect(result.err.contains(c.message), "\(result.err)")
    }

    @Test func anOutputThatWouldOverwriteItsInputIsRefused() throws {
        let folder = try TemporaryFolder(prefix: "filterz-photo")
        let source = folder.url.appendingPathComponent("a.jpg").path
        let original = try TestPhotos.encode(TestPhotos.frame(width: 20, height: 10), as: .jpeg)
        try Data(original).write(to: URL(fileURLWithPath: source))
        let result = Self.run(["photo", "apply", source, "--preset", "noir", "--out-dir", folder.url.path])
        #expect(result.code == 1)
        #expect(result.err.contains("would overwrite the input"))
        #expect(try Self.bytes(source) == original)
    }

    @Test func helpScreensNameEveryOption() {
        let apply = Self.run(["photo", "apply", "--help"])
        #expect(apply.code == 0)
        for option in [
            "--preset", "--output", "-o", "--out-dir", "--quality", "--keep-original", "(default: 92)",
            "--max-megapixels", "(default: 128)", "--memory-limit", "(default: 2048)",
        ] {
            #expect(apply.out.contains(option), "photo apply --help lacks \(option)")
        }
        let info = Self.run(["photo", "info", "--help"])
        #expect(info.code == 0 && info.out.contains("--json"))
        let group = Self.run(["photo", "--help"])
        #expect(group.out.contains("apply") && group.out.contains("info"))
    }
}
