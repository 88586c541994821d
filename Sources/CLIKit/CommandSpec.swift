/// What a command accepts, used both to parse its arguments and to print its `--help` screen.
public struct CommandSpec: Sendable {
    /// The word after `filterz` (or after the parent command), e.g. `inspect` or `show`.
    public var name: String
    /// One line for `OVERVIEW:` and for the parent's `SUBCOMMANDS:` list.
    public var abstract: String
    /// Optional paragraphs printed after the overview.
    public var discussion: String
    public var arguments: [ArgumentSpec]
    public var options: [OptionSpec]
    /// Example command lines printed under `EXAMPLES:`.
    public var examples: [String]

    public init(
        name: String, abstract: String, discussion: String = "", arguments: [ArgumentSpec] = [],
        options: [OptionSpec] = [], examples: [String] = []
    ) {
        self.name = name
        self.abstract = abstract
        self.discussion = discussion
        self.arguments = arguments
        self.options = options
        self.examples = examples
    }
}

/// A positional argument.
public struct ArgumentSpec: Sendable {
    public var name: String
    public var help: String
    public var isOptional: Bool
    /// Takes every remaining positional argument.
    public var isVariadic: Bool

    public init(_ name: String, help: String, isOptional: Bool = false, isVariadic: Bool = false) {
        self.name = name
        self.help = help
        self.isOptional = isOptional
        self.isVariadic = isVariadic
    }
}

/// A `--name` option: a flag, or an option that takes a value (once or repeatedly).
public struct OptionSpec: Sendable {
    public enum Kind: Sendable, Equatable {
        /// `--json`: present or not.
        case flag
        /// `--out DIR`: the last occurrence wins.
        case value(placeholder: String)
        /// `--header H` (repeatable): every occurrence is kept, in order.
        case repeatable(placeholder: String)
    }

    /// Long name first (`--out`), then any short alias (`-o`).
    public var names: [String]
    public var kind: Kind
    public var help: String
    /// Shown as `(default: …)` in help.
    public var defaultValue: String?

    public init(_ names: String..., kind: Kind = .flag, help: String, defaultValue: String? = nil) {
        self.names = names
        self.kind = kind
        self.help = help
        self.defaultValue = defaultValue
    }

    /// The canonical name (`--out`), the key used to read the value back.
    public var name: String { names[0] }

    public static func flag(_ names: String..., help: String) -> OptionSpec {
        var spec = OptionSpec(help: help)
        spec.names = names
        return spec
    }

    public static func value(
        _ names: String..., placeholder: String, help: String, defaultValue: String? = nil
    ) -> OptionSpec {
        var spec = OptionSpec(kind: .value(placeholder: placeholder), help: help, defaultValue: defaultValue)
        spec.names = names
        return spec
    }

    public static func repeatable(_ names: String..., placeholder: String, help: String) -> OptionSpec {
        var spec = OptionSpec(kind: .repeatable(placeholder: placeholder), help: help)
        spec.names = names
        return spec
    }
}
