import CLIKit
import FilterzCLI
import FilterzTestSupport
import Foundation
import RealClients
import Testing

/// Every `filterz` command line in README.md's code blocks, the examples that are shown but not run included,
/// against the command specs: the command path exists and the argument parser accepts its options and
/// arguments. Nothing is run, so an example may name files, hosts and folders that do not exist here. The
/// `EXAMPLES:` of every help screen (and so of `docs/CLI.md`) are held to the same check.
///
/// A line is split as a shell splits a simple command (quotes, backslashes, a `#` comment, a `\` at the end
/// joining the next line), then cut into commands at `|`, `||`, `&`, `&&` and `;`; redirections (`> FILE`,
/// `2>&1`, …) are left out. A command runs `filterz` when its first word, after an optional `$ ` prompt and
/// `NAME=value` assignments, is `filterz` or a path ending in `/filterz`.
@Suite struct ReadmeExampleTests {
    struct Example: CustomTestStringConvertible, Sendable {
        var line: Int
        var text: String
        var testDescription: String { "README.md:\(line): \(text)" }
    }

    static var readme: URL { SharedData.packageRoot.appendingPathComponent("README.md") }

    /// The lines inside the fenced code blocks of `text` that run `filterz`, with their line numbers.
    static func examples(in text: String) -> [Example] {
        var examples: [Example] = []
        var inBlock = false
        var pending: (line: Int, text: String)?
        for (offset, raw) in text.components(separatedBy: "\n").enumerated() {
            if raw.trimmingCharacters(in: .whitespaces).hasPrefix("```") {
                inBlock.toggle()
                pending = nil
                continue
            }
            guard inBlock else { continue }
            let start = pending?.line ?? offset + 1
            let line = (pending.map { $0.text + " " } ?? "") + raw.trimmingCharacters(in: .whitespaces)
            if line.hasSuffix("\\") {
                pending = (start, line.dropLast().trimmingCharacters(in: .whitespaces))
                continue
            }
            pending = nil
            // A line the splitter cannot read is kept, so that its test reports why.
            if (try? invocations(line).isEmpty) != true {
                examples.append(Example(line: start, text: line))
            }
        }
        return examples
    }

    /// The arguments (after the program name) of each `filterz` command on a shell line, in order.
    static func invocations(_ line: String) throws -> [[String]] {
        let control: Set<String> = ["|", "||", "&", "&&", ";"]
        let redirections: Set<String> = [">", ">>", "<", "2>", "2>>", "&>"]
        var commands: [[String]] = [[]]
        var words = try shellWords(line)[...]
        while let word = words.popFirst() {
            if control.contains(word) {
                commands.append([])
            } else if redirections.contains(word) {
                _ = words.popFirst()  // the file
            } else if word != "2>&1" {
                commands[commands.count - 1].append(word)
            }
        }
        return commands.compactMap { command in
            var words = command[...]
            if words.first == "$" { words = words.dropFirst() }
            while let first = words.first, isAssignment(first) { words = words.dropFirst() }
            guard let program = words.first, program == "filterz" || program.hasSuffix("/filterz") else { return nil }
            return Array(words.dropFirst())
        }
    }

    static func isAssignment(_ word: String) -> Bool {
        guard let equals = word.firstIndex(of: "="), equals != word.startIndex else { return false }
        return word[..<equals].allSatisfy { $0 == "_" || $0.isLetter || $0.isNumber }
    }

    struct SplitError: Error, CustomStringConvertible {
        var description: String
    }

    /// Splits a line into words as a POSIX shell does: single quotes keep everything, double quotes keep
    /// everything but a backslash before `"`, `\`, `$` or a backtick, a backslash outside quotes keeps the next
    /// character, an unquoted `#` at the start of a word begins a comment, and `|`, `&`, `;`, `<` and `>` make
    /// operator words of their own (`&&`, `>>`, `2>`, `2>&1`, …). Variables and globs are left as written.
    static func shellWords(_ line: String) throws -> [String] {
        var words: [String] = []
        var word = ""
        var inWord = false
        var characters = Array(line)[...]
        func finish() {
            if inWord { words.append(word) }
            word = ""
            inWord = false
        }
        while let character = characters.popFirst() {
            switch character {
            case " ", "\t":
                finish()
            case "#" where !inWord:
                return words
            case "'":
                inWord = true
                guard let end = characters.firstIndex(of: "'") else {
                    throw SplitError(description: "unterminated single quote")
                }
                word += String(characters[..<end])
                characters = characters[(end + 1)...]
            case "\"":
                inWord = true
                var closed = false
                while let next = characters.popFirst() {
                    if next == "\"" {
                        closed = true
                        break
                    }
                    if next == "\\", let escaped = characters.first, "\"\\$`".contains(escaped) {
                        word.append(escaped)
                        characters = characters.dropFirst()
                    } else {
                        word.append(next)
                    }
                }
                guard closed else { throw SplitError(description: "unterminated double quote") }
            case "\\":
                inWord = true
                if let next = characters.popFirst() { word.append(next) }
            case "|", "&", ";", "<", ">":
                var symbol = String(character)
                if character == ">", inWord, word == "2" {  // a redirection of standard error
                    symbol = "2>"
                    word = ""
                    inWord = false
                }
                finish()
                while let next = characters.first, "|&>".contains(next) || (symbol == "2>&" && next == "1") {
                    symbol.append(next)
                    characters = characters.dropFirst()
                }
                words.append(symbol)
            default:
                inWord = true
                word.append(character)
            }
        }
        finish()
        return words
    }

    /// Why `words` (a command line without the program name) is not a valid `filterz` command line, or nil when
    /// the command path exists and its spec accepts the options and arguments.
    static func problem(with words: [String]) -> String? {
        var commands = CLI.commands
        var command: Command?
        var path = "filterz"
        var remaining = words[...]
        while let word = remaining.first, !commands.isEmpty {
            if word == "--help" || word == "-h" { return nil }
            guard let sub = commands.first(where: { $0.spec.name == word }) else {
                let names = commands.map(\.spec.name).joined(separator: ", ")
                return "'\(path)' has no command '\(word)' (it has \(names))"
            }
            command = sub
            commands = sub.subcommands
            path += " " + word
            remaining = remaining.dropFirst()
        }
        guard let command else { return "no command after 'filterz'" }
        if remaining.prefix(while: { $0 != "--" }).contains(where: { $0 == "--help" || $0 == "-h" }) { return nil }
        guard command.action != nil else { return "'\(path)' needs a subcommand" }
        do {
            _ = try ArgumentParser.parse(Array(remaining), spec: command.spec, commandPath: path)
            return nil
        } catch {
            return error.description
        }
    }

    /// The problems of every `filterz` command on `line`, or a line saying why it cannot be split.
    static func problems(on line: String) -> [String] {
        do {
            return try invocations(line).compactMap { problem(with: $0) }
        } catch {
            return ["\(error)"]
        }
    }

    static let readmeExamples: [Example] = {
        guard let text = try? String(contentsOf: readme, encoding: .utf8) else { return [] }
        return examples(in: text)
    }()

    @Test(arguments: readmeExamples)
    func readmeExampleIsAcceptedByTheCommandSpecs(_ example: Example) {
        for problem in Self.problems(on: example.text) {
            Issue.record("README.md:\(example.line): \(problem)")
        }
    }

    @Test func theReadmeShowsAnExampleOfEveryCommand() throws {
        try #require(!Self.readmeExamples.isEmpty, "no filterz command line found in README.md's code blocks")
        let used = Set(Self.readmeExamples.flatMap { (try? Self.invocations($0.text)) ?? [] }.compactMap(\.first))
        for command in CLI.commands {
            #expect(used.contains(command.spec.name), "README.md has no example of filterz \(command.spec.name)")
        }
    }

    /// Every `EXAMPLES:` line of every help screen, with the command whose screen shows it.
    static let helpExamples: [String] = {
        var examples: [String] = []
        func visit(_ command: Command) {
            examples += command.spec.examples
            command.subcommands.forEach(visit)
        }
        CLI.commands.forEach(visit)
        return examples
    }()

    @Test(arguments: helpExamples)
    func helpScreenExampleIsAcceptedByTheCommandSpecs(_ example: String) throws {
        #expect(try !Self.invocations(example).isEmpty, "no filterz command in the example")
        for problem in Self.problems(on: example) {
            Issue.record("\(problem)")
        }
    }

    @Test(arguments: [
        (
            #"filterz inspect -r -H 'Authorization: Bearer 1' https://h/m.m3u8?t=a"#,
            [["inspect", "-r", "-H", "Authorization: Bearer 1", "https://h/m.m3u8?t=a"]]
        ),
        (#"$ filterz simulate m.json --json > out.json"#, [["simulate", "m.json", "--json"]]),
        (#".build/release/filterz serve out --port 8080    # then open it"#, [["serve", "out", "--port", "8080"]]),
        (#"FILTERZ_TOKEN_SECRET=s filterz sign "a b" 2>&1 | head"#, [["sign", "a b"]]),
        (#"filterz preset show a\ b "say \"hi\"" && echo done"#, [["preset", "show", "a b", #"say "hi""#]]),
        (#"curl -s https://h/live.m3u8 | filterz inspect - 2> errors.txt"#, [["inspect", "-"]]),
        (#"filterz serve a; filterz serve b>log"#, [["serve", "a"], ["serve", "b"]]),
        ("make demo", []),
        ("cd filterz && make test", []),
        ("# filterz inspect x", []),
    ])
    func aShellLineIsSplitAsTheShellSplitsIt(_ line: String, _ expected: [[String]]) throws {
        #expect(try Self.invocations(line) == expected)
    }

    @Test(arguments: [
        "filterz inspect --no-such-option master.m3u8",
        "filterz inspect",
        "filterz serve out --port",
        "filterz preset show a b",
        "filterz preset",
        "filterz publish out",
        "filterz photo rotate a.jpg",
        "curl -s https://h/x.m3u8 | filterz inspect --jsn -",
        "filterz inspect 'unterminated",
    ])
    func aWrongExampleIsCaught(_ line: String) {
        #expect(!Self.problems(on: line).isEmpty, "\(line) was accepted")
    }

    @Test func examplesAreFoundOnlyInsideCodeBlocks() {
        let text = """
            Run `filterz inspect x` first.
            filterz inspect outside.m3u8
            ```sh
            filterz inspect inside.m3u8
            make test
            filterz serve out \\
              --port 8080
            ```
            """
        let found = Self.examples(in: text)
        #expect(found.map(\.line) == [4, 6])
        #expect(found.map(\.text) == ["filterz inspect inside.m3u8", "filterz serve out --port 8080"])
    }
}
