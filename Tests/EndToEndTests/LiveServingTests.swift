import FilterzTestSupport
import Foundation
import HLS
import RealClients
import Server
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// The server while `filterz record --live` writes into the folder it serves: 50 clients poll the live
/// playlists (video, audio, subtitles) and fetch every segment they list, for 30 s, like 50 players. None may
/// ever see a partial or invalid playlist, or a 404 (or an empty or torn segment) for a listed segment within
/// the availability the spec promises (RFC 8216bis §6.2.2: a segment stays available for its duration plus the
/// playlist's duration after it leaves the playlist). A client starved for longer than that by a loaded machine
/// (the sliding window deletes old segments) is counted as late, not as a server fault.
@Suite(
    .enabled(if: FilterzChild.binary != nil, "needs the built filterz binary (swift build)"), .slow
)
struct LiveServingTests {
    struct ClientLog: Sendable {
        var polls = 0
        var segments = 0
        var longestPlaylist = 0
        /// 404s for segments fetched longer after their playlist than the spec's availability promise.
        var late = 0
        var problems: [String] = []
    }

    @Test func fiftyClientsPollingALiveRecordingSeeOnlyWholePlaylistsAndNoMissingSegment() throws {
        let folder = try TemporaryFolder(prefix: "filterz-live-serving")
        let video = folder.url.appendingPathComponent("live")
        let child = try FilterzChild(
            [
                "record", "--preset", "neutral", "--size", "160x90", "--ladder", "160x90@150k,96x54@80k", "--live",
                "--window", "4", "--segment-duration", "1", "--duration", "45", "--out", video.path,
            ],
            logs: folder.url)
        defer {
            child.signal(SIGKILL)
            child.waitForExit(timeoutSeconds: 10)
        }
        let masterFile = video.appendingPathComponent("master.m3u8")
        _ = child.waitFor(masterFile, timeoutSeconds: 60)
        let master = try #require(
            HLS.parse(try String(contentsOf: masterFile, encoding: .utf8)).playlist?.multivariant,
            "no master playlist: \(child.stderr)")
        let playlists = master.variants.map(\.uri) + master.renditions.compactMap(\.uri)

        var configuration = ServerConfiguration(root: folder.url.path)
        configuration.host = "127.0.0.1"
        configuration.port = 0
        let server = try HTTPServer(configuration: configuration)
        defer { server.stop(graceSeconds: 1) }
        let base = "\(server.baseURL)/v1/videos/live/"
        let http = LoopbackHTTP(timeoutSeconds: 20)
        let deadline = ContinuousClock.now + .seconds(30)
        // One thread per client (blocking sockets): Swift's cooperative threads may be held by other tests.
        let logs = OwnThreads.map(Array(0..<50), width: 50) { client in
            Self.poll(
                base + playlists[client % playlists.count], with: http, until: deadline, pause: 400 + 10 * client,
                availability: .seconds(Self.availabilitySeconds))
        }
        child.signal(SIGINT)
        #expect(child.waitForExit(timeoutSeconds: 60) == 0, "record after Ctrl-C: \(child.stderr)")

        let problems = logs.flatMap(\.problems)
        let polls = logs.map(\.polls).reduce(0, +), segments = logs.map(\.segments).reduce(0, +)
        let late = logs.map(\.late).reduce(0, +)
        print(
            "50 live clients for 30 s: \(polls) playlist polls, \(segments) segment fetches, \(problems.count) problems, "
                + "\(late) late 404s (fetched more than \(Self.availabilitySeconds) s after their playlist)")
        #expect(problems.isEmpty, "\(problems.prefix(20).joined(separator: "\n"))")
        #expect(late * 10 <= segments, "most segment fetches came too late to prove anything: \(late) of \(segments)")
        #expect(
            polls >= 250 && segments >= 100,
            "too little traffic to prove anything: \(polls) polls, \(segments) segments")
        #expect(logs.allSatisfy { $0.polls > 0 }, "a client never got a playlist")
    }

    /// One client: fetch the playlist, check it is whole and valid, fetch each listed segment not yet
    /// fetched, wait `pause` ms, until `deadline`.
    /// Segment duration (1 s) plus the playlist's duration (a window of 4): how long a segment must stay
    /// available after the playlist that named it.
    static let availabilitySeconds = 5

    static func poll(
        _ playlistURL: String, with http: LoopbackHTTP, until deadline: ContinuousClock.Instant, pause: Int,
        availability: Duration
    ) -> ClientLog {
        var log = ClientLog()
        var fetched: Set<String> = []
        let folder = String(playlistURL[...playlistURL.lastIndex(of: "/")!])
        while ContinuousClock.now < deadline {
            do {
                let answer = try http.sendBlocking("GET", playlistURL)
                let loadedAt = ContinuousClock.now
                log.polls += 1
                guard answer.status == 200 else {
                    log.problems.append("\(playlistURL): HTTP \(answer.status)")
                    continue
                }
                let text = answer.bodyText
                let result = parseAndValidate(answer.body)
                guard text.hasPrefix("#EXTM3U"), text.hasSuffix("\n"), result.errors.isEmpty,
                    let media = result.playlist?.media
                else {
                    log.problems.append(
                        "\(playlistURL): a partial or invalid playlist: \(result.errors.map(\.message))\n\(text)")
                    continue
                }
                log.longestPlaylist = max(log.longestPlaylist, media.segments.count)
                for segment in media.segments where !fetched.contains(segment.uri) {
                    let askedAt = ContinuousClock.now
                    let body = try http.sendBlocking("GET", folder + segment.uri)
                    log.segments += 1
                    fetched.insert(segment.uri)
                    if body.status == 404, askedAt - loadedAt > availability {
                        log.late += 1
                    } else if body.status != 200 {
                        log.problems.append("\(folder + segment.uri): HTTP \(body.status) for a listed segment")
                    } else if body.body.isEmpty || (segment.uri.hasSuffix(".ts") && body.body.count % 188 != 0) {
                        log.problems.append("\(folder + segment.uri): \(body.body.count) bytes, not a whole segment")
                    }
                }
            } catch {
                // What the process held then: a reset from our own server would mean it refused the connection
                // unread, as it does when the process runs out of descriptors.
                log.problems.append("\(playlistURL): \(error) (\(DescriptorUse.now))")
            }
            Thread.sleep(forTimeInterval: Double(pause) / 1000)
        }
        return log
    }
}
