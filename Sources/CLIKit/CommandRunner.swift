/// Runs command lines against a tree of ``Command``s: the dispatch, help and usage-error rules every Filterz
/// executable shares.
public enum CommandRunner {
    /// Runs one command line (without the program name) against the tree of commands under `root` and returns
    /// the process exit code: `--version` prints `version`; `help [command…]`, `--help` and `-h` print help
    /// screens (`help --markdown` at a root named `filterz`: the reference of every command); a usage error
    /// prints the command's usage line and is exit 2; a command's `CLIError` is one `path: error:` line.
    public static func run(
        _ root: Command, version: String, arguments: [String], stdout: TextOutput, stderr: TextOutput,
        readStandardInput: @escaping (_ limit: Int) -> [UInt8] = { _ in [] }, environment: [String: String] = [:]
    ) -> Int32 {
        let context = CommandContext(
            stdout: stdout, stderr: stderr, readStandardInput: readStandardInput, environment: environment)
        var command = root
        var path = root.spec.name
        var remaining = arguments[...]

        if remaining.first == "help", remaining.dropFirst().first == "--markdown", path == "filterz" {
            stdout.write(ReferenceMarkdown.render(root: root))
            return ExitCode.success
        }
        if remaining.first == "help" {
            return help(remaining.dropFirst(), from: root, path: path, context)
        }
        if remaining.first == "--version" {
            stdout.line(version)
            return ExitCode.success
        }
        while let word = remaining.first, !command.subcommands.isEmpty {
            if word == "--help" || word == "-h" { break }
            // `filterz preset help show`, as every command group's help screen suggests.
            if word == "help" { return help(remaining.dropFirst(), from: command, path: path, context) }
            guard let sub = command.subcommands.first(where: { $0.spec.name == word }) else {
                let message = word.hasPrefix("-") ? "unknown option '\(word)'" : "unknown command '\(word)'"
                return usageError(.usage(message), command: command, path: path, context)
            }
            command = sub
            path += " " + word
            remaining = remaining.dropFirst()
        }
        let beforeSeparator = remaining.prefix { $0 != "--" }
        if beforeSeparator.contains("--help") || beforeSeparator.contains("-h") {
            stdout.write(HelpScreen.render(command, path: path))
            return ExitCode.success
        }
        guard let action = command.action else {
            stdout.write(HelpScreen.render(command, path: path))
            return remaining.isEmpty && path == root.spec.name ? ExitCode.success : ExitCode.usage
        }
        do {
            let parsed = try ArgumentParser.parse(Array(remaining), spec: command.spec, commandPath: path)
            return try action(parsed, context)
        } catch let error as CLIError {
            if case .usage = error { return usageError(error, command: command, path: path, context) }
            stderr.line("\(path): error: \(error.description)")
            return error.exitCode
        } catch {
            stderr.line("\(path): error: \(error)")
            return ExitCode.failure
        }
    }

    /// `help [subcommand…]` below `command`: the help screen of the command those words name.
    private static func help(
        _ words: ArraySlice<String>, from command: Command, path: String, _ context: CommandContext
    ) -> Int32 {
        var target = command
        var targetPath = path
        for word in words {
            guard let sub = target.subcommands.first(where: { $0.spec.name == word }) else {
                return usageError(.usage("unknown command '\(word)'"), command: target, path: targetPath, context)
            }
            target = sub
            targetPath += " " + word
        }
        context.stdout.write(HelpScreen.render(target, path: targetPath))
        return ExitCode.success
    }

    private static func usageError(_ error: CLIError, command: Command, path: String, _ context: CommandContext)
        -> Int32
    {
        context.stderr.line("Error: \(error.description)")
        context.stderr.line("Usage: \(HelpScreen.usage(command, path: path))")
        context.stderr.line("  See '\(path) --help' for more information.")
        return ExitCode.usage
    }
}
