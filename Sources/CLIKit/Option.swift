import JSON

/// One option of a command, declared once: its names, the type of its value, its default, the values it
/// allows and its help. The command's spec lists `option.spec`, its action reads `try args.get(option)`; a
/// misspelt option is then an unknown member (a compile error), and the default shown by `--help` is the one
/// the code uses, because both come from here.
///
///     static let seed = Option.integer("--seed", placeholder: "n", default: 1, in: 0...Int.max,
///                                      help: "Camera seed: the same seed gives the same frame.")
///     let seed = try args.get(Self.seed)
public struct Option<Value: Sendable>: Sendable {
    /// What `--help`, `docs/CLI.md` and the argument parser see.
    public let spec: OptionSpec
    /// Turns every value given (in order; empty when absent) into the option's value, or a usage error.
    let read: @Sendable (_ given: [String]) throws(CLIError) -> Value

    /// The canonical name (`--seed`).
    public var name: String { spec.name }
}

extension ParsedArguments {
    /// The option's value: as given, or its default.
    public func get<Value>(_ option: Option<Value>) throws(CLIError) -> Value {
        try option.read(options[option.name] ?? [])
    }
}

extension Option where Value == Bool {
    /// `--json`: true when given.
    public static func flag(_ names: String..., help: String) -> Option {
        var spec = OptionSpec.flag(help: help)
        spec.names = names
        return Option(spec: spec) { given in !given.isEmpty }
    }
}

extension Option where Value == String {
    /// A text value that must be given.
    public static func required(_ names: String..., placeholder: String, help: String) -> Option {
        let spec = valueSpec(names, placeholder, help, nil)
        return Option(spec: spec) { given throws(CLIError) in
            guard let value = given.last else { throw .usage("missing option \(spec.name)") }
            return value
        }
    }

    /// A text value with a default.
    public static func text(_ names: String..., placeholder: String, default defaultValue: String, help: String)
        -> Option
    {
        Option(spec: valueSpec(names, placeholder, help, defaultValue)) { given in given.last ?? defaultValue }
    }

    /// One of a fixed list of words.
    public static func choice(
        _ names: String..., placeholder: String, from allowed: [String], default defaultValue: String, help: String
    ) -> Option {
        let spec = valueSpec(names, placeholder, help, defaultValue)
        return Option(spec: spec) { given throws(CLIError) in
            let value = given.last ?? defaultValue
            guard allowed.contains(value) else {
                throw .usage("\(spec.name) expects one of \(allowed.joined(separator: ", ")), got '\(value)'")
            }
            return value
        }
    }
}

extension Option where Value == String? {
    /// A text value that may be absent. `shownDefault` is what `--help` gives as the default, for an option
    /// whose absence the command fills in itself (a computed ladder, a folder under `$HOME`).
    public static func optional(_ names: String..., placeholder: String, shownDefault: String? = nil, help: String)
        -> Option
    {
        Option(spec: valueSpec(names, placeholder, help, shownDefault)) { given in given.last }
    }
}

extension Option where Value == Int? {
    /// A whole number within `range`, or nil when absent.
    public static func optionalInteger(
        _ names: String..., placeholder: String, in range: ClosedRange<Int>, help: String
    ) -> Option {
        let spec = valueSpec(names, placeholder, help, nil)
        return Option(spec: spec) { given throws(CLIError) in
            guard let text = given.last else { return nil }
            return try wholeNumber(text, in: range, for: spec)
        }
    }
}

extension ParsedArguments {
    /// True when the option was given at all (whatever its value, and even where `get` gives its default).
    public func isGiven<Value>(_ option: Option<Value>) -> Bool { flag(option.name) }
}

extension Option where Value == [String] {
    /// A repeatable value: every occurrence, in order.
    public static func repeatable(_ names: String..., placeholder: String, help: String) -> Option {
        var spec = OptionSpec(kind: .repeatable(placeholder: placeholder), help: help)
        spec.names = names
        return Option(spec: spec) { given in given }
    }
}

extension Option where Value == Int {
    /// A whole number within `range`.
    public static func integer(
        _ names: String..., placeholder: String, default defaultValue: Int, in range: ClosedRange<Int>, help: String
    ) -> Option {
        let spec = valueSpec(names, placeholder, help, String(defaultValue))
        return Option(spec: spec) { given throws(CLIError) in
            guard let text = given.last else { return defaultValue }
            return try wholeNumber(text, in: range, for: spec)
        }
    }
}

extension Option where Value == Double {
    /// A finite decimal number within `range`.
    public static func decimal(
        _ names: String..., placeholder: String, default defaultValue: Double, in range: ClosedRange<Double>,
        help: String
    ) -> Option {
        let spec = valueSpec(names, placeholder, help, plainNumber(defaultValue))
        return Option(spec: spec) { given throws(CLIError) in
            guard let text = given.last else { return defaultValue }
            return try decimalNumber(text, in: range, for: spec)
        }
    }
}

extension Option where Value == Double? {
    /// A finite decimal number within `range`, or nil when absent.
    public static func optionalDecimal(
        _ names: String..., placeholder: String, in range: ClosedRange<Double>, help: String
    ) -> Option {
        let spec = valueSpec(names, placeholder, help, nil)
        return Option(spec: spec) { given throws(CLIError) in
            guard let text = given.last else { return nil }
            return try decimalNumber(text, in: range, for: spec)
        }
    }
}

/// `text` as a whole number within `range`, or the usage error naming the option.
private func wholeNumber(_ text: String, in range: ClosedRange<Int>, for spec: OptionSpec) throws(CLIError) -> Int {
    guard let number = Int(text), range.contains(number) else {
        throw .usage("\(spec.name) expects a whole number in \(range.lowerBound)…\(range.upperBound), got '\(text)'")
    }
    return number
}

/// `text` as a finite decimal number within `range`, or the usage error naming the option.
private func decimalNumber(_ text: String, in range: ClosedRange<Double>, for spec: OptionSpec) throws(CLIError)
    -> Double
{
    guard let number = Double(text), number.isFinite, range.contains(number) else {
        throw .usage("\(spec.name) expects a number in \(range.lowerBound)…\(range.upperBound), got '\(text)'")
    }
    return number
}

private func valueSpec(_ names: [String], _ placeholder: String, _ help: String, _ defaultValue: String?)
    -> OptionSpec
{
    var spec = OptionSpec(kind: .value(placeholder: placeholder), help: help, defaultValue: defaultValue)
    spec.names = names
    return spec
}
