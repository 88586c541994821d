/// Renders a command's `--help` screen (OVERVIEW / USAGE / ARGUMENTS / OPTIONS / SUBCOMMANDS / EXAMPLES).
enum HelpScreen {
    static let helpOption = OptionSpec.flag("--help", "-h", help: "Show help information.")
    private static let columnWidth = 28

    static func render(_ command: Command, path: String) -> String {
        let spec = command.spec
        var out = "OVERVIEW: \(spec.abstract)\n"
        if !spec.discussion.isEmpty { out += "\n\(spec.discussion)\n" }
        out += "\nUSAGE: \(usage(command, path: path))\n"
        if !spec.arguments.isEmpty {
            out += "\nARGUMENTS:\n"
            for argument in spec.arguments {
                out += row("<\(argument.name)>", argument.help)
            }
        }
        out += "\nOPTIONS:\n"
        for option in spec.options + [helpOption] {
            var help = option.help
            if let defaultValue = option.defaultValue { help += " (default: \(defaultValue))" }
            if case .repeatable = option.kind { help += " (repeatable)" }
            out += row(optionLabel(option), help)
        }
        if !command.subcommands.isEmpty {
            out += "\nSUBCOMMANDS:\n"
            for sub in command.subcommands {
                out += row(sub.spec.name, sub.spec.abstract)
            }
            out += "\n  See '\(path) help <subcommand>' for detailed help.\n"
        }
        if !spec.examples.isEmpty {
            out += "\nEXAMPLES:\n"
            for example in spec.examples { out += "  \(example)\n" }
        }
        return out
    }

    static func usage(_ command: Command, path: String) -> String {
        var parts = [path]
        if !command.subcommands.isEmpty { parts.append("<subcommand>") }
        if !command.spec.options.isEmpty { parts.append("[<options>]") }
        for argument in command.spec.arguments {
            var word = "<\(argument.name)>"
            if argument.isVariadic { word += " ..." }
            parts.append(argument.isOptional ? "[\(word)]" : word)
        }
        return parts.joined(separator: " ")
    }

    private static func optionLabel(_ option: OptionSpec) -> String {
        let names = option.names.sorted { $0.count < $1.count }.joined(separator: ", ")
        switch option.kind {
        case .flag: return names
        case .value(let placeholder), .repeatable(let placeholder): return "\(names) <\(placeholder)>"
        }
    }

    private static func row(_ label: String, _ help: String) -> String {
        let indent = String(repeating: " ", count: columnWidth + 2)
        let lines = help.split(separator: "\n", omittingEmptySubsequences: false)
        var out = "  " + label
        if label.count + 2 < columnWidth {
            out += String(repeating: " ", count: columnWidth - label.count)
        } else {
            out += "\n" + indent
        }
        out += lines.first.map(String.init) ?? ""
        for line in lines.dropFirst() { out += "\n" + indent + line }
        return out + "\n"
    }
}
