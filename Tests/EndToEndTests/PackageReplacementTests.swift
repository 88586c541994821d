import Encryption
import FilterzTestSupport
import Foundation
import HLS
import RealClients
import Testing

@testable import CLIKit
@testable import FilterzCLI
@testable import Inspect

#if canImport(Glibc)
    import Glibc
#endif

/// `package` and VOD `record` into a folder that already holds a package: the new ladder grows in a hidden
/// sibling and replaces the folder whole only once complete, so a damaged input, a failure or `kill -9` leaves
/// the earlier package byte for byte, and a reader never sees old playlists beside new segments.
@Suite(
    .serialized, .enabled(if: ExternalTool.isInstalled("ffmpeg"), "needs ffmpeg (make deps)"), .slow)
struct PackageReplacementTests {
    static let ladder = ["--ladder", "160x90@150k", "--segment-duration", "1"]

    func ffmpeg(_ arguments: [String]) throws {
        let result = try ExternalTool.run("ffmpeg", ["-nostdin", "-v", "error", "-y"] + arguments, timeoutSeconds: 120)
        try #require(result.exitCode == 0, "ffmpeg failed: \(result.stderr)")
    }

    /// Every file under `folder` with its bytes.
    static func snapshot(_ folder: URL) -> [String: Data] {
        var files: [String: Data] = [:]
        for case let path as String in FileManager.default.enumerator(atPath: folder.path) ?? .init() {
            let url = folder.appendingPathComponent(path)
            var isFolder: ObjCBool = false
            if FileManager.default.fileExists(atPath: url.path, isDirectory: &isFolder), !isFolder.boolValue {
                files[path] = try? Data(contentsOf: url)
            }
        }
        return files
    }

    /// The hidden siblings (`.<name>.filterz-…`) next to `out`.
    static func siblings(of out: URL) -> [String] {
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: out.deletingLastPathComponent().path)) ?? []
        return entries.filter { $0.hasPrefix("." + out.lastPathComponent + ".filterz-") }
    }

    /// A good clip, and an MPEG-TS cut to a third: its damage shows only at its last picture, after segments
    /// of the new ladder were written.
    func clips(in folder: URL) throws -> (good: String, damaged: String) {
        let good = folder.appendingPathComponent("good.mp4").path
        try ffmpeg(["-f", "lavfi", "-i", "testsrc2=s=160x90:r=25:d=2", "-c:v", "libx264", good])
        let whole = folder.appendingPathComponent("whole.ts").path
        try ffmpeg(["-f", "lavfi", "-i", "testsrc2=s=320x180:r=25:d=6", "-c:v", "libx264", whole])
        let bytes = try Data(contentsOf: URL(fileURLWithPath: whole))
        let damaged = folder.appendingPathComponent("damaged.ts")
        let cut = try #require(TransportStreamCut.offsetInsideAPicture(of: bytes, after: bytes.count / 3))
        try bytes.prefix(cut).write(to: damaged)
        return (good, damaged.path)
    }

    @Test func aDamagedInputLeavesTheEarlierPackageUntouched() throws {
        let folder = try TemporaryFolder()
        let (good, damaged) = try clips(in: folder.url)
        let out = folder.url.appendingPathComponent("out")
        let first = runFilterz(["package", good, "--preset", "neutral", "--out", out.path] + Self.ladder)
        try #require(first.code == 0, "\(first.err)")
        let before = Self.snapshot(out)
        let second = runFilterz(["package", damaged, "--preset", "noir", "--out", out.path] + Self.ladder)
        #expect(second.code == 1)
        #expect(second.err.contains("damaged or truncated"), "\(second.err)")
        #expect(Self.snapshot(out) == before)
        #expect(Self.siblings(of: out).isEmpty, "\(Self.siblings(of: out))")
        try StreamGate.check(out)
    }

    /// The second ladder (another rendition, fMP4) replaces the first whole: nothing of the first remains.
    @Test func aNewPackageReplacesTheOldOneWhole() throws {
        let folder = try TemporaryFolder()
        let (good, _) = try clips(in: folder.url)
        let out = folder.url.appendingPathComponent("out")
        let first = runFilterz([
            "package", good, "--preset", "neutral", "--out", out.path, "--ladder", "160x90@150k,96x54@80k",
            "--segment-duration", "1",
        ])
        try #require(first.code == 0, "\(first.err)")
        let second = runFilterz([
            "package", good, "--preset", "noir", "--out", out.path, "--ladder", "96x54@80k",
            "--segment-duration", "1", "--format", "fmp4",
        ])
        #expect(second.code == 0, "\(second.err)")
        #expect(second.out.hasPrefix("wrote \(out.path)/master.m3u8"), "\(second.out)")
        let files = Self.snapshot(out).keys
        #expect(!files.contains { $0.hasPrefix("90p/") || $0.hasSuffix(".ts") }, "\(files.sorted())")
        #expect(files.contains("54p/init.mp4"))
        let preset = try String(contentsOf: out.appendingPathComponent("filter.json"), encoding: .utf8)
        #expect(preset.contains("\"noir\""))
        #expect(Self.siblings(of: out).isEmpty)
        try StreamGate.check(out)
    }

    /// What a killed run left (its process gone) is removed by the next run; an old package moved aside whose
    /// replacement never arrived is put back.
    @Test func leftoversOfAKilledRunAreCleanedAndAMovedAsidePackageIsPutBack() throws {
        let folder = try TemporaryFolder()
        let (good, damaged) = try clips(in: folder.url)
        let finished = Process()
        finished.executableURL = URL(fileURLWithPath: "/bin/true")
        try finished.run()
        finished.waitUntilExit()
        let gone = finished.processIdentifier
        let out = folder.url.appendingPathComponent("out")
        let partial = folder.url.appendingPathComponent(".out.filterz-partial-\(gone)")
        try FileManager.default.createDirectory(
            at: partial.appendingPathComponent("90p"), withIntermediateDirectories: true)
        try Data("half".utf8).write(to: partial.appendingPathComponent("90p/seg_00000.ts"))
        // The earlier package, moved aside by a run killed between its two renames.
        let first = runFilterz(["package", good, "--preset", "neutral", "--out", out.path] + Self.ladder)
        try #require(first.code == 0, "\(first.err)")
        let before = Self.snapshot(out)
        let aside = folder.url.appendingPathComponent(".out.filterz-old-\(gone)")
        try FileManager.default.moveItem(at: out, to: aside)
        let failed = runFilterz(["package", damaged, "--preset", "noir", "--out", out.path] + Self.ladder)
        #expect(failed.code == 1)
        #expect(Self.snapshot(out) == before)
        #expect(Self.siblings(of: out).isEmpty, "\(Self.siblings(of: out))")
    }

    /// A sibling of a process that is still running (another job on the same folder) is left alone.
    @Test func aLiveProcessesStagingFolderIsLeftAlone() throws {
        let folder = try TemporaryFolder()
        let (good, _) = try clips(in: folder.url)
        let out = folder.url.appendingPathComponent("out")
        let busy = folder.url.appendingPathComponent(".out.filterz-partial-1")  // pid 1 is always alive
        try FileManager.default.createDirectory(at: busy, withIntermediateDirectories: true)
        #expect(runFilterz(["package", good, "--preset", "neutral", "--out", out.path] + Self.ladder).code == 0)
        #expect(Self.siblings(of: out) == [busy.lastPathComponent])
    }

    @Test func aFolderWithOtherFilesIsRefusedAndKept() throws {
        let folder = try TemporaryFolder()
        let (good, _) = try clips(in: folder.url)
        let out = folder.url.appendingPathComponent("out")
        try FileManager.default.createDirectory(at: out, withIntermediateDirectories: true)
        try Data("mine".utf8).write(to: out.appendingPathComponent("notes.txt"))
        let result = runFilterz(["package", good, "--preset", "neutral", "--out", out.path] + Self.ladder)
        #expect(result.code == 2)
        #expect(
            result.err.contains("holds files that are not from a filterz package (notes.txt)"), "\(result.err)")
        #expect(Self.snapshot(out) == ["notes.txt": Data("mine".utf8)])
        #expect(Self.siblings(of: out).isEmpty)
    }

    /// `kill -9` in the middle of a VOD recording into a folder with a package: the package is untouched, the
    /// killed run's sibling has a recognisable name, and the next run removes it.
    @Test(.enabled(if: FilterzChild.binary != nil, "needs the built filterz binary"))
    func killMinus9DuringAVODRecordingLeavesTheEarlierPackage() throws {
        let folder = try TemporaryFolder(prefix: "filterz-kill-vod")
        let out = folder.url.appendingPathComponent("out")
        let record = ["record", "--preset", "neutral", "--size", "160x90", "--out", out.path] + Self.ladder
        let first = runFilterz(record + ["--duration", "2"])
        try #require(first.code == 0, "\(first.err)")
        let before = Self.snapshot(out)
        let child = try FilterzChild(record + ["--duration", "120"], logs: folder.url)
        let staging = folder.url.appendingPathComponent(".out.filterz-partial-\(child.process.processIdentifier)")
        try #require(child.waitFor(staging.appendingPathComponent("90p/seg_00001.ts")), "no segment: \(child.stderr)")
        child.signal(SIGKILL)
        child.waitForExit(timeoutSeconds: 30)
        #expect(Self.snapshot(out) == before)
        #expect(Self.siblings(of: out) == [staging.lastPathComponent])
        let next = runFilterz(record + ["--duration", "1"])
        #expect(next.code == 0, "\(next.err)")
        #expect(Self.siblings(of: out).isEmpty, "\(Self.siblings(of: out))")
        try StreamGate.check(out)
    }

    /// Decrypts the first block of every segment of every encrypted media playlist of `out` with the key file its
    /// EXT-X-KEY names (`<keys>/out/<n>.key`): each must open to an MPEG-TS sync byte. The key names used.
    static func expectEverySegmentDecrypts(_ out: URL, keys: URL) throws -> Set<String> {
        var used = Set<String>()
        for track in ["90p", "audio"] {
            let playlist = out.appendingPathComponent("\(track)/index.m3u8")
            guard case .media(let media)? = HLS.parse([UInt8](try Data(contentsOf: playlist))).playlist else {
                Issue.record("\(playlist.path) is not a media playlist")
                continue
            }
            var current: Key?
            for segment in media.segments {
                if let key = segment.keys.last { current = key }
                let key = try #require(current, "\(segment.uri) has no key")
                let name = String(try #require(key.uri?.split(separator: "/").last))
                used.insert(name)
                let keyFile = keys.appendingPathComponent("out/\(name)").path
                guard let bytes = try? KeyRing.read(keyFile) else {
                    Issue.record("\(track)/\(segment.uri): its key \(keyFile) is gone")
                    continue
                }
                let sealed = [UInt8](try Data(contentsOf: out.appendingPathComponent("\(track)/\(segment.uri)")))
                let opened = try? AES128CBC.decrypt(sealed, key: bytes.bytes, iv: key.iv?.bytes ?? [])
                #expect(opened?.first == 0x47, "\(track)/\(segment.uri) does not decrypt with \(name)")
            }
        }
        return used
    }

    /// `kill -9` of an encrypted re-package once it has written keys and segments: the published ladder's keys
    /// are all still there and open its segments (a new run's keys never replace them; the ladder it replaces
    /// loses its keys only after the swap), and the next finished run leaves exactly the keys its ladder names.
    @Test(.enabled(if: FilterzChild.binary != nil, "needs the built filterz binary"))
    func killMinus9DuringAnEncryptedRePackageKeepsThePublishedLaddersKeys() throws {
        let folder = try TemporaryFolder(prefix: "filterz-kill-keys")
        let out = folder.url.appendingPathComponent("out")
        let keys = folder.url.appendingPathComponent("keys")
        let record =
            [
                "record", "--preset", "neutral", "--size", "160x90", "--out", out.path, "--encrypt", "aes-128",
                "--key-rotation", "1", "--keys", keys.path,
            ] + Self.ladder
        let first = runFilterz(record + ["--duration", "2"])
        try #require(first.code == 0, "\(first.err)")
        let published = try Self.expectEverySegmentDecrypts(out, keys: keys)
        #expect(published.count == 2, "\(published)")

        let child = try FilterzChild(record + ["--duration", "120"], logs: folder.url)
        let staging = folder.url.appendingPathComponent(".out.filterz-partial-\(child.process.processIdentifier)")
        try #require(child.waitFor(staging.appendingPathComponent("90p/seg_00002.ts")), "no segment: \(child.stderr)")
        child.signal(SIGKILL)
        child.waitForExit(timeoutSeconds: 30)
        #expect(try Self.expectEverySegmentDecrypts(out, keys: keys) == published)

        let next = runFilterz(record + ["--duration", "1"])
        #expect(next.code == 0, "\(next.err)")
        let current = try Self.expectEverySegmentDecrypts(out, keys: keys)
        let left = try FileManager.default.contentsOfDirectory(atPath: keys.appendingPathComponent("out").path)
        #expect(Set(left) == current, "\(left.sorted()) for a ladder naming \(current.sorted())")
        #expect(current.isDisjoint(with: published))
    }
}
