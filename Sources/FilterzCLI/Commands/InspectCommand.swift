import HLS

/// `filterz inspect`: parse, validate and summarise an HLS playlist. (Placeholder until issue 2 lands.)
enum InspectCommand {
    static var command: Command {
        Command(
            CommandSpec(
                name: "inspect",
                abstract: "Parse, validate and summarise an HLS playlist (file, URL or - for stdin).",
                arguments: [ArgumentSpec("playlist", help: "A file path, an http(s) URL, or - for standard input.")],
                options: [.flag("--json", help: "Print the facts as JSON.")]),
            action: { _, _ in
                throw CLIError.failure("inspect is not implemented yet")
            })
    }
}
