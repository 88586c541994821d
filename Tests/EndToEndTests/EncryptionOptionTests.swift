import FilterzTestSupport
import Foundation
import RealClients
import Recording
import Testing

@testable import CLIKit
@testable import FilterzCLI
@testable import Inspect

/// `--encrypt`, `--key-rotation` and `--keys` of `record`/`package`, and `serve --keys`: a bad combination is one
/// line, exit 2, nothing written.
@Suite struct EncryptionOptionTests {
    struct Case: Sendable, CustomTestStringConvertible {
        var id: String
        var arguments: [String]
        var message: String
        var testDescription: String { id }
    }

    static let cases: [Case] = [
        Case(
            id: "unknown method", arguments: ["--encrypt", "aes-256"],
            message: "--encrypt expects aes-128, got 'aes-256'"),
        Case(
            id: "rotation without encrypt", arguments: ["--key-rotation", "3"],
            message: "--key-rotation needs --encrypt aes-128"),
        Case(id: "keys without encrypt", arguments: ["--keys", "/tmp/k"], message: "--keys needs --encrypt aes-128"),
        Case(
            id: "rotation zero", arguments: ["--encrypt", "aes-128", "--key-rotation", "0"],
            message: "--key-rotation expects a whole number"),
        Case(
            id: "keys inside out", arguments: ["--encrypt", "aes-128", "--keys", "OUT/keys"], message: "is inside --out"
        ),
        Case(id: "keys are out", arguments: ["--encrypt", "aes-128", "--keys", "OUT"], message: "is inside --out"),
    ]

    @Test(arguments: cases)
    func aBadEncryptionOptionIsOneLineExit2AndWritesNothing(_ item: Case) throws {
        let folder = try TemporaryFolder()
        let out = folder.url.appendingPathComponent("video").path
        let arguments = item.arguments.map { $0.replacingOccurrences(of: "OUT", with: out) }
        let run = runFilterz(
            ["record", "--preset", "neutral", "--duration", "1", "--out", out] + arguments, environment: samplePresets)
        #expect(run.code == 2)
        #expect(run.err.contains(item.message), "\(run.err)")
        #expect(run.err.split(separator: "\n").first.map { $0.contains(item.message) } == true, "\(run.err)")
        #expect((try? FileManager.default.contentsOfDirectory(atPath: folder.url.path)) == [])
    }

    @Test func serveRefusesAKeysFolderInsideTheServedFolder() throws {
        let folder = try TemporaryFolder()
        let run = runFilterz([
            "serve", folder.url.path, "--keys", folder.url.appendingPathComponent("keys").path, "--port", "0",
        ])
        #expect(run.code == 2)
        #expect(run.err.contains("is inside the served folder"), "\(run.err)")
    }

    @Test func theDefaultKeysFolderFollowsTheCommandsEnvironmentAndNothingElse() throws {
        #expect(try EncryptionOptions.defaultKeysFolder(["XDG_STATE_HOME": "/state"]) == "/state/filterz/keys")
        #expect(try EncryptionOptions.defaultKeysFolder(["HOME": "/home/ana"]) == "/home/ana/.local/state/filterz/keys")
        // The process's own home is not looked up behind the command's back: without one, --keys is asked for.
        #expect(
            throws: CLIError.usage("--encrypt needs --keys FOLDER here: neither XDG_STATE_HOME nor HOME names a folder")
        ) {
            try EncryptionOptions.defaultKeysFolder([:])
        }
        #expect(KeySettings.absolute("~/k", home: "/home/ana") == "/home/ana/k")
    }
}

/// An encrypted `package` into a folder holding an earlier encrypted package: its keys are numbered past the
/// earlier ones, so a failed run leaves the earlier keys and segments as they were, and a finished one leaves
/// exactly the keys its segments use.
@Suite(
    .serialized, .slow,
    .enabled(if: ExternalTool.isInstalled("ffmpeg"), "needs ffmpeg (make deps)"))
struct EncryptedPackageReplacementTests {
    @Test func aFailedRunLeavesTheEarlierKeysWithTheirSegmentsAndASuccessfulOneOnlyItsOwn() throws {
        let folder = try TemporaryFolder()
        let replacement = PackageReplacementTests()
        let (good, damaged) = try replacement.clips(in: folder.url)
        let out = folder.url.appendingPathComponent("media/clip")
        let keys = folder.url.appendingPathComponent("keys")
        let common = PackageReplacementTests.ladder + ["--encrypt", "aes-128", "--keys", keys.path, "--out", out.path]
        let first = runFilterz(["package", good, "--preset", "neutral", "--key-rotation", "1"] + common)
        try #require(first.code == 0, "\(first.err)")
        let keyFolder = keys.appendingPathComponent("clip")
        let firstKeys = PackageReplacementTests.snapshot(keyFolder)
        #expect(firstKeys.keys.sorted() == ["0.key", "1.key"])
        let before = PackageReplacementTests.snapshot(out)

        let failed = runFilterz(["package", damaged, "--preset", "noir"] + common)
        #expect(failed.code == 1)
        #expect(PackageReplacementTests.snapshot(out) == before)
        #expect(PackageReplacementTests.snapshot(keyFolder) == firstKeys)
        #expect((try? FileManager.default.contentsOfDirectory(atPath: keys.path)) == ["clip"])

        let second = runFilterz(["package", good, "--preset", "noir"] + common)
        try #require(second.code == 0, "\(second.err)")
        let secondKeys = PackageReplacementTests.snapshot(keyFolder)
        #expect(secondKeys.keys.sorted() == ["2.key"])
        #expect((try? FileManager.default.contentsOfDirectory(atPath: keys.path)) == ["clip"])
    }
}
