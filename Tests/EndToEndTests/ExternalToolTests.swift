import FilterzTestSupport
import Foundation
import RealClients
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// A real client that outlives its deadline is stopped with everything it started: gst-launch's fault handler
/// once left a process of its own spinning with the pipes open, and the test run waited for it for ever.
struct ExternalToolTests {
    @Test func aTimedOutProgramIsStoppedWithWhatItStarted() throws {
        let folder = try TemporaryFolder(prefix: "filterz-external-tool")
        let pidFile = folder.url.appendingPathComponent("detached.pid").path
        // One child keeps the pipes open (the case that hung), another is detached from them; both outlive the
        // deadline unless their process group is stopped.
        let result = try ExternalTool.run(
            "sh", ["-c", "sleep 30 & (exec sleep 300 >/dev/null 2>&1 </dev/null) & echo $! > \(pidFile); wait"],
            timeoutSeconds: 1)
        #expect(result.exitCode != 0)
        let detached = try #require(
            Int32(String(contentsOfFile: pidFile, encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)))
        // Reaped by init once killed: gone, or a zombie for a moment.
        var gone = false
        for _ in 0..<50 where !gone {
            let state = (try? String(contentsOfFile: "/proc/\(detached)/stat", encoding: .utf8))?.split(separator: " ")
            gone = state == nil || state![2] == "Z"
            if !gone { usleep(100_000) }
        }
        #expect(gone, "the detached child \(detached) is still running")
        if !gone { kill(detached, SIGKILL) }
    }
}
