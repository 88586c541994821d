import CLIKit
import FilterKit
import Foundation
import JSON

/// `filterz preset show|check`: print a preset's 12 values, or validate a preset file key by key.
enum PresetCommand {
    static let showJSON = Option.flag(
        "--json", help: "Print the preset as JSON with all 12 keys (the app's wire format).")

    static var command: Command {
        Command(
            CommandSpec(
                name: "preset",
                abstract: "Show or check filter presets (the 12 Filterz adjustment values).",
                examples: ["filterz preset show warm-film", "filterz preset check my-look.json"]),
            subcommands: [show, check])
    }

    static var show: Command {
        Command(
            CommandSpec(
                name: "show",
                abstract: "Print a preset's 12 values (after clamping and the legacy rules), in the order they apply.",
                discussion: """
                    <preset> is a path to a preset .json file (anything containing / or ending in .json) or a \
                    name, looked up as <name>.json in $FILTERZ_PRESETS, then SampleMedia/presets in the folder of \
                    the executable and every folder above it, then ./SampleMedia/presets.
                    """,
                arguments: [ArgumentSpec("preset", help: "A preset name (e.g. warm-film) or a preset file path.")],
                options: [showJSON.spec],
                examples: ["filterz preset show noir", "filterz preset show --json ./looks/teal.json"]),
            action: { args, context in
                let name = try args.positional(0, "preset"), json = try args.get(Self.showJSON)
                let preset = try PresetLocator(context).load(name)
                if json {
                    context.stdout.line(String(decoding: preset.jsonBytes(), as: UTF8.self))
                    return ExitCode.success
                }
                context.stdout.line(preset.description.isEmpty ? preset.name : "\(preset.name): \(preset.description)")
                if preset.values.isNeutral { context.stdout.line("(neutral: renders every frame unchanged)") }
                for key in FilterValues.Key.allCases {
                    context.stdout.line(row(key, preset.values[key]))
                }
                return ExitCode.success
            })
    }

    static var check: Command {
        Command(
            CommandSpec(
                name: "check",
                abstract: "Validate a preset file: one line per problem; exit 1 when any key is invalid.",
                discussion: """
                    Errors (exit 1): invalid JSON, a duplicate key, a lone surrogate escape, a number beyond \
                    1.8e308 (each with its line), a value that is not a number, "values" or the top level not an \
                    object, a name or description that is not a string. Warnings (exit 0): unknown keys, numbers \
                    outside their range (the app clamps them). Notes: the legacy rules (all 12 values 0 means \
                    neutral; a temperature <= 0 means 6500 K).
                    """,
                arguments: [ArgumentSpec("file", help: "The preset .json file to check.")],
                examples: ["filterz preset check SampleMedia/presets/warm-film.json"]),
            action: { args, context in
                let path = try args.positional(0, "file")
                let bytes = try PresetLocator.read(path)
                let report = PresetCheck.check(bytes)
                for problem in report.problems {
                    let line = "\(path): \(problem.description)"
                    if problem.severity == .error { context.stderr.line(line) } else { context.stdout.line(line) }
                }
                let errors = report.problems.filter { $0.severity == .error }.count
                let warnings = report.problems.filter { $0.severity == .warning }.count
                if errors > 0 {
                    context.stderr.line("\(path): invalid preset (\(errors) error\(errors == 1 ? "" : "s"))")
                    return ExitCode.failure
                }
                context.stdout.line(
                    "\(path): valid preset\(warnings > 0 ? " (\(warnings) warning\(warnings == 1 ? "" : "s"))" : "")")
                return ExitCode.success
            })
    }

    /// `  saturation        0.9      (0…2, default 1)`
    static func row(_ key: FilterValues.Key, _ value: Double) -> String {
        let name = key.rawValue.padding(toLength: 17, withPad: " ", startingAt: 0)
        let number = format(value) + (key.unit.isEmpty ? "" : " " + key.unit)
        let marker = value == key.defaultValue ? " " : "*"
        return
            "\(marker) \(name) \(number.padding(toLength: 10, withPad: " ", startingAt: 0)) (\(key.rangeDescription), default \(format(key.defaultValue)))"
    }

    /// At most four decimals, without trailing zeros: `0.85`, `4800`, `-0.125`.
    static func format(_ value: Double) -> String { fixedNumber(value, digits: 4, trimmingZeros: true) }
}
