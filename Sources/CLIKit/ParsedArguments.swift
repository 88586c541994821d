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

    // The readers by name below are for this module and its tests: commands read typed `Option`s
    // (`args.get(option)`), so a misspelt option is a compile error, not a silent default.

    /// True when the flag was given.
    func flag(_ name: String) -> Bool { options[name] != nil }

    /// The last value given for the option, or nil.
    func value(_ name: String) -> String? { options[name]?.last }

    /// Every value given for a repeatable option, in order.
    func values(_ name: String) -> [String] { options[name] ?? [] }

    /// The positional argument at `index`, or a usage error naming `argumentName`.
    public func positional(_ index: Int, _ argumentName: String) throws(CLIError) -> String {
        guard index < positionals.count else {
            throw .usage("missing argument <\(argumentName)>")
        }
        return positionals[index]
    }

    /// The value of a required option, or a usage error naming it.
    func required(_ name: String) throws(CLIError) -> String {
        guard let value = value(name) else { throw .usage("missing option \(name)") }
        return value
    }

    /// An integer option within `range`; `defaultValue` when absent.
    func integer(_ name: String, default defaultValue: Int, in range: ClosedRange<Int> = Int.min...Int.max)
        throws(CLIError) -> Int
    {
        guard let text = value(name) else { return defaultValue }
        guard let number = Int(text), range.contains(number) else {
            throw .usage("\(name) expects a whole number in \(range.lowerBound)…\(range.upperBound), got '\(text)'")
        }
        return number
    }

    /// A decimal option within `range`; `defaultValue` when absent.
    func decimal(_ name: String, default defaultValue: Double, in range: ClosedRange<Double>)
        throws(CLIError) -> Double
    {
        guard let text = value(name) else { return defaultValue }
        guard let number = Double(text), number.isFinite, range.contains(number) else {
            throw .usage("\(name) expects a number in \(range.lowerBound)…\(range.upperBound), got '\(text)'")
        }
        return number
    }
}
