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

    /// An `inspect` command line checked whole (headers, timeout, `--deep`'s options) before the playlist is
    /// read or fetched.
    struct Plan {
        var location: String
        var loader: ResourceLoader
        var strict: Bool
        var recursive: Bool
        var json: Bool
        var deep: DeepOptions?
        /// `filterz inspect`, as the exit status's hint names it.
        var commandPath: String

        static func parse(_ arguments: ParsedArguments) throws(CLIError) -> Plan {
            let location = try arguments.positional(0, "playlist")
            var headers: [(name: String, value: String)] = []
            for text in try arguments.get(InspectCommandLine.header) {
                headers.append(try ResourceLoader.parseHeader(text))
            }
            var loader = ResourceLoader(headers: headers, headerOrigin: HTTPTransfer.origin(of: location))
            loader.timeoutSeconds = try arguments.get(InspectCommandLine.timeout)
            let deep = try DeepOptions(arguments)
            return Plan(
                location: location, loader: loader, strict: try arguments.get(InspectCommandLine.strict),
                recursive: try arguments.get(InspectCommandLine.recursive) || deep != nil,
                json: try arguments.get(InspectCommandLine.json), deep: deep, commandPath: arguments.commandPath)
        }
    }

    static func run(_ arguments: ParsedArguments, _ context: CommandContext) throws(CLIError) -> Int32 {
        try run(Plan.parse(arguments), context)
    }

    static func run(_ plan: Plan, _ context: CommandContext) throws(CLIError) -> Int32 {
        let location = plan.location
        let bytes = try plan.loader.load(location, readStandardInput: context.readStandardInput)
        let inspection = Inspection(
            location: location, bytes: bytes, strict: plan.strict, recursive: plan.recursive, loader: plan.loader)
        var audit: AuditReport?
        if let deep = plan.deep, let playlist = inspection.result.playlist {
            audit = deep.run(
                playlist: playlist, location: location, name: inspection.name, children: inspection.children,
                loader: plan.loader, progress: context.stderr)
        }
        InspectCommandLine.write(
            inspection, json: plan.json, to: context.stdout,
            extraJSON: audit.map { [("deep", DeepJSONReport.value($0))] } ?? [],
            extraText: audit.map { [""] + DeepTextReport.lines($0) } ?? [])
        if let audit, let path = plan.deep?.reportPath {
            try DeepHTMLReport.write(audit, title: inspection.name, to: path)
        }
        var problems = InspectCommandLine.problems(inspection)
        if let audit, audit.mustCount > 0 { problems.append(DisplayFormat.count(audit.mustCount, "must-fix finding")) }
        return InspectCommandLine.exitStatus(inspection, problems: problems, commandPath: plan.commandPath, context)
    }
}
