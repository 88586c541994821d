import CLIKit
import HLS
import HTTPClient
import Inspect
import StreamAudit

/// `filterz inspect`: parse, validate and summarise an HLS playlist from a file, a URL or standard input; with
/// `--recursive` its children, with `--deep` its segments. A plain inspection of a file or standard input runs
/// in the lean `filterz` itself (`Sources/filterz/main.swift`, ``InspectCommandLine/isPlain(_:)``) and gives the
/// same output.
enum InspectCommand {
    static var command: Command {
        Command(InspectCommandLine.spec, action: { arguments, context in try run(arguments, context) })
    }

    static func run(_ arguments: ParsedArguments, _ context: CommandContext) throws(CLIError) -> Int32 {
        let location = try arguments.positional(0, "playlist")
        var headers: [(name: String, value: String)] = []
        for text in try arguments.get(InspectCommandLine.header) {
            headers.append(try ResourceLoader.parseHeader(text))
        }
        var loader = ResourceLoader(headers: headers, headerOrigin: HTTPTransfer.origin(of: location))
        loader.timeoutSeconds = try arguments.get(InspectCommandLine.timeout)
        let strict = try arguments.get(InspectCommandLine.strict)
        let deep = try DeepOptions(arguments)
        let recursive = try arguments.get(InspectCommandLine.recursive) || deep != nil

        let bytes = try loader.load(location, readStandardInput: context.readStandardInput)
        let inspection = Inspection(
            location: location, bytes: bytes, strict: strict, recursive: recursive, loader: loader)

        var audit: AuditReport?
        if let deep, let playlist = inspection.result.playlist {
            audit = deep.run(
                playlist: playlist, location: location, name: inspection.name, children: inspection.children,
                loader: loader, progress: context.stderr)
        }
        InspectCommandLine.write(
            inspection, json: try arguments.get(InspectCommandLine.json), to: context.stdout,
            extraJSON: audit.map { [("deep", DeepJSONReport.value($0))] } ?? [],
            extraText: audit.map { [""] + DeepTextReport.lines($0) } ?? [])
        if let audit, let path = deep?.reportPath {
            try DeepHTMLReport.write(audit, title: inspection.name, to: path)
        }
        var problems = InspectCommandLine.problems(inspection)
        if let audit, audit.mustCount > 0 { problems.append(DisplayFormat.count(audit.mustCount, "must-fix finding")) }
        return InspectCommandLine.exitStatus(
            inspection, problems: problems, commandPath: arguments.commandPath, context)
    }
}
