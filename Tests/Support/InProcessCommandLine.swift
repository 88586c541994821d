import CLIKit
import Testing

/// Runs a command line in process against the commands under `root` (`CommandRunner`: the dispatch, help
/// screens, usage errors and exit codes of every Filterz executable): its exit code and everything it wrote to
/// standard output and standard error. `environment` is the command's whole environment; `stdin` is what it
/// reads from standard input; `stderrIsTerminal`: standard error says it is a terminal (progress lines are
/// drawn only there).
public func runInProcess(
    _ root: Command, version: String, _ arguments: [String], environment: [String: String] = [:],
    stdin: [UInt8] = [], stderrIsTerminal: Bool = false
) -> (code: Int32, out: String, err: String) {
    let out = CapturedOutput(), err = CapturedOutput(isTerminal: stderrIsTerminal)
    let code = CommandRunner.run(
        root, version: version, arguments: arguments, stdout: out, stderr: err,
        readStandardInput: { limit in Array(stdin.prefix(limit)) }, environment: environment)
    return (code, out.text, err.text)
}

/// A command line that must fail: its arguments, its exit code (a usage error unless said) and what standard
/// error must say.
public struct UsageCase: Sendable, CustomTestStringConvertible {
    public var arguments: [String]
    public var code: Int32
    public var message: String
    public var testDescription: String { arguments.joined(separator: " ") }

    public init(arguments: [String], code: Int32 = ExitCode.usage, message: String) {
        self.arguments = arguments
        self.code = code
        self.message = message
    }
}
