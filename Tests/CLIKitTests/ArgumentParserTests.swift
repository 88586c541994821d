import Testing

@testable import CLIKit

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
