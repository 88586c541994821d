import CLIKit

/// The `filterz` command line as a function, so it can be run in process by tests.
///
///     let out = CapturedOutput(), err = CapturedOutput()
///     let code = CLI.run(arguments: ["inspect", "--json", "master.m3u8"], stdout: out, stderr: err)
public enum CLI {
    public static let version = "0.1.0"

    /// Every top-level command, in the order `filterz --help` lists them.
    public static var commands: [Command] {
        [
            InspectCommand.command,
            PreviewCommand.command,
            PresetCommand.command,
            RecordCommand.command,
            PackageCommand.command,
            PhotoCommand.command,
            ServeCommand.command,
            SignCommand.command,
            SimulateCommand.command,
        ]
    }

    static var root: Command {
        Command(
            CommandSpec(
                name: "filterz",
                abstract: "Make, inspect, serve and simulate filtered HLS video.",
                discussion: "'filterz help --markdown' prints the reference of every command (docs/CLI.md).",
                options: [.flag("--version", help: "Show the version.")]),
            subcommands: commands)
    }

    /// Runs one command line (without the program name) and returns the process exit code.
    public static func run(
        arguments: [String], stdout: TextOutput, stderr: TextOutput,
        readStandardInput: @escaping (_ limit: Int) -> [UInt8] = { _ in [] }, environment: [String: String] = [:]
    ) -> Int32 {
        run(
            root, arguments: arguments, stdout: stdout, stderr: stderr, readStandardInput: readStandardInput,
            environment: environment)
    }

    /// Runs a command line against another tree of commands (`filterz-bench` has its own), with the same
    /// parsing, help screens, usage errors and exit codes as `filterz`.
    public static func run(
        _ root: Command, arguments: [String], stdout: TextOutput, stderr: TextOutput,
        readStandardInput: @escaping (_ limit: Int) -> [UInt8] = { _ in [] }, environment: [String: String] = [:]
    ) -> Int32 {
        CommandRunner.run(
            root, version: version, arguments: arguments, stdout: stdout, stderr: stderr,
            readStandardInput: readStandardInput, environment: environment)
    }
}
