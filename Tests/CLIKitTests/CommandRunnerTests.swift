import FilterzTestSupport
import Testing

@testable import CLIKit

/// The command-line plumbing every Filterz executable shares (`CommandRunner`), on a small tree of commands:
/// dispatch, help below a command group, usage errors and exit codes, `--version`.
@Suite struct CommandRunnerTests {
    /// `filterz` with a command taking a playlist and a flag, and a group of two subcommands.
    static let root = Command(
        CommandSpec(name: "filterz", abstract: "A small tree of commands."),
        subcommands: [
            Command(
                CommandSpec(
                    name: "inspect", abstract: "Print the playlist's name.",
                    arguments: [ArgumentSpec("playlist", help: "A file.")],
                    options: [.flag("--json", help: "As JSON.")]),
                action: { arguments, context in
                    context.stdout.line(try arguments.positional(0, "playlist"))
                    return ExitCode.success
                }),
            Command(
                CommandSpec(name: "preset", abstract: "Presets."),
                subcommands: ["show", "check"].map { name in
                    Command(
                        CommandSpec(
                            name: name, abstract: "\(name) a preset.",
                            arguments: [ArgumentSpec("preset", help: "A name.")]
                        ),
                        action: { _, _ in ExitCode.success })
                }),
        ])

    static let version = "9.8.7"

    func run(_ arguments: String...) -> (code: Int32, out: String, err: String) {
        runInProcess(Self.root, version: Self.version, arguments)
    }

    /// A command group's help screen ends with "See 'filterz preset help <subcommand>'": that line must work.
    @Test func helpBelowACommandGroupShowsTheSubcommandsHelp() {
        let group = run("preset", "--help")
        #expect(group.out.contains("See 'filterz preset help <subcommand>'"))
        for name in ["show", "check"] {
            let result = run("preset", "help", name)
            #expect(result.code == 0, "\(result.err)")
            #expect(result.out.contains("USAGE: filterz preset \(name)"))
            #expect(result.err.isEmpty)
        }
        let unknown = run("preset", "help", "frobnicate")
        #expect(unknown.code == 2)
        #expect(unknown.err.hasPrefix("Error: unknown command 'frobnicate'\n"))
    }

    @Test func unknownCommandIsAUsageError() {
        let result = run("frobnicate")
        #expect(result.code == 2)
        #expect(result.err.hasPrefix("Error: unknown command 'frobnicate'\n"))
        #expect(result.out.isEmpty)
    }

    @Test func unknownOptionNamesTheOptionAndTheCommand() {
        let result = run("inspect", "--frobnicate", "x.m3u8")
        #expect(result.code == 2)
        #expect(result.err.contains("unknown option '--frobnicate' for 'filterz inspect'"))
        #expect(result.err.contains("See 'filterz inspect --help'"))
    }

    @Test func missingPositionalIsAUsageError() {
        let result = run("inspect")
        #expect(result.code == 2)
        #expect(result.err.contains("missing argument <playlist>"))
        let given = run("inspect", "x.m3u8")
        #expect(given.code == 0 && given.out == "x.m3u8\n", "\(given.err)")
    }

    @Test func versionIsPrinted() {
        let result = run("--version")
        #expect(result.code == 0)
        #expect(result.out == Self.version + "\n")
    }
}
