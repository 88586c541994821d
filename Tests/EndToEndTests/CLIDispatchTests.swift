import Testing

@testable import CLIKit
@testable import FilterzCLI
@testable import Inspect

/// The command-line plumbing every command shares: dispatch, help, usage errors and exit codes.
@Suite struct CLIDispatchTests {
    func run(_ arguments: String...) -> (code: Int32, out: String, err: String) { runFilterz(arguments) }

    @Test func noArgumentsPrintsTheCommandListAndSucceeds() {
        let result = run()
        #expect(result.code == 0)
        #expect(result.out.hasPrefix("OVERVIEW: "))
        for command in CLI.commands {
            #expect(result.out.contains("  \(command.spec.name) "), "missing \(command.spec.name)")
        }
    }

    @Test func theCommandListNamesEachCommandOnce() {
        let names = CLI.commands.map(\.spec.name)
        #expect(Set(names).count == names.count, "listed twice: \(names)")
        let help = run().out
        let subcommands = help.range(of: "SUBCOMMANDS:\n").map { help[$0.upperBound...] } ?? ""
        let listing = subcommands.split(separator: "\n").prefix { $0.hasPrefix("  ") && !$0.hasPrefix("  See") }
        #expect(listing.count == names.count, "filterz --help lists \(listing.count) commands: \(listing)")
    }

    @Test(arguments: CLI.commands.map(\.spec.name))
    func everyCommandAnswersHelpWithUsageAndOptions(name: String) {
        for form in [[name, "--help"], [name, "-h"], ["help", name]] {
            let result = runFilterz(form)
            #expect(result.code == 0, "\(form)")
            #expect(result.out.contains("USAGE: filterz \(name)"), "\(form)")
            #expect(result.out.contains("-h, --help"), "\(form)")
            #expect(result.err.isEmpty)
        }
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
    }

    @Test func versionIsPrinted() {
        let result = run("--version")
        #expect(result.code == 0)
        #expect(result.out == CLI.version + "\n")
    }
}

/// The argument parser on its own: option forms, repeatable options, `--` and `-`.
@Suite struct ArgumentParserTests {
    let spec = CommandSpec(
        name: "demo", abstract: "A test command.",
        arguments: [ArgumentSpec("input", help: "in"), ArgumentSpec("rest", help: "more", isVariadic: true)],
        options: [
            .flag("--json", help: "j"),
            .value("--out", "-o", placeholder: "dir", help: "o"),
            .repeatable("--header", placeholder: "h", help: "h"),
        ])

    @Test func acceptsSpaceAndEqualsFormsAndShortAliases() throws {
        let parsed = try ArgumentParser.parse(
            ["a", "--out=x", "-o", "y", "--json", "--header", "A: 1", "--header=B: 2", "b"], spec: spec,
            commandPath: "demo")
        #expect(parsed.positionals == ["a", "b"])
        #expect(parsed.value("--out") == "y")
        #expect(parsed.flag("--json"))
        #expect(parsed.values("--header") == ["A: 1", "B: 2"])
    }

    @Test func doubleDashMakesTheRestPositionalAndDashIsStandardInput() throws {
        let parsed = try ArgumentParser.parse(["-", "--", "--json"], spec: spec, commandPath: "demo")
        #expect(parsed.positionals == ["-", "--json"])
        #expect(!parsed.flag("--json"))
    }

    @Test func negativeNumbersArePositionals() throws {
        let parsed = try ArgumentParser.parse(["-12.5"], spec: spec, commandPath: "demo")
        #expect(parsed.positionals == ["-12.5"])
    }

    @Test func valueOptionWithoutValueIsAUsageError() {
        #expect(throws: CLIError.usage("--out needs a value <dir>")) {
            try ArgumentParser.parse(["a", "--out"], spec: spec, commandPath: "demo")
        }
    }

    @Test func flagWithValueIsAUsageError() {
        #expect(throws: CLIError.usage("--json takes no value")) {
            try ArgumentParser.parse(["a", "--json=1"], spec: spec, commandPath: "demo")
        }
    }

    @Test func numericOptionsAreRangeChecked() throws {
        let parsed = ParsedArguments(options: ["--fps": ["-1"], "--rate": ["abc"]])
        let fps = Option.integer("--fps", placeholder: "n", default: 30, in: 1...240, help: "f")
        let rate = Option.decimal("--rate", placeholder: "x", default: 1, in: 0...10, help: "r")
        let absent = Option.integer("--absent", placeholder: "n", default: 30, in: 1...240, help: "a")
        #expect(throws: CLIError.self) { try parsed.get(fps) }
        #expect(throws: CLIError.self) { try parsed.get(rate) }
        #expect(try parsed.get(absent) == 30)
    }
}
