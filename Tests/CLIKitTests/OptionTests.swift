import Testing

@testable import CLIKit

/// Typed options: the default `--help` shows is the value read when the option is absent, and a value outside
/// what the option allows is a usage error naming it.
@Suite struct OptionTests {
    static let seed = Option.integer("--seed", placeholder: "n", default: 7, in: 0...9, help: "Seed.")
    static let at = Option.decimal("--at", placeholder: "s", default: 1.5, in: 0...10, help: "Time.")
    static let format = Option.choice("--format", placeholder: "f", from: ["ts", "fmp4"], default: "ts", help: "F.")
    static let json = Option.flag("--json", "-j", help: "JSON.")
    static let out = Option.required("--out", "-o", placeholder: "dir", help: "Out.")
    static let header = Option.repeatable("--header", placeholder: "h", help: "H.")
    static let spec = CommandSpec(
        name: "t", abstract: "t",
        options: [seed.spec, at.spec, format.spec, json.spec, out.spec, header.spec])

    func parse(_ words: [String]) throws(CLIError) -> ParsedArguments {
        try ArgumentParser.parse(words, spec: Self.spec, commandPath: "filterz t")
    }

    @Test func absentOptionsTakeTheDefaultTheHelpShows() throws {
        let args = try parse(["-o", "x"])
        #expect(try args.get(Self.seed) == 7 && Self.seed.spec.defaultValue == "7")
        #expect(try args.get(Self.at) == 1.5 && Self.at.spec.defaultValue == "1.5")
        #expect(try args.get(Self.format) == "ts" && Self.format.spec.defaultValue == "ts")
        #expect(try args.get(Self.json) == false)
        #expect(try args.get(Self.header) == [])
        #expect(try args.get(Self.out) == "x")
    }

    @Test func givenValuesAreReadWithTheirTypes() throws {
        let args = try parse([
            "--seed", "3", "--at", "2.25", "--format", "fmp4", "-j", "--out", "y", "--header", "a", "--header", "b",
        ])
        #expect(try args.get(Self.seed) == 3)
        #expect(try args.get(Self.at) == 2.25)
        #expect(try args.get(Self.format) == "fmp4")
        #expect(try args.get(Self.json))
        #expect(try args.get(Self.header) == ["a", "b"])
    }

    @Test(arguments: [
        (["--seed", "10"], "--seed expects a whole number in 0…9, got '10'"),
        (["--seed", "x"], "--seed expects a whole number in 0…9, got 'x'"),
        (["--at", "inf"], "--at expects a number in 0.0…10.0, got 'inf'"),
        (["--format", "mkv"], "--format expects one of ts, fmp4, got 'mkv'"),
    ])
    func valuesOutsideTheOptionAreUsageErrors(words: [String], message: String) throws {
        let args = try parse(words + ["-o", "x"])
        let error = #expect(throws: CLIError.self) {
            _ = try args.get(Self.seed)
            _ = try args.get(Self.at)
            _ = try args.get(Self.format)
        }
        #expect(error?.description == message)
    }

    @Test func aMissingRequiredOptionIsNamed() throws {
        let args = try parse([])
        #expect(throws: CLIError.usage("missing option --out")) { try args.get(Self.out) }
    }
}
