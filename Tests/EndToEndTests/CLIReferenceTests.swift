import FilterzTestSupport
import Foundation
import RealClients
import Testing

@testable import CLIKit
@testable import FilterzCLI
@testable import Inspect

/// `docs/CLI.md` against the commands themselves: the file is exactly what `filterz help --markdown` renders
/// from the specs, and it holds the golden help screen of every command (each `--help` prints its section, so a
/// changed screen shows up as a diff of the docs); every option of a spec is on its help screen, and the README
/// introduces every command.
@Suite struct CLIReferenceTests {
    static func text(_ relativePath: String) -> String {
        let url = SharedData.packageRoot.appendingPathComponent(relativePath)
        return (try? String(contentsOf: url, encoding: .utf8)) ?? ""
    }

    struct Entry: CustomTestStringConvertible, Sendable {
        var path: [String]
        var options: [String]
        var testDescription: String { (["filterz"] + path).joined(separator: " ") }
    }

    /// `filterz` itself and every command and subcommand, with the option names of its spec.
    static let entries: [Entry] = {
        var entries: [Entry] = []
        func visit(_ command: Command, path: [String]) {
            entries.append(Entry(path: path, options: command.spec.options.flatMap(\.names)))
            for sub in command.subcommands { visit(sub, path: path + [sub.spec.name]) }
        }
        visit(CLI.root, path: [])
        return entries
    }()

    @Test func docsCLIIsWhatTheSpecsRender() throws {
        let run = runFilterz(["help", "--markdown"])
        #expect(run.code == 0, "\(run.err)")
        let onDisk = Self.text("docs/CLI.md")
        try #require(!onDisk.isEmpty, "docs/CLI.md is missing")
        if onDisk != run.out {
            let disk = onDisk.split(separator: "\n", omittingEmptySubsequences: false)
            let rendered = run.out.split(separator: "\n", omittingEmptySubsequences: false)
            let line =
                zip(disk, rendered).enumerated().first { $0.element.0 != $0.element.1 }?.offset
                ?? min(disk.count, rendered.count)
            let found = line < disk.count ? String(disk[line]) : "(end of file)"
            let expected = line < rendered.count ? String(rendered[line]) : "(end of file)"
            Issue.record(
                "docs/CLI.md is stale at line \(line + 1) (run `make docs`): has \"\(found)\", the specs give \"\(expected)\""
            )
        }
    }

    /// The help screen docs/CLI.md shows under the heading of `entry`.
    static func referenceScreen(_ entry: Entry) -> String? {
        let reference = text("docs/CLI.md")
        guard let start = reference.range(of: "\n## `\(entry.testDescription)`\n\n```text\n"),
            let end = reference.range(of: "\n```\n", range: start.upperBound..<reference.endIndex)
        else { return nil }
        return String(reference[start.upperBound...end.lowerBound])
    }

    /// The golden help screens: `--help` of every command prints exactly its section of docs/CLI.md, which shows
    /// every option of the command's spec.
    @Test(arguments: entries)
    func everyHelpScreenIsItsSectionOfTheReferenceWithEveryOption(_ entry: Entry) throws {
        let help = runFilterz(entry.path + ["--help"])
        #expect(help.code == 0, "\(help.err)")
        let golden = try #require(Self.referenceScreen(entry), "docs/CLI.md has no section for \(entry)")
        #expect(help.out == golden, "\(entry) --help is not its section of docs/CLI.md (run `make docs`)")
        for name in entry.options {
            #expect(help.out.contains(name), "\(entry) --help does not show \(name)")
        }
    }

    @Test func theReadmeIntroducesEveryCommandAndLinksTheReference() {
        let readme = Self.text("README.md")
        #expect(readme.contains("docs/CLI.md"), "README.md does not link docs/CLI.md")
        for command in CLI.commands {
            #expect(
                readme.contains("`filterz \(command.spec.name)"),
                "README.md never introduces filterz \(command.spec.name)")
        }
    }
}
