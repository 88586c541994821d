import FilterzTestSupport
import Foundation
import HLS
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// `filterz record --live` as a real process: playlists while recording, Ctrl-C, and `kill -9`.
@Suite(.serialized, .enabled(if: LiveRecording.binary != nil, "needs the built filterz binary (swift build)"))
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
                #expect(FileManager.default.fileExists(
                    atPath: video.appendingPathComponent(HLSLadderCheck.folderOf(uri) + segment.uri).path))
            }
        }
        // The segment in progress was finished: whole segments only, all of them 1 s.
        let firstVariant = try check.media(master.variants[0].uri)
        #expect(firstVariant.segments.allSatisfy { abs($0.duration - 1) < 1e-9 })
        try StreamGate.check(video)
    }

    @Test(arguments: ["ts", "fmp4"])
    func killMinus9LeavesValidPlaylistsListingOnlyCompleteSegments(_ format: String) throws {
        let temporary = try TemporaryFolder()
        let video = temporary.url.appendingPathComponent("live")
        let recording = try LiveRecording(folder: video, extra: ["--duration", "30", "--window", "3", "--format", format])
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
                let url = try check.decodableSegment(
                    playlistURI: variant.uri, segment: segment.uri, initSegment: format == "fmp4" ? "init.mp4" : nil)
                #expect(try check.firstVideoPacket(url).isKeyframe)
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
            ["record", "--preset", "neutral", "--size", "160x90", "--ladder", "160x90@150k", "--segment-duration", "1",
             "--live", "--out", folder.path] + extra,
            logs: folder.deletingLastPathComponent())
    }

    /// Waits (up to 60 s) until the first rendition's playlist lists `count` segments; returns it.
    func waitForSegments(_ count: Int) throws -> MediaPlaylist {
        let deadline = Date().addingTimeInterval(60)
        while Date() < deadline {
            if let text = try? String(contentsOf: folder.appendingPathComponent("90p/index.m3u8"), encoding: .utf8),
               FileManager.default.fileExists(atPath: folder.appendingPathComponent("master.m3u8").path),
               let media = HLS.parse(text).playlist?.media, media.segments.count >= count
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
