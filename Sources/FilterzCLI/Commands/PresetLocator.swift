import CLIKit
import FilterKit
import Foundation

/// Finds and reads the preset a `--preset` option (or `preset show`) names: a path to a preset file, or the name
/// of a preset in a `presets` folder. Every command finds presets here, with the environment of its context.
///
/// An argument containing `/` or ending in `.json` is a path. A name is looked up as `<name>.json` in, in order:
/// 1. `$FILTERZ_PRESETS` (a folder), when set in the command's environment;
/// 2. `SampleMedia/presets` in the folder of the running executable and in every folder above it: the presets
///    installed beside the binaries (so `.build/release/filterz` finds the checkout's presets from anywhere);
/// 3. `./SampleMedia/presets` under the current directory.
/// Nowhere else: not the source tree the CLI was built from, which a shipped binary must never search.
/// Parsing is FilterKit's (`Preset.parse`): lenient like the app (clamping, legacy rules).
struct PresetLocator {
    var environment: [String: String]
    /// The running executable (its file, not the name it was started by): the presets beside it are searched.
    var executable: String

    init(environment: [String: String], executable: String = RunningExecutable.path ?? CommandLine.arguments[0]) {
        self.environment = environment
        self.executable = executable
    }

    /// The locator of a running command: the presets its environment names come first.
    init(_ context: CommandContext) { self.init(environment: context.environment) }

    /// The `--preset` option of `record`, `package`, `preview` and `photo apply`.
    static let option = Option.required(
        "--preset", placeholder: "name-or-file",
        help: "A preset .json path, or a name looked up in \(searchOrder).")

    /// Where a name is looked up, as the help screens and the not-found error say it.
    static let searchOrder = "$FILTERZ_PRESETS, SampleMedia/presets beside the executable, then ./SampleMedia/presets"

    /// `$FILTERZ_PRESETS` when set and not empty.
    var environmentFolder: String? { environment["FILTERZ_PRESETS"].flatMap { $0.isEmpty ? nil : $0 } }

    /// The folder of the running executable (symbolic links resolved).
    var executableFolder: URL {
        URL(fileURLWithPath: executable).resolvingSymlinksInPath().deletingLastPathComponent()
    }

    /// The folders searched for a preset name, in order (existing or not).
    var searchFolders: [String] {
        var folders = environmentFolder.map { [$0] } ?? []
        var folder = executableFolder
        while folder.path != "/" && !folder.path.isEmpty {
            folders.append(folder.appendingPathComponent("SampleMedia/presets").path)
            folder.deleteLastPathComponent()
        }
        folders.append(FileManager.default.currentDirectoryPath + "/SampleMedia/presets")
        return folders
    }

    static func isPath(_ argument: String) -> Bool { argument.contains("/") || argument.hasSuffix(".json") }

    /// The file a `--preset` argument refers to.
    /// - Throws: `CLIError.input` when no such file exists, naming the folders searched.
    func path(for argument: String) throws(CLIError) -> String {
        if Self.isPath(argument) {
            guard FileManager.default.fileExists(atPath: argument) else {
                throw .input("\(argument): no such preset file")
            }
            return argument
        }
        for folder in searchFolders {
            let candidate = folder + "/" + argument + ".json"
            if FileManager.default.fileExists(atPath: candidate) { return candidate }
        }
        let variable = environmentFolder ?? "not set"
        throw .input(
            "preset '\(argument)' not found: looked for \(argument).json in $FILTERZ_PRESETS (\(variable)), "
                + "SampleMedia/presets in \(executableFolder.path) and every folder above it, then "
                + "./SampleMedia/presets (\(FileManager.default.currentDirectoryPath)); give a name or a .json path")
    }

    /// Reads and parses the preset a `--preset` argument refers to.
    /// - Throws: `CLIError.input` (missing/unreadable file) or `.failure` (invalid preset, naming the key).
    func load(_ argument: String) throws(CLIError) -> Preset {
        let path = try path(for: argument)
        let bytes = try Self.read(path)
        let name = URL(fileURLWithPath: path).deletingPathExtension().lastPathComponent
        do {
            return try Preset.parse(bytes, fallbackName: name)
        } catch {
            throw .failure("\(path): \(error.description)")
        }
    }

    static func read(_ path: String) throws(CLIError) -> [UInt8] {
        guard let data = FileManager.default.contents(atPath: path) else { throw .input("\(path): cannot read file") }
        return Array(data)
    }
}
