import FilterzTestSupport
import Foundation
import RealClients
import Testing

/// Runs every README code block marked runnable, so the walk-through a newcomer follows keeps working.
///
/// Convention (also in the README's "Tests" section): a fenced `sh` block directly after a line
/// `<!-- runnable -->` is run with `bash -e`, one command per line, in a fresh temporary folder holding a
/// symlink to the checkout's `SampleMedia`, with the debug `filterz` first on `PATH`; within 120 s.
@Suite(.slow) struct ReadmeCommandsTests {
    struct Block: CustomTestStringConvertible, Sendable {
        var line: Int
        var commands: String
        var testDescription: String { "README.md:\(line): \(commands.split(separator: "\n").first ?? "")" }
    }

    static let marker = "<!-- runnable -->"
    static var readme: URL { SharedData.packageRoot.appendingPathComponent("README.md") }
    static var binaryFolder: URL {
        URL(fileURLWithPath: FilterzChild.binary ?? "/nonexistent/filterz").deletingLastPathComponent()
    }

    /// The runnable blocks of README.md, in order.
    static func runnableBlocks(of text: String) -> [Block] {
        let lines = text.components(separatedBy: "\n")
        var blocks: [Block] = []
        var index = 0
        while index < lines.count {
            defer { index += 1 }
            guard lines[index].trimmingCharacters(in: .whitespaces) == marker, index + 1 < lines.count,
                lines[index + 1].hasPrefix("```")
            else { continue }
            var body: [String] = []
            var cursor = index + 2
            while cursor < lines.count, !lines[cursor].hasPrefix("```") {
                body.append(lines[cursor])
                cursor += 1
            }
            blocks.append(Block(line: index + 2, commands: body.joined(separator: "\n")))
            index = cursor
        }
        return blocks
    }

    static let blocks: [Block] = {
        guard let text = try? String(contentsOf: readme, encoding: .utf8) else { return [] }
        return runnableBlocks(of: text)
    }()

    @Test func theReadmeHasRunnableBlocksForTheWalkThrough() {
        #expect(Self.blocks.count >= 3, "expected the walk-through's runnable blocks in README.md")
        let all = Self.blocks.map(\.commands).joined(separator: "\n")
        for command in ["filterz record", "filterz package", "filterz simulate", "filterz preview", "filterz inspect"] {
            #expect(all.contains(command), "no runnable '\(command)' in README.md")
        }
    }

    @Test func theMarkerIsFoundOnlyBeforeAFencedBlock() {
        let text =
            "a\n<!-- runnable -->\n```sh\necho one\necho two\n```\n<!-- runnable -->\nnot a block\n```sh\nno\n```\n"
        let found = Self.runnableBlocks(of: text)
        #expect(found.count == 1)
        #expect(found.first?.commands == "echo one\necho two")
    }

    @Test(
        .enabled(
            if: FileManager.default.isExecutableFile(atPath: binaryFolder.appendingPathComponent("filterz").path),
            "needs the debug filterz binary (swift build)"),
        .serialized, arguments: blocks)
    func runnableReadmeBlockSucceeds(_ block: Block) throws {
        let folder = try TemporaryFolder(prefix: "filterz-readme")
        try FileManager.default.createSymbolicLink(
            at: folder.url.appendingPathComponent("SampleMedia"),
            withDestinationURL: SharedData.packageRoot.appendingPathComponent("SampleMedia"))
        let script = folder.url.appendingPathComponent("block.sh")
        try Data(("set -e\n" + block.commands + "\n").utf8).write(to: script)
        let path = Self.binaryFolder.path + ":" + (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin")
        let result = try ExternalTool.run(
            "bash", ["-c", "cd \"$1\" && PATH=\"$2\" exec bash -e block.sh", "bash", folder.url.path, path],
            timeoutSeconds: 120)
        #expect(result.exitCode == 0, "block failed (exit \(result.exitCode)):\n\(result.stdout)\n\(result.stderr)")
    }
}
