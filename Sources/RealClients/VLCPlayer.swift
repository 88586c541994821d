import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// VLC 3.0 playing a stream headless: `cvlc -vv` with the dummy video and audio outputs, as the unprivileged user
/// `nobody` when the tests run as root (VLC refuses root). It plays in real time; its debug log says whether a
/// picture was decoded, which requests failed and whether it left at the end of its playlist.
public enum VLCPlayer {
    /// Why VLC cannot run here (nil when `cvlc` is installed, and `runuser` too when running as root).
    public static var unavailableReason: String? {
        guard ExternalTool.isInstalled("cvlc") else { return "needs cvlc (vlc-bin, make deps)" }
        if getuid() == 0, !ExternalTool.isInstalled("runuser") { return "needs runuser to run VLC as nobody" }
        return nil
    }

    public struct Report: Sendable, CustomStringConvertible {
        public var exitCode: Int32
        /// True when the video decoder handed out a picture (`Received first picture`).
        public var decodedPicture: Bool
        /// True when VLC read its input to the end (`EOF reached`) and left (`--play-and-exit`).
        public var reachedEnd: Bool
        /// The status lines of HTTP answers 400 and above.
        public var failedRequests: [String]
        /// VLC's error lines (`… error: …`), apart from the interfaces a headless run lacks.
        public var errors: [String]

        public var description: String {
            "exit \(exitCode), picture \(decodedPicture), end \(reachedEnd), failed requests: "
                + "\(failedRequests.joined(separator: " | ")), errors: \(errors.joined(separator: " | "))"
        }
    }

    /// Plays `url` to its end (or until `timeoutSeconds`).
    public static func play(_ url: String, timeoutSeconds: Double = 90) throws -> Report {
        let vlc = ["cvlc", "-vv", "--play-and-exit", "--no-video-title-show", "--vout=dummy", "--aout=dummy", url]
        let run =
            getuid() == 0
            ? try ExternalTool.run("runuser", ["-u", "nobody", "--"] + vlc, timeoutSeconds: timeoutSeconds)
            : try ExternalTool.run(vlc[0], Array(vlc.dropFirst()), timeoutSeconds: timeoutSeconds)
        return report(exitCode: run.exitCode, output: run.stdout + run.stderr)
    }

    static func report(exitCode: Int32, output: String) -> Report {
        let lines = output.split(separator: "\n")
        let failed = lines.filter { $0.prefixMatch(of: /HTTP\/1\.[01] [45]\d\d/) != nil }.map(String.init)
        let ignored = ["interface error", "libvlc error: interface", "lua interface error", "dbus"]
        let errors = lines.filter { line in
            line.contains(" error: ") && !ignored.contains { line.contains($0) }
        }.map(String.init)
        return Report(
            exitCode: exitCode, decodedPicture: output.contains("Received first picture"),
            reachedEnd: output.contains("EOF reached") && output.contains("end of playlist, exiting"),
            failedRequests: failed, errors: errors)
    }
}
