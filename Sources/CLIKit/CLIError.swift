/// Exit codes of every `filterz` command.
public enum ExitCode {
    /// Success (warnings allowed).
    public static let success: Int32 = 0
    /// The work ran and failed, or its input has errors (e.g. an invalid playlist).
    public static let failure: Int32 = 1
    /// Bad usage, or input that could not be read at all (missing file, unreachable URL).
    public static let usage: Int32 = 2
}

/// An error a command reports as one line on stderr, with its exit code.
public enum CLIError: Error, Equatable, CustomStringConvertible {
    /// Bad arguments: printed with a hint to `--help`, exit code 2.
    case usage(String)
    /// Input that cannot be read (file, URL, stdin): exit code 2.
    case input(String)
    /// The work failed: exit code 1.
    case failure(String)

    public var exitCode: Int32 {
        switch self {
        case .usage, .input: ExitCode.usage
        case .failure: ExitCode.failure
        }
    }

    public var description: String {
        switch self {
        case .usage(let message), .input(let message), .failure(let message): message
        }
    }
}
