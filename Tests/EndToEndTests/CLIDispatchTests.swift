import Testing

@testable import CLIKit
@testable import FilterzCLI

/// `filterz`'s tree of commands: the command list names each command once, and every command answers help (the
/// plumbing itself, on a small tree: CLIKitTests' `CommandRunnerTests`).
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
}
