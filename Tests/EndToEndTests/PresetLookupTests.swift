import FilterzTestSupport
import Foundation
import RealClients
import Testing

@testable import CLIKit
@testable import FilterzCLI

/// Every command that takes a preset finds a name the same way, with the environment of its context: a preset
/// that exists only in the folder `$FILTERZ_PRESETS` names is used when the variable is set, and is not found
/// (exit 2, naming where it looked) when it is not. Run in process, so the context is the only environment.
@Suite(.serialized)
struct PresetLookupTests {
    /// A command that takes a preset: its command line, and where the preset it used shows.
    enum PresetTaker: CaseIterable, CustomTestStringConvertible {
        case record, package, preview, photoApply, presetShow

        var testDescription: String { "\(self)" }

        /// The command line using preset `name`, writing into `folder` (`input`: a video for `package`).
        func arguments(preset name: String, folder: URL, input: String) -> [String] {
            let out = folder.appendingPathComponent("out").path
            let photos = SharedData.sampleMedia.appendingPathComponent("photos")
            switch self {
            case .record: return ["record", "--preset", name, "--out", out] + PresetLookupTests.tinyRecording
            case .package:
                return ["package", input, "--preset", name, "--out", out, "--ladder", "160x90@150k"]
            case .preview:
                return [
                    "preview", "--preset", name, "--size", "64x36", "-o", folder.appendingPathComponent("p.png").path,
                ]
            case .photoApply:
                return [
                    "photo", "apply", photos.appendingPathComponent("progressive.jpg").path,
                    photos.appendingPathComponent("alpha.png").path, "--preset", name, "--out-dir", out,
                ]
            case .presetShow: return ["preset", "show", name]
            }
        }

        /// What names the preset the command used: the `filter.json` of a ladder, or what it printed.
        func evidence(_ result: (code: Int32, out: String, err: String), folder: URL) -> String {
            switch self {
            case .record, .package:
                let filter = folder.appendingPathComponent("out/filter.json")
                return (try? String(contentsOf: filter, encoding: .utf8)) ?? ""
            case .preview, .photoApply, .presetShow: return result.out
            }
        }
    }

    /// One second of a 160×90 camera at 10 fps, one rendition.
    static let tinyRecording = [
        "--size", "160x90", "--ladder", "160x90@150k", "--duration", "1", "--fps", "10", "--segment-duration", "1",
    ]

    /// A preset folder holding one preset found nowhere else, and a short video for `package`.
    struct Setup {
        let folder: TemporaryFolder
        let name = "only-in-filterz-presets-" + UUID().uuidString.prefix(8).lowercased()
        var presets: URL { folder.url.appendingPathComponent("presets") }
        var video: String { folder.url.appendingPathComponent("video/90p/seg_00000.ts").path }

        init(_ taker: PresetTaker) throws {
            folder = try TemporaryFolder()
            try FileManager.default.createDirectory(at: presets, withIntermediateDirectories: true)
            let preset = #"{"name": "\#(name)", "values": {"contrast": 1.3}}"#
            try Data(preset.utf8).write(to: presets.appendingPathComponent(name + ".json"))
            if taker == .package {
                let neutral = SharedData.sampleMedia.appendingPathComponent("presets/neutral.json").path
                let video = folder.url.appendingPathComponent("video").path
                let made = runFilterz(
                    ["record", "--preset", neutral, "--out", video] + PresetLookupTests.tinyRecording)
                try #require(made.code == 0, "\(made.err)")
                try #require(FileManager.default.fileExists(atPath: self.video))
            }
        }
    }

    @Test(arguments: PresetTaker.allCases)
    func aNameInFilterzPresetsIsFound(_ taker: PresetTaker) throws {
        let setup = try Setup(taker)
        let work = setup.folder.url.appendingPathComponent("work")
        try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
        let result = runFilterz(
            taker.arguments(preset: setup.name, folder: work, input: setup.video),
            environment: ["FILTERZ_PRESETS": setup.presets.path])
        #expect(result.code == ExitCode.success, "\(result.err)")
        #expect(taker.evidence(result, folder: work).contains(setup.name), "\(result.out)")
    }

    @Test(arguments: PresetTaker.allCases)
    func withoutFilterzPresetsTheNameIsNotFoundAndTheErrorSaysWhereItLooked(_ taker: PresetTaker) throws {
        let setup = try Setup(taker)
        let work = setup.folder.url.appendingPathComponent("work")
        let result = runFilterz(taker.arguments(preset: setup.name, folder: work, input: setup.video), environment: [:])
        #expect(result.code == ExitCode.usage)
        let message = result.err
        #expect(message.contains("preset '\(setup.name)' not found"), "\(message)")
        #expect(message.contains("$FILTERZ_PRESETS (not set)"), "\(message)")
        let executable = try #require(RunningExecutable.path)
        let executableFolder = URL(fileURLWithPath: executable).deletingLastPathComponent().path
        #expect(message.contains("SampleMedia/presets in \(executableFolder) and every folder above it"), "\(message)")
        #expect(message.contains("./SampleMedia/presets (\(FileManager.default.currentDirectoryPath))"), "\(message)")
        #expect(!FileManager.default.fileExists(atPath: work.path), "nothing written")
    }

    /// A bad option of `record` or `package` is named before the preset is looked for: usage errors come
    /// before any file is opened.
    @Test(arguments: [
        UsageCase(arguments: ["record", "--size", "huge"], message: "--size"),
        UsageCase(arguments: ["record", "--window", "3"], message: "--window needs --live"),
        UsageCase(arguments: ["record", "--live", "--low-latency", "--part-duration", "5"], message: "part"),
        UsageCase(arguments: ["record", "--format", "mkv"], message: "--format"),
        UsageCase(arguments: ["record", "--keys", "/tmp/k"], message: "--keys needs --encrypt"),
        UsageCase(arguments: ["package", "/no/such/clip.mp4", "--ladder", "big"], message: "--ladder"),
    ])
    func aBadOptionIsNamedBeforeThePresetIsLookedFor(_ usage: UsageCase) throws {
        let folder = try TemporaryFolder()
        let out = folder.url.appendingPathComponent("out").path
        let result = runFilterz(
            usage.arguments + ["--preset", "no-such-preset-anywhere", "--out", out], environment: [:])
        #expect(result.code == usage.code)
        #expect(result.err.contains(usage.message), "\(result.err)")
        #expect(!result.err.contains("not found"), "\(result.err)")
    }

    /// The folders, in order: the variable's, the executable's and those above it, then the current directory's;
    /// never the source tree the CLI was built from.
    @Test func theSearchOrderIsTheVariableBesideTheExecutableThenTheCurrentFolder() {
        let locator = PresetLocator(environment: ["FILTERZ_PRESETS": "/p"], executable: "/opt/filterz/bin/filterz")
        let here = FileManager.default.currentDirectoryPath
        #expect(
            locator.searchFolders == [
                "/p", "/opt/filterz/bin/SampleMedia/presets", "/opt/filterz/SampleMedia/presets",
                "/opt/SampleMedia/presets", here + "/SampleMedia/presets",
            ])
        let unset = PresetLocator(environment: ["FILTERZ_PRESETS": ""], executable: "/bin/filterz")
        #expect(unset.searchFolders == ["/bin/SampleMedia/presets", here + "/SampleMedia/presets"])
    }

    /// The built `filterz` (which runs `filterz-full` under the name `filterz`) started from a folder outside the
    /// checkout, without `$FILTERZ_PRESETS`, finds the checkout's presets beside its binaries.
    @Test(.enabled(if: FilterzChild.binary != nil, "needs the built filterz (swift build)"))
    func theBuiltBinaryFindsThePresetsBesideItFromAnyFolder() throws {
        let elsewhere = try TemporaryFolder()
        let process = Process()
        process.executableURL = URL(fileURLWithPath: try #require(FilterzChild.binary))
        process.arguments = ["preset", "show", "noir"]
        process.currentDirectoryURL = elsewhere.url
        process.environment = ProcessInfo.processInfo.environment.filter { $0.key != "FILTERZ_PRESETS" }
        let output = Pipe(), errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        let printed = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        let complaint = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 0, "\(complaint)")
        #expect(printed.hasPrefix("noir"), "\(printed)")
    }
}
