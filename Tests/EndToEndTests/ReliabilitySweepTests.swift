import FilterzTestSupport
import Foundation
import HLS
import RealClients
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// The recorder when things go wrong, as a real process: `kill -9` at many moments, Ctrl-C during
/// `record` and `package`, and a disk that fills up. Whatever a live recording leaves on disk must be a valid
/// stream a player can use (`LeftBehindCheck`); a clean stop must be a finished one (`StreamGate`); a failed VOD
/// ladder leaves nothing.
@Suite(
    .enabled(
        if: FilterzChild.binary != nil && ExternalTool.isInstalled("ffmpeg"),
        "needs the built filterz binary and ffmpeg"), .slow)
struct ReliabilitySweepTests {
    struct KillRun: CustomStringConvertible, Sendable {
        var index: Int
        /// Seconds after the start of the process, or after the master playlist first appeared.
        var delay: Double
        var afterMaster: Bool
        var format: String
        var window: Int?
        var description: String {
            "run \(index): kill -9 \(String(format: "%.2f", delay)) s after \(afterMaster ? "the master playlist appeared" : "the start"), "
                + format + (window.map { ", --window \($0)" } ?? "")
        }
    }

    /// The kill moments: a Weyl sequence from a fixed seed, spread evenly over each interval. One run in
    /// five is killed 0.05…1.5 s after the start (before or while the first playlists are written); the
    /// others 0…3.5 s after the master appeared, so at any point of a 1 s segment (between segments, while
    /// one is written, while playlists are rewritten). Runs alternate TS/fMP4 and EVENT/sliding-window
    /// playlists. Same seed, same moments.
    static func killRuns(seed: Double = 0.20261201, count: Int = 20) -> [KillRun] {
        (0..<count).map { index in
            let fraction = (seed + Double(index) * 0.6180339887498949).truncatingRemainder(dividingBy: 1)
            let early = index % 5 == 0
            return KillRun(
                index: index, delay: early ? 0.05 + 1.45 * fraction : 3.5 * fraction, afterMaster: !early,
                format: index % 2 == 0 ? "ts" : "fmp4", window: index % 4 < 2 ? nil : 3)
        }
    }

    @Test func killMinus9AtTwentySeededMomentsLeavesOnlyValidPlayablePlaylists() throws {
        let folder = try TemporaryFolder(prefix: "filterz-kill-sweep")
        let runs = Self.killRuns()
        let reports = OwnThreads.map(runs, width: 4) { run -> (KillRun, LeftBehindCheck.Report) in
            let video = folder.url.appendingPathComponent("run-\(run.index)")
            do {
                let child = try FilterzChild(
                    [
                        "record", "--preset", "neutral", "--size", "160x90", "--ladder", "160x90@150k,96x54@80k",
                        "--segment-duration", "1", "--duration", "30", "--live", "--format", run.format, "--out",
                        video.path,
                    ]
                        + (run.window.map { ["--window", String($0)] } ?? []),
                    logs: folder.url)
                if run.afterMaster {
                    _ = child.waitFor(video.appendingPathComponent("master.m3u8"), timeoutSeconds: 60)
                }
                Thread.sleep(forTimeInterval: run.delay)
                child.signal(SIGKILL)
                child.waitForExit(timeoutSeconds: 30)
            } catch {
                return (run, LeftBehindCheck.Report(problems: ["could not start filterz: \(error)"]))
            }
            return (run, LeftBehindCheck(folder: video, expectEnded: false).run())
        }
        var playlists = 0, segments = 0
        for (run, report) in reports {
            playlists += report.playlists
            segments += report.segments
            #expect(report.problems.isEmpty, "\(run): \(report.problems.joined(separator: "\n"))")
        }
        print(
            "kill -9 sweep: \(runs.count) runs, \(playlists) playlists and \(segments) segments left on disk, all checked"
        )
        // The sweep must have hit recordings with something on disk, or it proved nothing.
        let withSegments = reports.filter { $0.1.segments > 0 }.count
        #expect(withSegments >= runs.filter(\.afterMaster).count / 2, "only \(withSegments) runs left segments on disk")
    }

    @Test func ctrlCDuringRecordFinishesEveryPlaylist() throws {
        let folder = try TemporaryFolder(prefix: "filterz-sigint-record")
        let video = folder.url.appendingPathComponent("interrupted")
        let child = try FilterzChild(
            [
                "record", "--preset", "neutral", "--size", "160x90", "--ladder", "160x90@150k", "--segment-duration",
                "1",
                "--duration", "120", "--out", video.path,
            ],
            logs: folder.url)
        try interruptAndCheck(child, video: video, fullSegments: 120)
    }

    @Test func ctrlCDuringPackageFinishesEveryPlaylist() throws {
        let folder = try TemporaryFolder(prefix: "filterz-sigint-package")
        let clip = folder.url.appendingPathComponent("long.mp4").path
        let made = try ExternalTool.run(
            "ffmpeg",
            [
                "-nostdin", "-v", "error", "-y", "-f", "lavfi", "-i", "testsrc2=s=320x180:r=15:d=90", "-f", "lavfi",
                "-i", "sine=f=440:d=90", "-c:v", "libx264", "-preset", "ultrafast", "-c:a", "aac", "-shortest", clip,
            ],
            timeoutSeconds: 120)
        try #require(made.exitCode == 0, "ffmpeg: \(made.stderr)")
        let video = folder.url.appendingPathComponent("interrupted")
        let child = try FilterzChild(
            [
                "package", clip, "--preset", "neutral", "--ladder", "160x90@150k", "--segment-duration", "1", "--out",
                video.path,
            ],
            logs: folder.url)
        try interruptAndCheck(child, video: video, fullSegments: 90)
    }

    /// Ctrl-C once the job writing `video` has its second segment: it exits 0 and its staging folder is gone.
    /// A VOD ladder grows in a hidden sibling and takes the folder's place when finished.
    func interruptAndCheck(_ child: FilterzChild, video: URL, fullSegments: Int) throws {
        let staging = video.deletingLastPathComponent().appendingPathComponent(
            ".\(video.lastPathComponent).filterz-partial-\(child.process.processIdentifier)")
        try #require(
            child.waitFor(staging.appendingPathComponent("90p/seg_00001.ts")), "no second segment: \(child.stderr)")
        child.signal(SIGINT)
        #expect(child.waitForExit(timeoutSeconds: 60) == 0, "stderr: \(child.stderr)")
        #expect(!FileManager.default.fileExists(atPath: staging.path))
        try checkFinishedEarly(video, fullSegments: fullSegments)
    }

    /// After Ctrl-C: every playlist ended, fewer segments than the whole job, and the stream passes the gate.
    func checkFinishedEarly(_ video: URL, fullSegments: Int) throws {
        let report = LeftBehindCheck(folder: video, expectEnded: true).run()
        #expect(report.problems.isEmpty, "\(report.problems.joined(separator: "\n"))")
        let media = try #require(
            HLS.parse(try String(contentsOf: video.appendingPathComponent("90p/index.m3u8"), encoding: .utf8)).playlist?
                .media)
        #expect(media.segments.count >= 2 && media.segments.count < fullSegments, "\(media.segments.count) segments")
        try StreamGate.check(video)
    }

    /// How the disk fills: a private tmpfs (root, `unshare -m`, nothing to clean up: the mount dies with the
    /// namespace), else `ulimit -f` (RLIMIT_FSIZE, with SIGXFSZ ignored so writes fail with EFBIG).
    static let smallDisk = """
        set -u
        out="$1" copy="$2"; shift 2
        if [ "$(id -u)" = 0 ] && mount -t tmpfs -o size=384k tmpfs "$out" 2>/dev/null; then
          "$@"; code=$?
          cp -a "$out/." "$copy/"
          exit $code
        fi
        trap '' XFSZ
        ulimit -f 40
        "$@"; code=$?
        cp -a "$out/." "$copy/"
        exit $code
        """

    @Test func aFullDiskIsOneClearErrorNamingThePathAndLeavesValidPlaylists() throws {
        let folder = try TemporaryFolder(prefix: "filterz-disk-full")
        let disk = folder.url.appendingPathComponent("disk"), copy = folder.url.appendingPathComponent("copy")
        for url in [disk, copy] { try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true) }
        let launcher =
            ExternalTool.isInstalled("unshare") && getuid() == 0
            ? ["unshare", "-m", "bash", "-c", Self.smallDisk, "small-disk", disk.path, copy.path]
            : ["bash", "-c", Self.smallDisk, "small-disk", disk.path, copy.path]
        let child = try FilterzChild(
            [
                "record", "--preset", "neutral", "--size", "320x180", "--fps", "15", "--ladder", "320x180@600k",
                "--segment-duration", "1", "--duration", "60", "--out", disk.appendingPathComponent("video").path,
            ],
            launcher: launcher, logs: folder.url)
        let code = child.waitForExit(timeoutSeconds: 240)
        let lines = child.stderr.split(separator: "\n")
        #expect(code == 1, "exit \(code), stderr: \(child.stderr)")
        #expect(lines.count == 1, "one line, got:\n\(child.stderr)")
        let line = String(lines.first ?? "")
        print("disk full: \(line)")
        // The write that failed was into the hidden sibling the ladder grows in.
        #expect(
            line.contains(disk.appendingPathComponent(".video.filterz-partial-").path),
            "the error names no path: \(line)")
        #expect(line.contains("No space left on device") || line.contains("File too large"), "\(line)")
        // A failed VOD ladder leaves nothing: no half package, no sibling.
        let left = (try? FileManager.default.contentsOfDirectory(atPath: copy.path)) ?? []
        #expect(left.isEmpty, "left behind: \(left)")
    }
}
