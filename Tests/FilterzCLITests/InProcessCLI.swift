import FilterzCLI

@testable import CLIKit
@testable import Inspect

/// Runs `filterz <arguments>` in process, the way every CLI test does: its exit code and everything it wrote to
/// standard output and standard error.
func runFilterz(_ arguments: [String], environment: [String: String] = [:], stdin: [UInt8] = [])
    -> (code: Int32, out: String, err: String)
{
    let out = CapturedOutput(), err = CapturedOutput()
    let code = CLI.run(
        arguments: arguments, stdout: out, stderr: err, readStandardInput: { stdin }, environment: environment)
    return (code, out.text, err.text)
}
