import FilterzCLI
import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// Reads all of standard input as bytes.
func readAllStandardInput() -> [UInt8] {
    var bytes: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 65536)
    while true {
        let count = read(0, &buffer, buffer.count)
        if count > 0 {
            bytes.append(contentsOf: buffer[0..<count])
        } else if count < 0 && errno == EINTR {
            continue
        } else {
            break
        }
    }
    return bytes
}

let code = CLI.run(
    arguments: Array(CommandLine.arguments.dropFirst()),
    stdout: FileDescriptorOutput.standardOutput,
    stderr: FileDescriptorOutput.standardError,
    readStandardInput: readAllStandardInput,
    environment: ProcessInfo.processInfo.environment)
exit(code)
