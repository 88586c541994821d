import FilterzTestSupport
import Foundation
import HLS
import RealClients
import Testing

@testable import Server

#if canImport(Glibc)
    import Glibc
#endif

/// Numbers in the files the server reads — a playlist's sequence numbers and target duration, a file's
/// modification time — at the edges of what they can hold. None may trap the server: each was a crash that took
/// every viewer down. In process, on a manual clock.
@Suite struct ServedNumbersTests {
    /// A live LL-HLS playlist: three complete segments of four parts, two parts of the next and a hint.
    static func livePlaylist(mediaSequence: Int, targetDuration: Int = 4) -> String {
        var text = """
            #EXTM3U
            #EXT-X-VERSION:9
            #EXT-X-TARGETDURATION:\(targetDuration)
            #EXT-X-SERVER-CONTROL:CAN-BLOCK-RELOAD=YES,PART-HOLD-BACK=3.0,CAN-SKIP-UNTIL=24.0
            #EXT-X-PART-INF:PART-TARGET=1.0
            #EXT-X-MEDIA-SEQUENCE:\(mediaSequence)

            """
        for segment in 0..<3 {
            for part in 0..<4 { text += "#EXT-X-PART:DURATION=1.0,URI=\"p\(segment).\(part).mp4\"\n" }
            text += "#EXTINF:4.0,\ns\(segment).mp4\n"
        }
        text += "#EXT-X-PART:DURATION=1.0,URI=\"p3.0.mp4\"\n#EXT-X-PART:DURATION=1.0,URI=\"p3.1.mp4\"\n"
        return text + "#EXT-X-PRELOAD-HINT:TYPE=PART,URI=\"p3.2.mp4\"\n"
    }

    @Test(arguments: [Int.max, Int.max - 1, PlayerLimits.maximumSequenceNumber - 3])
    func aMediaSequenceNoPlayerCanCountIsServedAsItIs(_ sequence: Int) throws {
        let playlist = Self.livePlaylist(mediaSequence: sequence)
        let site = try InProcessSite(populate: { try $0.write("live/index.m3u8", playlist) })
        for query in [
            "", "?_HLS_msn=0", "?_HLS_msn=1&_HLS_part=2", "?_HLS_msn=999999999999999",
            "?_HLS_msn=999999999999999&_HLS_part=0", "?_HLS_skip=YES", "?_HLS_msn=0&_HLS_skip=v2",
        ] {
            let response = try site.fetch("GET", "/live/index.m3u8" + query)
            #expect(response.status == 200 && response.bodyText == playlist, "\(query)")
        }
        // The hinted part is not held: without blocking reloads the hint is not followed.
        #expect(try site.fetch("GET", "/live/p3.2.mp4").status == 404)
    }

    @Test func aMediaSequenceAPlayerCanCountStillBlocks() throws {
        // The furthest number a request may name is the limit itself.
        let site = try InProcessSite(populate: {
            try $0.write("live/index.m3u8", Self.livePlaylist(mediaSequence: PlayerLimits.maximumSequenceNumber - 4))
        })
        let limit = PlayerLimits.maximumSequenceNumber
        let held = try site.send("GET", "/live/index.m3u8?_HLS_msn=\(limit)&_HLS_part=0")
        #expect(held.isHeld)
        #expect(try site.fetch("GET", "/live/index.m3u8?_HLS_msn=\(limit - 2)").status == 200)
        // A number past the limit is refused, not held.
        #expect(try site.fetch("GET", "/live/index.m3u8?_HLS_msn=\(limit + 1)").status == 400)
    }

    @Test(arguments: [10_000_000_000_000_000, Int.max])
    func aHugeTargetDurationHoldsAndCachesForABoundedTime(_ target: Int) throws {
        let playlist = Self.livePlaylist(mediaSequence: 0, targetDuration: target)
        let site = try InProcessSite(populate: { try $0.write("live/index.m3u8", playlist) })
        // Held: segment 3 is in progress.
        let held = try site.send("GET", "/live/index.m3u8?_HLS_msn=3")
        let heldPart = try site.send("GET", "/live/index.m3u8?_HLS_msn=3&_HLS_part=2")
        #expect(held.isHeld && heldPart.isHeld)
        // For three of the longest target durations a player can use, then 503.
        site.advance(milliseconds: Int64(Hold.maximumSeconds * 1000) - 1)
        #expect(held.isHeld && heldPart.isHeld)
        site.advance(milliseconds: 1)
        #expect(held.response?.status == 503 && heldPart.response?.status == 503)
        // Answered at once, cached for six of the longest target durations a player can wait for.
        let answered = try site.fetch("GET", "/live/index.m3u8?_HLS_msn=2&_HLS_part=1")
        #expect(answered.status == 200 && answered.bodyText == playlist)
        #expect(answered.header("cache-control") == "public, max-age=\(6 * PlayerLimits.maximumTargetDurationSeconds)")
        #expect(try site.fetch("GET", "/live/index.m3u8").status == 200)
    }

    /// Sets the modification time of `url` to `seconds` since the epoch; false when the file system cannot
    /// hold it (it keeps the nearest time it can).
    static func setModified(_ url: URL, seconds: Int) -> Bool {
        var times = [timespec(tv_sec: seconds, tv_nsec: 0), timespec(tv_sec: seconds, tv_nsec: 0)]
        guard utimensat(AT_FDCWD, url.path, &times, 0) == 0 else { return false }
        var info = stat()
        return stat(url.path, &info) == 0 && info.st_mtim.tv_sec == seconds
    }

    @Test func modificationTimesOutsideWhatHTTPDatesNameAreClampedLikeNginx() throws {
        // tmpfs keeps any 64-bit time; ext4 and most others clamp to their own range.
        let memory = URL(fileURLWithPath: "/dev/shm")
        let site = try InProcessSite(
            populate: { site in
                try site.write("a/past.ts", "x")
                try site.write("a/future.ts", "x")
                try site.write("a/index.m3u8", "#EXTM3U\n#EXT-X-TARGETDURATION:4\n#EXTINF:4,\npast.ts\n")
            }, parent: memory)
        try #require(Self.setModified(site.root.appendingPathComponent("a/past.ts"), seconds: Int.min))
        try #require(Self.setModified(site.root.appendingPathComponent("a/index.m3u8"), seconds: Int.min))
        try #require(Self.setModified(site.root.appendingPathComponent("a/future.ts"), seconds: Int.max))
        let first = "Thu, 01 Jan 1970 00:00:00 GMT", last = "Fri, 31 Dec 9999 23:59:59 GMT"
        for (path, date) in [("/a/past.ts", first), ("/a/index.m3u8", first), ("/a/future.ts", last)] {
            let response = try site.fetch("GET", path)
            #expect(response.status == 200 && response.header("last-modified") == date, "\(path)")
            // Conditions compare the date that was sent.
            #expect(try site.fetch("GET", path, headers: ["If-Modified-Since": date]).status == 304, "\(path)")
            #expect(
                try site.fetch("GET", path, headers: ["If-Unmodified-Since": date]).status == 200, "\(path)")
        }
    }
}
