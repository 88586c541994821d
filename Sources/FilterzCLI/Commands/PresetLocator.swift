import CLIKit
import FilterKit
import Foundation

/// Finds and reads the preset a `--preset` option names: a path to a preset file, or the name of a preset in
/// a `presets` folder.
///
/// An argument containing `/` or ending in `.json` is a path. A name is looked up as `<name>.json` in, in order:
/// 1. `$FILTERZ_PRESETS` (a folder), when set;
/// 2. `SampleMedia/presets` under the current directory;
/// 3. `SampleMedia/presets` under the folder of the running executable and every folder above it (so
///    `.build/release/filterz` finds the checkout's presets from anywhere);
/// 4. `SampleMedia/presets` in the package the CLI was built from.
/// Parsing is FilterKit's (`Preset.parse`): lenient like the app (clamping, legacy rules).
struct PresetLocator {
    var environment: [String: String]

    init(environment: [String: String] = [:]) { self.environment = environment }

    /// The folders searched for a preset name, in order (existing or not).
    var searchFolders: [String] {
        var folders: [String] = []
        if let override = environment["FILTERZ_PRESETS"], !override.isEmpty { folders.append(override) }
        folders.append(FileManager.default.currentDirectoryPath + "/SampleMedia/presets")
        var folder = URL(fileURLWithPath: CommandLine.arguments.first ?? ".").resolvingSymlinksInPath()
            .deletingLastPathComponent()
        while folder.path != "/" && !folder.path.isEmpty {
            folders.append(folder.appendingPathComponent("SampleMedia/presets").path)
            folder.deleteLastPathComponent()
        }
        var source = URL(fileURLWithPath: #filePath)
        for _ in 0..<4 { source.deleteLastPathComponent() }  // …/Sources/FilterzCLI/Commands/PresetLocator.swift
        folders.append(source.appendingPathComponent("SampleMedia/presets").path)
        return folders
    }

    static func isPath(_ argument: String) -> Bool { argument.contains("/") || argument.hasSuffix(".json") }

    /// The file a `--preset` argument refers to.
    /// - Throws: `CLIError.input` when no such file exists.
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
        throw .input(
            "preset '\(argument)' not found (looked in $FILTERZ_PRESETS, ./SampleMedia/presets and beside the executable; give a name or a .json path)"
        )
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
