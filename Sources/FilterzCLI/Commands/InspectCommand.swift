import HLS

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
                    Exit status: 0 valid (warnings allowed), 1 the playlist has errors, 2 usage or I/O error.
                    """,
                arguments: [ArgumentSpec("playlist", help: "A file path, an http(s) URL, or - for standard input.")],
                options: [
                    .flag("--json", help: "Print the facts (corpus schema) and diagnostics as JSON."),
                    .flag(
                        "--recursive", "-r",
                        help: "Also load every variant and rendition playlist (relative to the\nplaylist's URL or folder) and check that they line up."),
                    .repeatable(
                        "--header", "-H", placeholder: "header",
                        help: "Send 'Name: value' with every HTTP request (protected origins)."),
                    .flag("--strict", help: "Stop at the first error (no summary)."),
                ],
                examples: [
                    "filterz inspect master.m3u8",
                    "filterz inspect --recursive --json https://cdn.example.com/v/master.m3u8?token=abc",
                    "curl -s https://example.com/live.m3u8 | filterz inspect -",
                    "filterz inspect -H 'Authorization: Bearer 123' https://origin.example.com/master.m3u8",
                ]),
            action: { arguments, context in try run(arguments, context) })
    }

    static func run(_ arguments: ParsedArguments, _ context: CommandContext) throws(CLIError) -> Int32 {
        let location = try arguments.positional(0, "playlist")
        var headers: [(name: String, value: String)] = []
        for text in arguments.values("--header") { headers.append(try ResourceLoader.parseHeader(text)) }
        let loader = ResourceLoader(headers: headers)
        let strict = arguments.flag("--strict")
        let name = location == "-" ? "<stdin>" : location

        let bytes = try loader.load(location, readStandardInput: context.readStandardInput)
        let options = ParseOptions(strict: strict, playlistURI: location == "-" ? nil : location)
        let result = parseAndValidate(bytes, options: options)

        var children: [RecursiveInspection.Child] = []
        var crossChecks: [Diagnostic] = []
        if arguments.flag("--recursive"), let multivariant = result.playlist?.multivariant {
            children = RecursiveInspection(loader: loader, strict: strict).run(parent: multivariant, parentLocation: location)
            crossChecks = RecursiveInspection.crossChecks(children)
        }

        if arguments.flag("--json") {
            context.stdout.line(json(result, children: children, crossChecks: crossChecks, recursive: arguments.flag("--recursive")).rendered())
        } else {
            for line in text(result, name: name, children: children, crossChecks: crossChecks) { context.stdout.line(line) }
        }

        let errorCount = countErrors(result: result, children: children, crossChecks: crossChecks)
        guard errorCount == 0 else {
            context.stderr.line("\(arguments.commandPath): \(name): \(DisplayFormat.count(errorCount, "error"))")
            return ExitCode.failure
        }
        return ExitCode.success
    }

    static func countErrors(
        result: ParseResult, children: [RecursiveInspection.Child], crossChecks: [Diagnostic]
    ) -> Int {
        var count = result.errors.count + crossChecks.filter { $0.severity == .error }.count
        if result.playlist == nil && count == 0 { count = 1 }
        for child in children {
            switch child.outcome {
            case .failed: count += 1
            case .loaded(let childResult): count += max(childResult.errors.count, childResult.playlist == nil ? 1 : 0)
            }
        }
        return count
    }

    static func text(
        _ result: ParseResult, name: String, children: [RecursiveInspection.Child], crossChecks: [Diagnostic]
    ) -> [String] {
        var lines: [String] = []
        if let playlist = result.playlist {
            lines += InspectTextReport.summary(of: playlist, name: name)
        } else {
            lines.append("\(name): not parsed")
        }
        if result.playlist?.multivariant != nil, !children.isEmpty {
            lines.append("")
            lines.append("Playlists (\(children.count))")
            var table = TextTable()
            var problems: [[String]] = []
            for child in children {
                switch child.outcome {
                case .failed(let message):
                    table.append([child.uri, "cannot load: \(message)"])
                    problems.append([])
                case .loaded(let childResult):
                    let columns = childResult.playlist.map(InspectTextReport.oneLineColumns) ?? ["not parsed"]
                    let status = childResult.diagnostics.isEmpty ? "ok" : InspectTextReport.countLine(childResult.diagnostics)
                    table.append([child.uri] + columns + [status])
                    problems.append(childResult.diagnostics.map { "    " + $0.formatted(file: child.location) })
                }
            }
            for (line, childProblems) in zip(table.lines(indent: 2), problems) {
                lines.append(line)
                lines += childProblems
            }
            lines.append("")
            lines.append("Cross-playlist checks: " + (crossChecks.isEmpty ? "ok" : InspectTextReport.countLine(crossChecks)))
            for diagnostic in crossChecks { lines.append("  " + diagnostic.formatted(file: name)) }
        }
        lines.append("")
        lines += InspectTextReport.diagnostics(result.diagnostics, file: name)
        return lines
    }

    static func json(
        _ result: ParseResult, children: [RecursiveInspection.Child], crossChecks: [Diagnostic], recursive: Bool
    ) -> JSONValue {
        var members: [(String, JSONValue)]
        if let playlist = result.playlist, case .object(let facts) = playlist.facts(diagnostics: result.diagnostics) {
            members = facts
        } else {
            members = [("kind", .null), ("diagnostics", Self.diagnosticsJSON(result.diagnostics))]
        }
        if recursive {
            members.append(("playlists", .array(children.map { child in
                var entry: [(String, JSONValue)] = [("uri", .string(child.uri)), ("location", .string(child.location))]
                switch child.outcome {
                case .failed(let message):
                    entry.append(("error", .string(message)))
                case .loaded(let childResult):
                    entry.append(("facts", childResult.playlist?.facts(diagnostics: childResult.diagnostics)
                        ?? .object([("kind", .null), ("diagnostics", Self.diagnosticsJSON(childResult.diagnostics))])))
                }
                return .object(entry)
            })))
            members.append(("cross_playlist_diagnostics", diagnosticsJSON(crossChecks)))
        }
        return .object(members)
    }

    private static func diagnosticsJSON(_ diagnostics: [Diagnostic]) -> JSONValue {
        .array(diagnostics.map(\.jsonValue))
    }
}
