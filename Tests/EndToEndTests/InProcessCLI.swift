import FilterzCLI
import FilterzTestSupport
import RealClients
import Testing

@testable import CLIKit
@testable import Inspect

/// Runs `filterz <arguments>` in process, the way every CLI test does: its exit code and everything it wrote to
/// standard output and standard error. `environment` is the command's whole environment: by default it names
/// `SampleMedia/presets` (as `FilterzChild` does), so a preset name never depends on where the test binary was
/// built. `stderrIsTerminal`: standard error says it is a terminal (progress lines are drawn only there).
func runFilterz(
    _ arguments: [String], environment: [String: String] = samplePresets, stdin: [UInt8] = [],
    stderrIsTerminal: Bool = false
) -> (code: Int32, out: String, err: String) {
    let out = CapturedOutput(), err = CapturedOutput(isTerminal: stderrIsTerminal)
    let code = CLI.run(
        arguments: arguments, stdout: out, stderr: err, readStandardInput: { limit in Array(stdin.prefix(limit)) },
        environment: environment)
    return (code, out.text, err.text)
}

/// The environment that makes the presets in `SampleMedia/presets` the ones a command finds by name.
let samplePresets = ["FILTERZ_PRESETS": SharedData.sampleMedia.appendingPathComponent("presets").path]

/// A command line that must fail: its arguments, its exit code (a usage error unless said) and what standard
/// error must say.
struct UsageCase: Sendable, CustomTestStringConvertible {
    var arguments: [String]
    var code: Int32 = ExitCode.usage
    var message: String
    var testDescription: String { arguments.joined(separator: " ") }
}
