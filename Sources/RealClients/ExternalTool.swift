import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// Runs an external program (ffprobe, curl, python3, …) with a time limit, for tests against real clients.
public enum ExternalTool {
    public struct Result: Sendable {
        public var exitCode: Int32
        public var stdout: String
        public var stderr: String
    }

    /// The full path of `name` on PATH, or nil when it is not installed.
    public static func path(of name: String) -> String? {
        let searchPath = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        for folder in searchPath.split(separator: ":") {
            let candidate = "\(folder)/\(name)"
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
        }
        return nil
    }

    public static func isInstalled(_ name: String) -> Bool { path(of: name) != nil }

    /// Runs `name arguments…`, killing it after `timeoutSeconds`.
    public static func run(_ name: String, _ arguments: [String], timeoutSeconds: Double = 60) throws -> Result {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: path(of: name) ?? name)
        process.arguments = arguments
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let deadline = DispatchTime.now() + timeoutSeconds
        let group = DispatchGroup()
        nonisolated(unsafe) var outData = Data(), errData = Data()
        group.enter()
        DispatchQueue.global().async {
            outData = out.fileHandleForReading.readDataToEndOfFile()
            group.leave()
        }
        group.enter()
        DispatchQueue.global().async {
            errData = err.fileHandleForReading.readDataToEndOfFile()
            group.leave()
        }
        if group.wait(timeout: deadline) == .timedOut {
            // The child leads a process group of its own: what it started (gst-launch's fault handler, spinning
            // in a process of its own, holds the pipes open) goes with it, or the reads above never end. SIGKILL
            // after a grace: a child inherits the signal mask, and a test process that serves blocks SIGTERM.
            let child = process.processIdentifier
            process.terminate()
            kill(-child, SIGTERM)
            if group.wait(timeout: .now() + 5) == .timedOut {
                kill(-child, SIGKILL)
                _ = group.wait(timeout: .now() + 5)
            }
        }
        process.waitUntilExit()
        return Result(
            exitCode: process.terminationStatus, stdout: String(decoding: outData, as: UTF8.self),
            stderr: String(decoding: errData, as: UTF8.self))
    }
}

extension ExternalTool {
    /// Runs `name arguments…` with `input` on its standard input; its standard output as bytes.
    public static func runFeeding(_ name: String, _ arguments: [String], input: [UInt8], timeoutSeconds: Double = 60)
        throws -> [UInt8]
    {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: path(of: name) ?? name)
        process.arguments = arguments
        let stdin = Pipe(), stdout = Pipe()
        process.standardInput = stdin
        process.standardOutput = stdout
        process.standardError = FileHandle.nullDevice
        try process.run()
        nonisolated(unsafe) var output = Data()
        let done = DispatchSemaphore(value: 0)
        DispatchQueue.global().async {
            output = stdout.fileHandleForReading.readDataToEndOfFile()
            done.signal()
        }
        stdin.fileHandleForWriting.write(Data(input))
        try stdin.fileHandleForWriting.close()
        if done.wait(timeout: .now() + timeoutSeconds) == .timedOut { process.terminate() }
        process.waitUntilExit()
        return [UInt8](output)
    }
}

/// A fresh temporary folder, removed when the value is deinitialised.
public final class TemporaryFolder: @unchecked Sendable {
    public let url: URL
    /// `parent`: where to make it (the system's temporary folder by default).
    public init(prefix: String = "filterz-test", in parent: URL? = nil) throws {
        url = (parent ?? FileManager.default.temporaryDirectory).appendingPathComponent(
            "\(prefix)-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }
    deinit { try? FileManager.default.removeItem(at: url) }
}
