import FilterzTestSupport
import Foundation
import RealClients
import Testing

@testable import CLIKit
@testable import Inspect

/// `filterz` runs a plain inspection itself and hands every other command line to `filterz-full`: both must
/// answer a plain inspection byte for byte alike, the lean binary must not load the media libraries, and
/// everything else must reach the full command set unchanged.
@Suite struct LeanInspectTests {
    static var lean: String? { FilterzChild.binary }
    static var full: String? { lean.map { $0 + "-full" } }

    static func run(_ binary: String, _ arguments: [String]) throws -> ExternalTool.Result {
        try ExternalTool.run(binary, arguments, timeoutSeconds: 60)
    }

    @Test(
        .enabled(if: SharedData.folder("corpus/playlists") != nil, "needs ../shared/corpus"),
        arguments: [["inspect"], ["inspect", "--json"], ["inspect", "--strict"]])
    func aPlainInspectionPrintsWhatTheFullCommandSetPrints(_ command: [String]) throws {
        let corpus = try #require(SharedData.folder("corpus/playlists"))
        let lean = try #require(Self.lean), full = try #require(Self.full)
        let files = try FileManager.default.contentsOfDirectory(atPath: corpus.path).filter { $0.hasSuffix(".m3u8") }
            .sorted()
        #expect(files.count > 20)
        var failing = 0
        for file in files {
            let arguments = command + [corpus.appendingPathComponent(file).path]
            let ours = try Self.run(lean, arguments), theirs = try Self.run(full, arguments)
            #expect(ours.stdout == theirs.stdout, "\(file): stdout differs")
            #expect(ours.stderr == theirs.stderr, "\(file): stderr differs")
            #expect(ours.exitCode == theirs.exitCode, "\(file): exit status differs")
            if ours.exitCode != 0 { failing += 1 }
        }
        // The corpus holds broken playlists too: the comparison covered error output and exit status 1.
        #expect(failing > 0)
    }

    @Test func errorsAndDelegatedCommandLinesReadTheSameThroughEitherBinary() throws {
        let lean = try #require(Self.lean), full = try #require(Self.full)
        let cases: [[String]] = [
            ["inspect", "/no/such/master.m3u8"],  // lean: an input error
            ["inspect", "/tmp"],  // lean: a directory
            ["inspect"],  // delegated: a usage error
            ["inspect", "--bogus", "x.m3u8"],  // delegated: an unknown option
            ["inspect", "--help"],  // delegated: the help screen
            ["inspect", "--timeout", "0", "x.m3u8"],  // delegated: an option only the full set checks
            ["--version"], ["help"], ["simulate", "--help"],
        ]
        for arguments in cases {
            let ours = try Self.run(lean, arguments), theirs = try Self.run(full, arguments)
            #expect(ours.stdout == theirs.stdout, "\(arguments): stdout differs")
            #expect(ours.stderr == theirs.stderr, "\(arguments): stderr differs")
            #expect(ours.exitCode == theirs.exitCode, "\(arguments): exit status differs")
        }
        let missing = try Self.run(lean, ["inspect", "/no/such/master.m3u8"])
        #expect(missing.exitCode == 2)
        #expect(missing.stderr == "filterz inspect: error: /no/such/master.m3u8: no such file\n")
    }

    @Test func theLeanBinaryLinksNeitherLibavNorLibcurlNorFoundation() throws {
        let lean = try #require(Self.lean), full = try #require(Self.full)
        let leanLibraries = try ExternalTool.run("ldd", [lean]).stdout
        let fullLibraries = try ExternalTool.run("ldd", [full]).stdout
        #expect(fullLibraries.contains("libavcodec"), "the comparison needs a full binary that does link libav")
        #expect(
            fullLibraries.contains("libFoundation.so"), "the comparison needs a full binary that does link Foundation")
        // Foundation and its ICU data cost the lean binary more start-up time than its own code.
        for library in [
            "libavcodec", "libavformat", "libcurl", "libmicrohttpd", "libheif", "libcrypto", "libFoundation",
            "FoundationICU",
        ] {
            #expect(!leanLibraries.contains(library), "filterz links \(library)")
        }
    }

    @Test func withoutFilterzFullBesideItADelegatedCommandNamesWhatIsMissing() throws {
        let lean = try #require(Self.lean)
        let folder = try TemporaryFolder(prefix: "filterz-lean")
        let copy = folder.url.appendingPathComponent("filterz").path
        try FileManager.default.copyItem(atPath: lean, toPath: copy)
        let result = try Self.run(copy, ["record", "--help"])
        #expect(result.exitCode == 2)
        #expect(result.stdout.isEmpty)
        #expect(result.stderr.contains("cannot run \(folder.url.path)/filterz-full"))
        #expect(result.stderr.contains("filterz-full must be installed beside filterz"))
        // A plain inspection still works on its own.
        let playlist = folder.url.appendingPathComponent("index.m3u8")
        try Data("#EXTM3U\n#EXT-X-TARGETDURATION:2\n#EXTINF:2,\na.ts\n#EXT-X-ENDLIST\n".utf8).write(to: playlist)
        let inspected = try Self.run(copy, ["inspect", playlist.path])
        #expect(inspected.exitCode == 0)
        #expect(inspected.stdout.contains("media playlist"))
    }

    @Test(arguments: [
        (["a.m3u8"], true), (["--json", "a.m3u8"], true), (["--strict", "-"], true), (["--", "--json"], true),
        (["--recursive", "a.m3u8"], false), (["--deep", "a.m3u8"], false), (["--report", "r.html", "a.m3u8"], false),
        (["-H", "A: b", "a.m3u8"], false), (["--timeout", "5", "a.m3u8"], false),
        (["https://example.com/a.m3u8"], false), (["HTTP://example.com/a.m3u8"], false),
    ])
    func onlyFilesAndStandardInputWithJSONOrStrictArePlain(_ arguments: [String], _ plain: Bool) throws {
        let parsed = try ArgumentParser.parse(arguments, spec: InspectCommandLine.spec, commandPath: "filterz inspect")
        #expect(InspectCommandLine.isPlain(parsed) == plain)
    }
}
