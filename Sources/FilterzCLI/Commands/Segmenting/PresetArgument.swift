import FilterKit
import Foundation

/// Resolves `--preset`: a path to a preset JSON file, or the name of a bundled preset found in
/// `SampleMedia/presets/<name>.json` under the current folder or any folder above the executable.
enum PresetArgument {
    static func load(_ argument: String) throws(CLIError) -> Preset {
        let fileManager = FileManager.default
        var candidates: [String] = []
        if argument.hasSuffix(".json") || argument.contains("/") {
            candidates.append(argument)
        } else {
            candidates.append("SampleMedia/presets/\(argument).json")
            var folder = URL(fileURLWithPath: CommandLine.arguments.first ?? ".").resolvingSymlinksInPath()
                .deletingLastPathComponent()
            while folder.path != "/" {
                candidates.append(folder.appendingPathComponent("SampleMedia/presets/\(argument).json").path)
                folder.deleteLastPathComponent()
            }
        }
        guard let path = candidates.first(where: { fileManager.fileExists(atPath: $0) }),
              let data = fileManager.contents(atPath: path)
        else {
            throw .input("preset '\(argument)' not found (give a .json file or a name from SampleMedia/presets)")
        }
        let name = URL(fileURLWithPath: path).deletingPathExtension().lastPathComponent
        do {
            return try Preset.parse(Array(data), fallbackName: name)
        } catch {
            throw .failure("\(path): \(error.description)")
        }
    }
}
