import FilterzTestSupport
import Foundation
import HLS
import RealClients
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// `filterz record --live` as a real process: playlists while recording, Ctrl-C, and `kill -9`.
@Suite(
    .serialized, .enabled(if: LiveRecording.binary != nil, "needs the built filterz binary (swift build)"),
    .slow)
struct RecordLiveTests {
    @Test func playlistsAreEventPlaylistsWhileRecordingAndEndAfterCtrlC() throws {
        let temporary = try TemporaryFolder()
        let video = temporary.url.appendingPathComponent("live")  // a sub-folder: StreamGate serves its parent
        let recording = try LiveRecording(folder: video, extra: ["--duration", "30"])
        let growing = try recording.waitForSegments(1)
        #expect(growing.playlistType == .event && !growing.endList)
        #expect(growing.segments.allSatisfy { $0.programDateTime != nil })
        recording.signal(SIGINT)
        let code = recording.waitForExit(timeoutSeconds: 60)
        #expect(code == 0)
        let check = HLSLadderCheck(folder: video)
        let master = try check.master()
        for uri in master.variants.map(\.uri) + master.renditions.compactMap(\.uri) {
            let media = try check.media(uri)
            #expect(media.endList, "\(uri) lacks EXT-X-ENDLIST after Ctrl-C")
            #expect(media.segments.count >= 1 && media.segments.count < 30)
            for segment in media.segments {
                #expect(
                    FileManager.default.fileExists(
                        atPath: video.appendingPathComponent(HLSLadderCheck.folderOf(uri) + segment.uri).path))
            }
        }
        // The segment in progress was finished: whole segments only, all of them 1 s.
        let firstVariant = try check.media(master.variants[0].uri)
        #expect(firstVariant.segments.allSatisfy { abs($0.duration - 1) < 1e-9 })
        try StreamGate.check(video)
    }

    @Test func slidingWindowDeletesSegmentsOfEveryTrackAfterTheGracePeriod() throws {
        let folder = try TemporaryFolder()
        let recording = try LiveRecording(folder: folder.url, extra: ["--duration", "30", "--window", "1"])
        // Window 1: segment 0 leaves at count 2 and may go from count 4 (its length plus a window later).
        let playlist = try recording.waitForPlaylist { ($0.mediaSequence ?? 0) >= 4 }
        recording.signal(SIGINT)
        #expect(recording.waitForExit(timeoutSeconds: 60) == 0)
        #expect(playlist.segments.count == 1)
        let check = HLSLadderCheck(folder: folder.url)
        let master = try check.master()
        let uris = master.variants.map(\.uri) + master.iFrameVariants.map(\.uri) + master.renditions.compactMap(\.uri)
        #expect(uris.count == 5, "video, I-frames, audio, 2 subtitle languages")
        for uri in uris {
            let media = try check.media(uri)
            #expect(media.endList && media.segments.count == 1)
            let files = try FileManager.default.contentsOfDirectory(
                atPath: folder.url.appendingPathComponent(HLSLadderCheck.folderOf(uri)).path)
            #expect(
                !files.contains { $0.hasPrefix("seg_00000.") }, "\(uri): seg_00000 still on disk: \(files.sorted())")
            // What the final playlist lists, and the grace period before it, is still there.
            for segment in media.segments {
                #expect(files.contains(segment.uri), "\(uri) lists missing \(segment.uri)")
            }
            #expect(files.filter { $0.hasPrefix("seg_") }.count <= 3, "\(uri): \(files.sorted())")
        }
    }

    @Test(arguments: ["ts", "fmp4"])
    func killMinus9LeavesValidPlaylistsListingOnlyCompleteSegments(_ format: String) throws {
        let temporary = try TemporaryFolder()
        let video = temporary.url.appendingPathComponent("live")
        let recording = try LiveRecording(
            folder: video, extra: ["--duration", "30", "--window", "3", "--format", format])
        _ = try recording.waitForSegments(2)
        recording.signal(SIGKILL)
        _ = recording.waitForExit(timeoutSeconds: 30)
        let check = HLSLadderCheck(folder: video)
        let master = try check.master()
        for uri in master.variants.map(\.uri) + master.renditions.compactMap(\.uri) {
            let media = try check.media(uri)
            #expect(!media.endList)
            #expect(media.segments.count <= 3)
            for segment in media.segments {
                let url = video.appendingPathComponent(HLSLadderCheck.folderOf(uri) + segment.uri)
                let size = (try? FileManager.default.attributesOfItem(atPath: url.path)[.size] as? Int) ?? 0
                #expect(size > 0, "\(uri) lists \(segment.uri), which is missing or empty")
            }
        }
        for variant in master.variants {
            let media = try check.media(variant.uri)
            #expect(media.mediaSequence.map { $0 >= 0 } == true)
            for segment in media.segments {
                let first = try check.firstVideoPacket(
                    playlistURI: variant.uri, segment: segment.uri, initSegment: format == "fmp4" ? "init.mp4" : nil)
                #expect(first.isKeyframe)
            }
        }
    }
}

/// A `filterz record --live` child process on a tiny ladder.
final class LiveRecording {
    static var binary: String? { FilterzChild.binary }

    let child: FilterzChild
    let folder: URL

    init(folder: URL, extra: [String]) throws {
        self.folder = folder
        child = try FilterzChild(
            [
                "record", "--preset", "neutral", "--size", "160x90", "--ladder", "160x90@150k", "--segment-duration",
                "1",
                "--live", "--out", folder.path,
            ] + extra,
            logs: folder.deletingLastPathComponent())
    }

    /// Waits (up to 60 s) until the first rendition's playlist lists `count` segments; returns it.
    func waitForSegments(_ count: Int) throws -> MediaPlaylist {
        try waitForPlaylist { $0.segments.count >= count }
    }

    /// Waits (up to 60 s) until the first rendition's playlist satisfies `condition`; returns it.
    func waitForPlaylist(_ condition: (MediaPlaylist) -> Bool) throws -> MediaPlaylist {
        let deadline = Date().addingTimeInterval(60)
        while Date() < deadline {
            if let text = try? String(contentsOf: folder.appendingPathComponent("90p/index.m3u8"), encoding: .utf8),
                FileManager.default.fileExists(atPath: folder.appendingPathComponent("master.m3u8").path),
                let media = HLS.parse(text).playlist?.media, condition(media)
            {
                return media
            }
            Thread.sleep(forTimeInterval: 0.1)
        }
        throw LiveRecordingTimeout()
    }

    func signal(_ number: Int32) { child.signal(number) }

    func waitForExit(timeoutSeconds: Double) -> Int32 { child.waitForExit(timeoutSeconds: timeoutSeconds) }
}

struct LiveRecordingTimeout: Error {}
