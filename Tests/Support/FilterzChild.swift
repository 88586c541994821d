import Foundation
import RealClients

#if canImport(Glibc)
    import Glibc
#endif

/// The built `filterz` binary run as a child process (for signals, `kill -9` and resource limits, which an
/// in-process `CLI.run` cannot take). Its stdout and stderr go to files, so a chatty child never blocks.
public final class FilterzChild: @unchecked Sendable {
    /// The debug binary `swift build` made, or nil before the first build.
    public static var binary: String? {
        let root = SharedData.packageRoot.appendingPathComponent(".build")
        for path in [
            "debug/filterz", "x86_64-unknown-linux-gnu/debug/filterz", "aarch64-unknown-linux-gnu/debug/filterz",
        ] {
            let candidate = root.appendingPathComponent(path).path
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
        }
        return nil
    }

    /// The preset folder of the checkout, so presets are found by name from any working directory.
    public static var environment: [String: String] {
        var environment = ProcessInfo.processInfo.environment
        environment["FILTERZ_PRESETS"] = SharedData.sampleMedia.appendingPathComponent("presets").path
        return environment
    }

    public let process = Process()
    private let stdoutFile: URL
    private let stderrFile: URL

    /// Runs `filterz arguments…`, or `launcher… filterz arguments…` (e.g. `bash -c '…; exec "$0" "$@"'`).
    public init(_ arguments: [String], launcher: [String] = [], logs: URL) throws {
        guard let binary = Self.binary else {
            throw FilterzChildError(description: "no built filterz binary (swift build)")
        }
        let name = UUID().uuidString
        stdoutFile = logs.appendingPathComponent(".\(name).stdout")
        stderrFile = logs.appendingPathComponent(".\(name).stderr")
        FileManager.default.createFile(atPath: stdoutFile.path, contents: nil)
        FileManager.default.createFile(atPath: stderrFile.path, contents: nil)
        if let first = launcher.first {
            process.executableURL = URL(fileURLWithPath: ExternalTool.path(of: first) ?? first)
            process.arguments = Array(launcher.dropFirst()) + [binary] + arguments
        } else {
            process.executableURL = URL(fileURLWithPath: binary)
            process.arguments = arguments
        }
        process.environment = Self.environment
        process.currentDirectoryURL = SharedData.packageRoot
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = try FileHandle(forWritingTo: stdoutFile)
        process.standardError = try FileHandle(forWritingTo: stderrFile)
        try process.run()
    }

    deinit {
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
    }

    public var isRunning: Bool { process.isRunning }

    public func signal(_ number: Int32) { kill(process.processIdentifier, number) }

    /// Waits up to `timeoutSeconds` for the child to exit (then kills it) and returns its exit status
    /// (or the signal number for a child killed by a signal, as `Process` reports it).
    @discardableResult
    public func waitForExit(timeoutSeconds: Double) -> Int32 {
        let deadline = Date().addingTimeInterval(timeoutSeconds)
        while process.isRunning && Date() < deadline { Thread.sleep(forTimeInterval: 0.05) }
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        process.waitUntilExit()
        return process.terminationStatus
    }

    public var stdout: String { (try? String(contentsOf: stdoutFile, encoding: .utf8)) ?? "" }
    public var stderr: String { (try? String(contentsOf: stderrFile, encoding: .utf8)) ?? "" }

    /// Waits (up to `timeoutSeconds`) until `file` exists; false when the child exited first or time ran out.
    public func waitFor(_ file: URL, timeoutSeconds: Double = 120) -> Bool {
        let deadline = Date().addingTimeInterval(timeoutSeconds)
        while Date() < deadline {
            if FileManager.default.fileExists(atPath: file.path) { return true }
            if !process.isRunning { return FileManager.default.fileExists(atPath: file.path) }
            Thread.sleep(forTimeInterval: 0.05)
        }
        return false
    }
}

public struct FilterzChildError: Error, CustomStringConvertible {
    public var description: String
}
