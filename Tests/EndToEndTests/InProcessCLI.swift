import FilterzTestSupport
import RealClients

@testable import FilterzCLI

/// Runs `filterz <arguments>` in process, the way every end-to-end test does: its exit code and everything it
/// wrote to standard output and standard error. `environment` is the command's whole environment: by default it
/// names `SampleMedia/presets` (as `FilterzChild` does), so a preset name never depends on where the test binary
/// was built. `stderrIsTerminal`: standard error says it is a terminal (progress lines are drawn only there).
func runFilterz(
    _ arguments: [String], environment: [String: String] = samplePresets, stdin: [UInt8] = [],
    stderrIsTerminal: Bool = false
) -> (code: Int32, out: String, err: String) {
    runInProcess(
        CLI.root, version: CLI.version, arguments, environment: environment, stdin: stdin,
        stderrIsTerminal: stderrIsTerminal)
}

/// The environment that makes the presets in `SampleMedia/presets` the ones a command finds by name.
let samplePresets = ["FILTERZ_PRESETS": SharedData.sampleMedia.appendingPathComponent("presets").path]
