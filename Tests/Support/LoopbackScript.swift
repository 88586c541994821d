import Foundation
import RealClients

/// A Python script run as one or more HTTP servers on 127.0.0.1 for a test: it prints the ports it listens on
/// (separated by spaces) on its first line, and ends when its standard input closes, that is when this value
/// goes away.
public final class LoopbackScript: @unchecked Sendable {
    public struct Failure: Error, CustomStringConvertible {
        public var description: String
    }

    private let process = Process()
    private let input = Pipe()
    /// The ports, in the order the script printed them.
    public let ports: [Int]
    /// The first port.
    public var port: Int { ports[0] }

    public init(_ script: String, arguments: [String] = []) throws {
        process.executableURL = URL(fileURLWithPath: ExternalTool.path(of: "python3") ?? "/usr/bin/python3")
        process.arguments = ["-c", script] + arguments
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        process.standardInput = input
        try process.run()
        var line = Data()
        while true {
            let byte = output.fileHandleForReading.readData(ofLength: 1)
            if byte.isEmpty || byte == Data("\n".utf8) { break }
            line.append(byte)
        }
        let ports = String(decoding: line, as: UTF8.self).split(separator: " ").compactMap { Int($0) }
        guard !ports.isEmpty else {
            process.terminate()
            throw Failure(description: "the loopback script did not print its ports")
        }
        self.ports = ports
    }

    deinit {
        try? input.fileHandleForWriting.close()
        process.waitUntilExit()
    }
}
