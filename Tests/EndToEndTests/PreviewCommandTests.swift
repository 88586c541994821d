import FilterzTestSupport
import Foundation
import RealClients
import Testing

@testable import CLIKit
@testable import FilterzCLI
@testable import Inspect

@Suite struct PreviewCommandTests {
    static func run(_ arguments: [String]) -> (code: Int32, out: String, err: String) {
        runFilterz(arguments, environment: samplePresets)
    }

    /// Width and height from a PNG's IHDR chunk.
    static func pngSize(_ bytes: [UInt8]) -> (Int, Int)? {
        guard bytes.count > 24, Array(bytes[12..<16]) == Array("IHDR".utf8) else { return nil }
        func be32(_ at: Int) -> Int { bytes[at..<(at + 4)].reduce(0) { $0 << 8 | Int($1) } }
        return (be32(16), be32(20))
    }

    @Test func previewWritesAValidSideBySidePNG() throws {
        let folder = try TemporaryFolder()
        let path = folder.url.appendingPathComponent("preview.png").path
        let result = Self.run([
            "preview", "--preset", "warm-film", "--size", "160x90", "--seed", "3", "--at", "0.5", "-o", path,
        ])
        #expect(result.code == 0, "\(result.err)")
        let bytes = try #require(FileManager.default.contents(atPath: path).map(Array.init))
        #expect(Array(bytes.prefix(8)) == [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
        let size = try #require(Self.pngSize(bytes))
        #expect(size.0 > 2 * 160 && size.1 > 90)
        #expect(result.out.contains("\(size.0)x\(size.1) PNG"))
        if ExternalTool.isInstalled("ffprobe") {
            let probe = try ExternalTool.run(
                "ffprobe", ["-v", "error", "-show_entries", "stream=codec_name,width,height", "-of", "csv=p=0", path])
            #expect(probe.exitCode == 0)
            #expect(probe.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == "png,\(size.0),\(size.1)")
        } else {
            Issue.record("ffprobe check skipped: ffprobe is not installed (make deps)", severity: .warning)
        }
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: folder.url.path) == ["preview.png"], "no temporary left"
        )
    }

    @Test func theSameArgumentsGiveTheSamePNGAndAnotherSeedDoesNot() throws {
        let folder = try TemporaryFolder()
        func png(_ seed: String, _ name: String) throws -> [UInt8] {
            let path = folder.url.appendingPathComponent(name).path
            #expect(Self.run(["preview", "--preset", "noir", "--size", "64x36", "--seed", seed, "-o", path]).code == 0)
            return try #require(FileManager.default.contents(atPath: path).map(Array.init))
        }
        #expect(try png("1", "a.png") == png("1", "b.png"))
        #expect(try png("1", "a.png") != png("2", "c.png"))
    }

    @Test func portraitSizesGiveAPortraitFrame() throws {
        let folder = try TemporaryFolder()
        let path = folder.url.appendingPathComponent("p.png").path
        #expect(Self.run(["preview", "--preset", "crisp", "--size", "36x64", "-o", path]).code == 0)
        let size = try #require(Self.pngSize(Array(FileManager.default.contents(atPath: path) ?? Data())))
        #expect(size.1 > 64 && size.0 < 3 * 36)
    }

    static let usageCases: [UsageCase] = [
        .init(arguments: ["preview", "-o", "x.png"], code: 2, message: "missing option --preset"),
        .init(arguments: ["preview", "--preset", "noir"], code: 2, message: "missing option --output"),
        .init(
            arguments: ["preview", "--preset", "noir", "--size", "big", "-o", "x.png"], code: 2,
            message: "--size expects WxH"),
        .init(
            arguments: ["preview", "--preset", "noir", "--at", "-1", "-o", "x.png"], code: 2,
            message: "--at expects a number"),
        .init(
            arguments: ["preview", "--preset", "nothing-here", "-o", "x.png"], code: 2,
            message: "preset 'nothing-here' not found"),
    ]

    @Test(arguments: usageCases)
    func badArgumentsAreReportedWithTheRightExitCode(_ c: UsageCase) {
        let result = Self.run(c.arguments)
        #expect(result.code == c.code)
        #expect(result.err.contains(c.message), "\(result.err)")
    }
}
