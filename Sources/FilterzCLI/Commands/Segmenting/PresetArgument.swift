import CLIKit
import FilterKit

/// Resolves `--preset` for the segmenting commands: the same lookup as every other `--preset`
/// (`PresetLocator`: a path, or a name in `$FILTERZ_PRESETS`, `./SampleMedia/presets`, beside the executable).
enum PresetArgument {
    static func load(_ argument: String, environment: [String: String] = [:]) throws(CLIError) -> Preset {
        try PresetLocator(environment: environment).load(argument)
    }
}
