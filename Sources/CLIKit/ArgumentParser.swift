/// Splits a command line into positionals and options according to a `CommandSpec`.
///
/// Accepts `--name value`, `--name=value`, short aliases (`-o value`), `--` (everything after it is
/// positional) and `-` (a positional meaning standard input). Unknown options and missing values are
/// usage errors. `--help`/`-h` is handled by the caller before parsing.
public enum ArgumentParser {
    public static func parse(_ arguments: [String], spec: CommandSpec, commandPath: String) throws(CLIError)
        -> ParsedArguments
    {
        var parsed = ParsedArguments(commandPath: commandPath)
        var index = 0
        var onlyPositionals = false
        while index < arguments.count {
            let argument = arguments[index]
            index += 1
            if onlyPositionals || argument == "-" || !argument.hasPrefix("-") || isNegativeNumber(argument) {
                parsed.positionals.append(argument)
                continue
            }
            if argument == "--" {
                onlyPositionals = true
                continue
            }
            var name = argument
            var inlineValue: String?
            if let equals = argument.firstIndex(of: "="), argument.hasPrefix("--") {
                name = String(argument[..<equals])
                inlineValue = String(argument[argument.index(after: equals)...])
            }
            guard let option = spec.options.first(where: { $0.names.contains(name) }) else {
                throw .usage("unknown option '\(name)' for '\(commandPath)'")
            }
            switch option.kind {
            case .flag:
                if inlineValue != nil { throw .usage("\(option.name) takes no value") }
                parsed.options[option.name, default: []].append("")
            case .value(let placeholder), .repeatable(let placeholder):
                let value: String
                if let inlineValue {
                    value = inlineValue
                } else if index < arguments.count {
                    value = arguments[index]
                    index += 1
                } else {
                    throw .usage("\(option.name) needs a value <\(placeholder)>")
                }
                parsed.options[option.name, default: []].append(value)
            }
        }
        try checkPositionalCount(parsed.positionals, spec: spec)
        return parsed
    }

    private static func isNegativeNumber(_ argument: String) -> Bool {
        argument.count > 1 && Double(argument) != nil
    }

    private static func checkPositionalCount(_ positionals: [String], spec: CommandSpec) throws(CLIError) {
        let required = spec.arguments.filter { !$0.isOptional && !$0.isVariadic }
        if positionals.count < required.count {
            throw .usage("missing argument <\(required[positionals.count].name)>")
        }
        let variadic = spec.arguments.contains { $0.isVariadic }
        if !variadic && positionals.count > spec.arguments.count {
            throw .usage("unexpected argument '\(positionals[spec.arguments.count])'")
        }
    }
}
