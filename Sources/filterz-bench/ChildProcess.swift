import CLIKit
import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// Runs a program as a child process and measures it whole: wall time from spawn to exit, and its peak resident
/// memory.
///
/// The peak comes from GNU `time` (`/usr/bin/time -f %M`), which forks the program from its own small process:
/// a child spawned straight from this one (`posix_spawn` is a vfork) has `ru_maxrss` counted from this process's
/// own peak, which the benchmark's generated photos make hundreds of megabytes. Without GNU time the peak is
/// that inflated figure, and `peakIsTheChildsOwn` says so.
enum ChildProcess {
    struct Measurement {
        var seconds: Double
        var peakBytes: Int
        var exitCode: Int32
    }

    static let gnuTime = "/usr/bin/time"
    static var peakIsTheChildsOwn: Bool { FileManager.default.isExecutableFile(atPath: gnuTime) }

    /// Runs `path arguments…` with stdout and stderr sent to /dev/null (through GNU time when installed); nil when
    /// it cannot be started.
    static func run(_ path: String, _ arguments: [String]) -> Measurement? {
        guard peakIsTheChildsOwn else { return spawn(path, arguments) }
        let report = NSTemporaryDirectory() + "filterz-bench-time-\(getpid()).txt"
        defer { unlink(report) }
        guard var measurement = spawn(gnuTime, ["-f", "%M", "-o", report, path] + arguments) else { return nil }
        guard let text = try? String(contentsOfFile: report, encoding: .utf8),
            let kilobytes = text.split(separator: "\n").last.flatMap({ Int($0.trimmingCharacters(in: .whitespaces)) })
        else { return nil }
        measurement.peakBytes = kilobytes * 1024
        return measurement
    }

    private static func spawn(_ path: String, _ arguments: [String]) -> Measurement? {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        let argv = ([path] + arguments).map { strdup($0) } + [nil]
        defer { for pointer in argv { free(pointer) } }
        var pid: pid_t = 0
        let start = Date()
        guard posix_spawn(&pid, path, &actions, nil, argv, environ) == 0 else { return nil }
        var status: Int32 = 0
        var usage = rusage()
        while wait4(pid, &status, 0, &usage) < 0 && errno == EINTR {}
        let seconds = Date().timeIntervalSince(start)
        let exited = status & 0x7F == 0
        return Measurement(
            seconds: seconds, peakBytes: usage.ru_maxrss * 1024, exitCode: exited ? (status >> 8) & 0xFF : -1)
    }

    /// The `filterz` executable built beside this one, or nil.
    static func builtFilterz() -> String? {
        let own = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
        let candidate = own.deletingLastPathComponent().appendingPathComponent("filterz").path
        return FileManager.default.isExecutableFile(atPath: candidate) ? candidate : nil
    }
}
