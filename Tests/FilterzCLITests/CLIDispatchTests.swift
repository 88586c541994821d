import Testing

@testable import CLIKit
@testable import FilterzCLI
@testable import Inspect

/// The command-line plumbing every command shares: dispatch, help, usage errors and exit codes.
@Suite struct CLIDispatchTests {
    struct Run {
        var code: Int32
        var stdout: String
        var stderr: String
    }

    func run(_ arguments: String...) -> Run {
        let run = runFilterz(arguments)
        return Run(code: run.code, stdout: run.out, stderr: run.err)
    }

    @Test func noArgumentsPrintsTheCommandListAndSucceeds() {
        let result = run()
        #expect(result.code == 0)
        #expect(result.stdout.hasPrefix("OVERVIEW: "))
        for command in CLI.commands {
            #expect(result.stdout.contains("  \(command.spec.name) "), "missing \(command.spec.name)")
        }
    }

    @Test func theCommandListNamesEachCommandOnce() {
        let names = CLI.commands.map(\.spec.name)
        #expect(Set(names).count == names.count, "listed twice: \(names)")
        let help = run().stdout
        let subcommands = help.range(of: "SUBCOMMANDS:\n").map { help[$0.upperBound...] } ?? ""
        let listing = subcommands.split(separator: "\n").prefix { $0.hasPrefix("  ") && !$0.hasPrefix("  See") }
        #expect(listing.count == names.count, "filterz --help lists \(listing.count) commands: \(listing)")
    }

    @Test(arguments: CLI.commands.map(\.spec.name))
    func everyCommandAnswersHelpWithUsageAndOptions(name: String) {
        for form in [[name, "--help"], [name, "-h"], ["help", name]] {
            let out = CapturedOutput(), err = CapturedOutput()
            let code = CLI.run(arguments: form, stdout: out, stderr: err)
            #expect(code == 0, "\(form)")
            #expect(out.text.contains("USAGE: filterz \(name)"), "\(form)")
            #expect(out.text.contains("-h, --help"), "\(form)")
            #expect(err.text.isEmpty)
        }
    }

    /// A command group's help screen ends with "See 'filterz preset help <subcommand>'": that line must work.
    @Test func helpBelowACommandGroupShowsTheSubcommandsHelp() {
        let group = run("preset", "--help")
        #expect(group.stdout.contains("See 'filterz preset help <subcommand>'"))
        for name in ["show", "check"] {
            let result = run("preset", "help", name)
            #expect(result.code == 0, "\(result.stderr)")
            #expect(result.stdout.contains("USAGE: filterz preset \(name)"))
            #expect(result.stderr.isEmpty)
        }
        let unknown = run("preset", "help", "frobnicate")
        #expect(unknown.code == 2)
        #expect(unknown.stderr.hasPrefix("Error: unknown command 'frobnicate'\n"))
    }

    @Test func unknownCommandIsAUsageError() {
        let result = run("frobnicate")
        #expect(result.code == 2)
        #expect(result.stderr.hasPrefix("Error: unknown command 'frobnicate'\n"))
        #expect(result.stdout.isEmpty)
    }

    @Test func unknownOptionNamesTheOptionAndTheCommand() {
        let result = run("inspect", "--frobnicate", "x.m3u8")
        #expect(result.code == 2)
        #expect(result.stderr.contains("unknown option '--frobnicate' for 'filterz inspect'"))
        #expect(result.stderr.contains("See 'filterz inspect --help'"))
    }

    @Test func missingPositionalIsAUsageError() {
        let result = run("inspect")
        #expect(result.code == 2)
        #expect(result.stderr.contains("missing argument <playlist>"))
    }

    @Test func versionIsPrinted() {
        let result = run("--version")
        #expect(result.code == 0)
        #expect(result.stdout == CLI.version + "\n")
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
