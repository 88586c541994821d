import CLIKit
import HLS
import JSON

/// `filterz inspect`'s command line: its spec (shared by `filterz` and `filterz-full`) and the part of its run
/// that needs HLS alone: the lean `filterz` runs a plain inspection of a file or standard input itself.
public enum InspectCommandLine {
    public static let json = Option.flag("--json", help: "Print the facts (corpus schema) and diagnostics as JSON.")
    public static let recursive = Option.flag(
        "--recursive", "-r",
        help:
            "Also load every variant and rendition playlist (relative to the\nplaylist's URL or folder) and check that they line up."
    )
    public static let header = Option.repeatable(
        "--header", "-H", placeholder: "header", help: "Send 'Name: value' with every HTTP request (protected origins)."
    )
    public static let strict = Option.flag("--strict", help: "Stop at the first error (no summary).")
    public static let deep = Option.flag(
        "--deep", help: "Load and demux the segments too (implies --recursive) and check\nthem against the playlists.")
    /// Read as text: `--deep` checks it (`all` or a count) and that it is not given without `--deep`.
    public static let segments = Option.text(
        "--segments", placeholder: "all|N", default: "all",
        help: "With --deep: every segment, or N per playlist spread over it.")
    public static let report = Option.optional(
        "--report", placeholder: "file",
        help: "With --deep: also write a self-contained HTML report (tables,\nbitrate charts, findings).")
    public static let timeout = Option.decimal(
        "--timeout", placeholder: "seconds", default: 20, in: 0.1...3600,
        help: "Longest time one HTTP request may take, from connecting to the last byte.")

    public static let spec: CommandSpec =
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
                A playlist over 64 MiB is refused: a file, standard input, or a download as soon as its body
                passes the limit (as received, and again after decompression).
                """,
            arguments: [ArgumentSpec("playlist", help: "A file path, an http(s) URL, or - for standard input.")],
            options: [
                json.spec, recursive.spec, header.spec, strict.spec, deep.spec, segments.spec, report.spec,
                timeout.spec,
            ],
            examples: [
                "filterz inspect master.m3u8",
                "filterz inspect --recursive --json https://cdn.example.com/v/master.m3u8?token=abc",
                "curl -s https://example.com/live.m3u8 | filterz inspect -",
                "filterz inspect -H 'Authorization: Bearer 123' https://origin.example.com/master.m3u8",
                "filterz inspect --deep --report report.html out/master.m3u8",
            ])

    /// The options a plain inspection understands; any other (`--recursive`, `--deep`, `--header`,
    /// `--timeout`, …) or an http(s) playlist needs `filterz-full`.
    static let plainOptions: Set<String> = [json.name, strict.name]

    /// True when `arguments` (parsed against ``spec``) ask for a plain inspection: `[--json] [--strict]` and a
    /// playlist file or `-`, which needs HLS alone.
    public static func isPlain(_ arguments: ParsedArguments) -> Bool {
        guard let location = arguments.positionals.first, arguments.positionals.count == 1 else { return false }
        return arguments.optionNames.isSubset(of: plainOptions) && !PlaylistLocation.isHTTP(location)
    }

    /// Writes the report: the text lines, or the JSON object with `extraJSON` members appended; `extraText`
    /// lines follow the text report.
    public static func write(
        _ inspection: Inspection, json: Bool, to output: TextOutput, extraJSON: [(String, JSONValue)] = [],
        extraText: [String] = []
    ) {
        if json {
            var value = inspection.json
            if case .object(let members) = value, !extraJSON.isEmpty { value = .object(members + extraJSON) }
            output.line(value.rendered())
        } else {
            for line in inspection.textLines + extraText { output.line(line) }
        }
    }

    /// What fails the run, counted for the closing line ("3 errors").
    public static func problems(_ inspection: Inspection) -> [String] {
        inspection.errorCount > 0 ? [DisplayFormat.count(inspection.errorCount, "error")] : []
    }

    /// 0 when there are no `problems`; else 1, after one line on standard error naming the playlist and them.
    public static func exitStatus(
        _ inspection: Inspection, problems: [String], commandPath: String, _ context: CommandContext
    ) -> Int32 {
        guard problems.isEmpty else {
            context.stderr.line("\(commandPath): \(inspection.name): \(problems.joined(separator: ", "))")
            return ExitCode.failure
        }
        return ExitCode.success
    }
}
