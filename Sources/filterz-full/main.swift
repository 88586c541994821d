import CLIKit
// `filterz-full`: every `filterz` command. `filterz` runs it (exec, same process) for every command line but a
// plain inspection of a playlist file.
import FilterzCLI
import Foundation

#if canImport(Glibc)
    import Glibc
#endif

let code = CLI.run(
    arguments: Array(CommandLine.arguments.dropFirst()),
    stdout: FileDescriptorOutput.standardOutput,
    stderr: FileDescriptorOutput.standardError,
    readStandardInput: StandardInput.bytes(upTo:),
    environment: ProcessInfo.processInfo.environment)
exit(code)
