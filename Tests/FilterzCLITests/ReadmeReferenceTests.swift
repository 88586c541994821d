import FilterzTestSupport
import Foundation
import Testing

@testable import FilterzCLI

/// The README's command reference against the commands themselves: every command and subcommand has a
/// section, and every option its `--help` lists (long and short names) is documented there, so the
/// reference cannot fall behind the code.
@Suite struct ReadmeReferenceTests {
    /// The "Command reference" section of README.md (up to the next level-2 heading).
    static let reference: String = {
        let text = (try? String(contentsOf: SharedData.packageRoot.appendingPathComponent("README.md"), encoding: .utf8)) ?? ""
        guard let start = text.range(of: "\n## Command reference") else { return "" }
        let rest = text[start.upperBound...]
        let end = rest.range(of: "\n## ")?.lowerBound ?? rest.endIndex
        return String(rest[..<end])
    }()

    struct Entry: CustomTestStringConvertible, Sendable {
        var path: String
        var options: [String]
        var testDescription: String { path }
    }

    /// Every runnable command as `filterz name [sub]`, with the option names its help screen shows.
    static let entries: [Entry] = {
        var entries: [Entry] = []
        var seen: Set<String> = []
        func visit(_ command: Command, prefix: String) {
            let path = prefix + " " + command.spec.name
            guard seen.insert(path).inserted else { return }
            if command.subcommands.isEmpty || !command.spec.options.isEmpty {
                entries.append(Entry(path: path, options: command.spec.options.flatMap(\.names)))
            }
            for sub in command.subcommands { visit(sub, prefix: path) }
        }
        for command in CLI.commands { visit(command, prefix: "filterz") }
        return entries
    }()

    @Test func everyCommandHasAReferenceSection() {
        let found = !Self.reference.isEmpty
        #expect(found, "README.md has no '## Command reference' section")
        let headings = Self.reference.split(separator: "\n").filter { $0.hasPrefix("### ") }.joined(separator: "\n")
        for command in CLI.commands {
            #expect(headings.contains("`filterz \(command.spec.name)"), "no ### heading for filterz \(command.spec.name)")
        }
    }

    @Test(arguments: entries)
    func everyOptionOfTheHelpScreenIsDocumented(_ entry: Entry) throws {
        // The help screen is what a user sees; the spec's names must all be on it.
        let out = CapturedOutput(), err = CapturedOutput()
        let arguments = entry.path.split(separator: " ").dropFirst().map(String.init) + ["--help"]
        #expect(CLI.run(arguments: arguments, stdout: out, stderr: err) == 0, "\(entry.path) --help: \(err.text)")
        for name in entry.options {
            #expect(out.text.contains(name), "\(entry.path) --help does not show \(name)")
            let documented = Self.reference.contains("`\(name)")
            #expect(documented, "README's command reference does not document \(entry.path) \(name)")
        }
        if entry.path.split(separator: " ").count > 2 {
            let named = Self.reference.contains("`\(entry.path)")
            #expect(named, "README's command reference does not name `\(entry.path)`")
        }
    }
}
