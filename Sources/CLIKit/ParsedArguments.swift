/// The arguments of one command after parsing: positionals in order, options by canonical name.
public struct ParsedArguments: Sendable {
    public var positionals: [String] = []
    /// Canonical option name (`--out`) → every value given, in order (flags hold one empty string per use).
    var options: [String: [String]] = [:]
    /// The command path for messages, e.g. `filterz inspect`.
    public var commandPath: String = "filterz"

    public init(positionals: [String] = [], options: [String: [String]] = [:], commandPath: String = "filterz") {
        self.positionals = positionals
        self.options = options
        self.commandPath = commandPath
    }

    /// The canonical names of every option given.
    public var optionNames: Set<String> { Set(options.keys) }

    /// The positional argument at `index`, or a usage error naming `argumentName`.
    public func positional(_ index: Int, _ argumentName: String) throws(CLIError) -> String {
        guard index < positionals.count else {
            throw .usage("missing argument <\(argumentName)>")
        }
        return positionals[index]
    }

    // The readers by name below are for this module's tests: commands read typed `Option`s
    // (`args.get(option)`), so a misspelt option is a compile error, not a silent default.

    /// True when the flag was given.
    func flag(_ name: String) -> Bool { options[name] != nil }

    /// The last value given for the option, or nil.
    func value(_ name: String) -> String? { options[name]?.last }

    /// Every value given for a repeatable option, in order.
    func values(_ name: String) -> [String] { options[name] ?? [] }
}
