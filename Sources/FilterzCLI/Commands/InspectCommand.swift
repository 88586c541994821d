import HLS
import StreamAudit

/// `filterz inspect`: parse, validate and summarise an HLS playlist from a file, a URL or standard input.
enum InspectCommand {
    static var command: Command {
        Command(
            CommandSpec(
                name: "inspect",
                abstract: "Parse, validate and summarise an HLS playlist (file, URL or - for stdin).",
                discussion: """
                    Prints what the playlist is (variants by bandwidth, renditions by group, or segment
                    statistics), then every problem as file:line:column: severity: message [code] (spec section).
                    Every list stops after 1000 items with "… and N more" (JSON: a "truncated" member gives the
                    full lengths); counts and the exit status cover everything.
                    --deep also loads the segments of every media playlist, demuxes them and checks what is in
                    them against the playlists (bandwidth, durations, IDRs, timeline, CODECS, RESOLUTION,
                    FRAME-RATE, WebVTT timestamp maps, I-frame ranges, init sections, keys): a table per
                    variant, then findings under "Must fix" and "Should fix"; any "must" finding is exit 1.
                    Exit status: 0 valid (warnings allowed), 1 the playlist has errors, 2 usage or I/O error.
                    A download is stopped as soon as its body passes 64 MiB (after decompression).
                    """,
                arguments: [ArgumentSpec("playlist", help: "A file path, an http(s) URL, or - for standard input.")],
                options: [
                    .flag("--json", help: "Print the facts (corpus schema) and diagnostics as JSON."),
                    .flag(
                        "--recursive", "-r",
                        help:
                            "Also load every variant and rendition playlist (relative to the\nplaylist's URL or folder) and check that they line up."
                    ),
                    .repeatable(
                        "--header", "-H", placeholder: "header",
                        help: "Send 'Name: value' with every HTTP request (protected origins)."),
                    .flag("--strict", help: "Stop at the first error (no summary)."),
                    .flag(
                        "--deep",
                        help: "Load and demux the segments too (implies --recursive) and check\nthem against the playlists."),
                    .value(
                        "--segments", placeholder: "all|N",
                        help: "With --deep: every segment, or N per playlist spread over it.", defaultValue: "all"),
                    .value(
                        "--report", placeholder: "file",
                        help: "With --deep: also write a self-contained HTML report (tables,\nbitrate charts, findings)."),
                    .value(
                        "--timeout", placeholder: "seconds",
                        help: "Longest time one HTTP request may take, from connecting to the last byte.", defaultValue: "20"),
                ],
                examples: [
                    "filterz inspect master.m3u8",
                    "filterz inspect --recursive --json https://cdn.example.com/v/master.m3u8?token=abc",
                    "curl -s https://example.com/live.m3u8 | filterz inspect -",
                    "filterz inspect -H 'Authorization: Bearer 123' https://origin.example.com/master.m3u8",
                    "filterz inspect --deep --report report.html out/master.m3u8",
                ]),
            action: { arguments, context in try run(arguments, context) })
    }

    static func run(_ arguments: ParsedArguments, _ context: CommandContext) throws(CLIError) -> Int32 {
        let location = try arguments.positional(0, "playlist")
        var headers: [(name: String, value: String)] = []
        for text in arguments.values("--header") { headers.append(try ResourceLoader.parseHeader(text)) }
        var loader = ResourceLoader(headers: headers)
        loader.timeoutSeconds = try arguments.decimal("--timeout", default: 20, in: 0.1...3600)
        let strict = arguments.flag("--strict")
        let deep = try DeepOptions(arguments)
        let recursive = arguments.flag("--recursive") || deep != nil

        let bytes = try loader.load(location, readStandardInput: context.readStandardInput)
        let result = parseAndValidate(
            bytes, options: ParseOptions(strict: strict, playlistURI: location == "-" ? nil : location))
        var inspection = Inspection(
            name: location == "-" ? "<stdin>" : location, result: result, isRecursive: recursive)
        if recursive, let multivariant = result.playlist?.multivariant {
            inspection.children = RecursiveInspection(loader: loader, strict: strict)
                .run(parent: multivariant, parentLocation: location)
            inspection.crossChecks = RecursiveInspection.crossChecks(inspection.children)
        }

        var audit: AuditReport?
        if let deep, let playlist = result.playlist {
            audit = deep.run(
                playlist: playlist, location: location, name: inspection.name, children: inspection.children,
                loader: loader, progress: context.stderr)
        }

        if arguments.flag("--json") {
            var json = inspection.json
            if let audit, case .object(var members) = json {
                members.append(("deep", DeepJSONReport.value(audit)))
                json = .object(members)
            }
            context.stdout.line(json.rendered())
        } else {
            for line in inspection.textLines { context.stdout.line(line) }
            if let audit {
                context.stdout.line()
                for line in DeepTextReport.lines(audit) { context.stdout.line(line) }
            }
        }
        if let audit, let path = deep?.reportPath {
            try DeepHTMLReport.write(audit, title: inspection.name, to: path)
        }
        var problems: [String] = []
        if inspection.errorCount > 0 { problems.append(DisplayFormat.count(inspection.errorCount, "error")) }
        if let audit, audit.mustCount > 0 { problems.append(DisplayFormat.count(audit.mustCount, "must-fix finding")) }
        guard problems.isEmpty else {
            context.stderr.line("\(arguments.commandPath): \(inspection.name): \(problems.joined(separator: ", "))")
            return ExitCode.failure
        }
        return ExitCode.success
    }
}
