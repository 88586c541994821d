/// What a running command may use: its outputs, standard input and the environment.
public struct CommandContext {
    public var stdout: TextOutput
    public var stderr: TextOutput
    /// Standard input up to its end or the given number of bytes (for `-` arguments).
    public var readStandardInput: (_ limit: Int) -> [UInt8]
    public var environment: [String: String]

    public init(
        stdout: TextOutput, stderr: TextOutput, readStandardInput: @escaping (_ limit: Int) -> [UInt8] = { _ in [] },
        environment: [String: String] = [:]
    ) {
        self.stdout = stdout
        self.stderr = stderr
        self.readStandardInput = readStandardInput
        self.environment = environment
    }
}

/// A `filterz` command: its spec, its subcommands, and what it does.
public struct Command: Sendable {
    public typealias Action = @Sendable (ParsedArguments, CommandContext) throws -> Int32

    public var spec: CommandSpec
    public var subcommands: [Command]
    /// nil for a command that only groups subcommands (running it prints its help).
    public var action: Action?

    public init(_ spec: CommandSpec, subcommands: [Command] = [], action: Action? = nil) {
        self.spec = spec
        self.subcommands = subcommands
        self.action = action
    }
}
