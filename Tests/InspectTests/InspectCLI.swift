import CLIKit
import FilterzTestSupport
import Inspect

/// `filterz inspect` as the Inspect module runs it without `filterz-full`, in process: a playlist file or
/// standard input (`PlaylistFile`), `--json`, `--strict`, and `--recursive` over files; the parsing, help screen,
/// usage errors and exit codes of `CommandRunner`. HTTP, `--header`, `--timeout` and `--deep` need FilterzCLI:
/// their tests are in EndToEndTests.
enum InspectCLI {
    static let root = Command(
        CommandSpec(name: "filterz", abstract: "Inspect HLS playlists."),
        subcommands: [
            Command(InspectCommandLine.spec, action: { arguments, context in try inspect(arguments, context) })
        ]
    )

    /// The options `inspect` reads here; any other is refused rather than ignored.
    static let options: Set<String> = [
        InspectCommandLine.json.name, InspectCommandLine.strict.name, InspectCommandLine.recursive.name,
    ]

    /// Runs `filterz <arguments>`: its exit code and everything it wrote to standard output and standard error.
    static func run(_ arguments: [String], stdin: [UInt8] = []) -> (code: Int32, out: String, err: String) {
        runInProcess(root, version: "inspect-tests", arguments, stdin: stdin)
    }

    static func inspect(_ arguments: ParsedArguments, _ context: CommandContext) throws(CLIError) -> Int32 {
        if let other = arguments.optionNames.subtracting(options).sorted().first {
            throw .usage("\(other) needs filterz-full (EndToEndTests)")
        }
        let location = try arguments.positional(0, "playlist")
        if PlaylistLocation.isHTTP(location) { throw .usage("\(location): HTTP needs filterz-full (EndToEndTests)") }
        let strict = try arguments.get(InspectCommandLine.strict)
        let recursive = try arguments.get(InspectCommandLine.recursive)
        let bytes = try PlaylistFile().load(location, readStandardInput: context.readStandardInput)
        let inspection = Inspection(
            location: location, bytes: bytes, strict: strict, recursive: recursive, loader: PlaylistFile())
        InspectCommandLine.write(inspection, json: try arguments.get(InspectCommandLine.json), to: context.stdout)
        return InspectCommandLine.exitStatus(
            inspection, problems: InspectCommandLine.problems(inspection), commandPath: arguments.commandPath, context)
    }
}
