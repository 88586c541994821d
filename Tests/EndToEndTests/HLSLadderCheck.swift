import FilterzTestSupport
import Foundation
import HLS
import RealClients
import Testing

@testable import CLIKit
@testable import FilterzCLI
@testable import Inspect

/// Checks a folder written by `filterz record`/`package` the way a player and ffprobe see it.
struct HLSLadderCheck {
    let folder: URL

    func read(_ relative: String) throws -> String {
        try String(contentsOf: folder.appendingPathComponent(relative), encoding: .utf8)
    }

    /// Parses and validates a playlist (our validator) and fails the test on any error or warning.
    func playlist(_ relative: String) throws -> Playlist {
        let result = parseAndValidate(Array(try read(relative).utf8))
        let problems = result.diagnostics.filter { $0.severity >= .warning }
        #expect(problems.isEmpty, "\(relative): \(problems.map { $0.formatted(file: relative) })")
        return try #require(result.playlist, "\(relative) does not parse")
    }

    func master() throws -> MultivariantPlaylist {
        try #require(try playlist("master.m3u8").multivariant)
    }

    func media(_ relative: String) throws -> MediaPlaylist {
        try #require(try playlist(relative).media, "\(relative) is not a media playlist")
    }

    /// Folder of a playlist URI relative to the master, e.g. `180p/` for `180p/index.m3u8`.
    static func folderOf(_ uri: String) -> String {
        uri.split(separator: "/").dropLast().map { $0 + "/" }.joined()
    }

    /// The first video packet of one segment of the playlist at `playlistURI`; for fMP4 the init segment is put
    /// in front of it (in a temporary folder) so ffprobe can read it alone.
    func firstVideoPacket(playlistURI: String, segment: String, initSegment: String?) throws
        -> (time: Double, isKeyframe: Bool)
    {
        let base = Self.folderOf(playlistURI)
        guard let initSegment else { return try firstVideoPacket(folder.appendingPathComponent(base + segment)) }
        let scratch = try TemporaryFolder(prefix: "filterz-check")
        var bytes = try Data(contentsOf: folder.appendingPathComponent(base + initSegment))
        bytes.append(try Data(contentsOf: folder.appendingPathComponent(base + segment)))
        let url = scratch.url.appendingPathComponent("segment.mp4")
        try bytes.write(to: url)
        return try withExtendedLifetime(scratch) { try firstVideoPacket(url) }
    }

    /// (presentation time of the first video packet, whether it is a keyframe) of one segment file.
    func firstVideoPacket(_ url: URL) throws -> (time: Double, isKeyframe: Bool) {
        let result = try ExternalTool.run(
            "ffprobe",
            [
                "-v", "error", "-select_streams", "v:0", "-show_entries", "packet=pts_time,flags",
                "-of", "csv=p=0", url.path,
            ])
        let lines = result.stdout.split(separator: "\n").filter { $0.contains(",") }
        // Packets come in decoding order; the first one decoded must be the keyframe.
        let first = try #require(lines.first, "no video packet in \(url.lastPathComponent)")
        let fields = first.split(separator: ",")
        let times = lines.compactMap { Double($0.split(separator: ",")[0]) }
        return (times.min() ?? 0, fields.count > 1 && fields[1].hasPrefix("K"))
    }

    struct Probe: Decodable {
        struct Stream: Decodable {
            var codecType: String
            var codecName: String?
            var width: Int?
            var height: Int?
            var averageFrameRate: String?

            // ffprobe's JSON keys.
            enum CodingKeys: String, CodingKey {
                case codecType = "codec_type"
                case codecName = "codec_name"
                case width, height
                case averageFrameRate = "avg_frame_rate"
            }
        }
        struct Format: Decodable { var duration: String? }
        var streams: [Stream]
        var format: Format?
    }

    func probe(_ relative: String) throws -> Probe {
        let result = try ExternalTool.run(
            "ffprobe",
            [
                "-v", "error", "-show_entries",
                "stream=codec_type,codec_name,width,height,avg_frame_rate:format=duration",
                "-of", "json", folder.appendingPathComponent(relative).path,
            ])
        #expect(result.exitCode == 0, "ffprobe \(relative): \(result.stderr)")
        return try JSONDecoder().decode(Probe.self, from: Data(result.stdout.utf8))
    }

    /// Every check of the issue, for a finished (ENDLIST) presentation.
    func checkFinishedLadder(
        resolutions: [(Int, Int)], frameRate: Double, durationSeconds: Double, isFragmentedMP4: Bool
    ) throws {
        let master = try master()
        #expect(master.independentSegments)
        #expect(
            master.variants.map { [$0.resolution?.width ?? 0, $0.resolution?.height ?? 0] }
                == resolutions.map { [$0.0, $0.1] })
        #expect(master.iFrameVariants.count == resolutions.count)
        #expect(master.renditions(inGroup: "subs").compactMap(\.language).sorted() == ["en", "ko"])
        #expect(master.renditions.contains { $0.type == .audio })
        let frameSeconds = 1 / frameRate
        var boundaries: [[Double]] = []
        for variant in master.variants {
            #expect(variant.frameRate == frameRate)
            #expect(variant.closedCaptions == ClosedCaptionsReference.none)
            #expect(
                variant.codecList.count == 2 && variant.codecList[0].hasPrefix("avc1.")
                    && variant.codecList[1] == "mp4a.40.2")
            let media = try media(variant.uri)
            #expect(media.endList)
            // ffprobe opens the media playlist on its own: one H.264 stream of this size, as long as the playlist.
            let alone = try probe(variant.uri)
            let size = variant.resolution.map { "\($0.width)x\($0.height)" } ?? "?"
            #expect(
                alone.streams.filter { $0.codecType == "video" }.map { "\($0.width ?? 0)x\($0.height ?? 0)" } == [size]
            )
            let probed = try #require(
                alone.format?.duration.flatMap(Double.init), "ffprobe gives \(variant.uri) no duration")
            #expect(abs(probed - durationSeconds) <= frameSeconds + 0.001, "\(variant.uri): ffprobe says \(probed) s")
            #expect(abs(media.totalDuration - durationSeconds) <= frameSeconds + 1e-6)
            #expect(media.segments.allSatisfy { $0.duration.rounded() <= Double(media.targetDuration ?? 0) })
            var starts: [Double] = []
            for segment in media.segments {
                let initSegment = isFragmentedMP4 ? media.map(inEffectAt: 0)?.uri : nil
                let first = try firstVideoPacket(
                    playlistURI: variant.uri, segment: segment.uri, initSegment: initSegment)
                #expect(first.isKeyframe, "\(variant.uri) \(segment.uri) does not start with a keyframe")
                starts.append(first.time)
                // Measured bit rate of the segment (with audio and subtitles) stays within BANDWIDTH.
                let bytes =
                    try FileManager.default.attributesOfItem(
                        atPath: folder.appendingPathComponent(Self.folderOf(variant.uri) + segment.uri).path)[.size]
                    as? Int ?? 0
                #expect(Double(bytes) * 8 / segment.duration <= Double(variant.bandwidth))
            }
            boundaries.append(starts)
        }
        // Segment boundaries line up across renditions.
        for other in boundaries.dropFirst() { #expect(other == boundaries[0]) }
        try checkAlignment(master)

        // ffprobe sees every rendition with its size and frame rate, the audio, and the duration.
        let masterProbe = try probe("master.m3u8")
        let videos = masterProbe.streams.filter { $0.codecType == "video" }
        #expect(Set(videos.map { "\($0.width ?? 0)x\($0.height ?? 0)" }) == Set(resolutions.map { "\($0.0)x\($0.1)" }))
        #expect(videos.allSatisfy { $0.codecName == "h264" && $0.averageFrameRate.map(Self.rate) == frameRate })
        #expect(masterProbe.streams.contains { $0.codecType == "audio" && $0.codecName == "aac" })

        // Audio is as long as the video (AAC frames are 1024 samples: within 2 of them plus one frame).
        let audioURI = try #require(master.renditions.first { $0.type == .audio }?.uri)
        let audio = try media(audioURI)
        #expect(abs(audio.totalDuration - durationSeconds) <= 2048.0 / 48000 + frameSeconds)
        let audioProbe = try probe(audioURI)
        #expect(audioProbe.streams.first?.codecName == "aac")

        // Subtitle cues cover the whole duration in both languages.
        for rendition in master.renditions(inGroup: "subs") {
            let uri = try #require(rendition.uri)
            let media = try media(uri)
            #expect(abs(media.totalDuration - durationSeconds) <= frameSeconds + 1e-6)
            var covered: [(Double, Double)] = []
            for segment in media.segments {
                let text = try read(Self.folderOf(uri) + segment.uri)
                #expect(text.hasPrefix("WEBVTT\nX-TIMESTAMP-MAP=MPEGTS:900000,LOCAL:00:00:00.000\n"))
                covered += Self.cueTimes(text)
            }
            var reached = 0.0
            for (start, end) in covered.sorted(by: { $0.0 < $1.0 }) where start <= reached + 0.001 {
                reached = max(reached, end)
            }
            #expect(abs(reached - durationSeconds) < 0.002, "\(uri): cues reach \(reached) s of \(durationSeconds) s")
        }

        // Python's m3u8 reads the same variants and segment durations as our parser.
        try checkWithPythonM3U8(master: master)
    }

    /// Our validator's cross-playlist checks: target durations, discontinuities, segment counts.
    func checkAlignment(_ master: MultivariantPlaylist) throws {
        var loaded: [ReferencedPlaylist] = []
        for variant in master.variants {
            loaded.append(ReferencedPlaylist(reference: .variant(variant), playlist: try media(variant.uri)))
        }
        for variant in master.iFrameVariants {
            loaded.append(ReferencedPlaylist(reference: .iFrameVariant(variant), playlist: try media(variant.uri)))
        }
        for rendition in master.renditions {
            guard let uri = rendition.uri else { continue }
            loaded.append(ReferencedPlaylist(reference: .rendition(rendition), playlist: try media(uri)))
        }
        let problems = VariantAlignment.check(loaded).filter { $0.severity >= .warning }
        #expect(problems.isEmpty, "\(problems.map { $0.formatted(file: "master.m3u8") })")
    }

    static func rate(_ text: String) -> Double {
        let parts = text.split(separator: "/").compactMap { Double($0) }
        return parts.count == 2 && parts[1] != 0 ? parts[0] / parts[1] : 0
    }

    static func cueTimes(_ text: String) -> [(Double, Double)] {
        func seconds(_ stamp: Substring) -> Double {
            let parts = stamp.split(separator: ":")
            return parts.reduce(0.0) { $0 * 60 + (Double($1) ?? 0) }
        }
        return text.split(separator: "\n").compactMap { line in
            let sides = line.components(separatedBy: " --> ")
            guard sides.count == 2 else { return nil }
            return (seconds(Substring(sides[0])), seconds(Substring(sides[1])))
        }
    }

    func checkWithPythonM3U8(master: MultivariantPlaylist) throws {
        guard ExternalTool.isInstalled("python3") else {
            Issue.record("python m3u8 check skipped: python3 is not installed (make deps)", severity: .warning)
            return
        }
        let script = """
            import json, sys, m3u8
            base = sys.argv[1]
            master = m3u8.load(base + '/master.m3u8')
            out = {'variants': [[p.uri, p.stream_info.bandwidth] for p in master.playlists], 'durations': {}}
            for p in master.playlists:
                out['durations'][p.uri] = [s.duration for s in m3u8.load(base + '/' + p.uri).segments]
            print(json.dumps(out))
            """
        let result = try ExternalTool.run("python3", ["-c", script, folder.path])
        guard result.exitCode == 0 else {
            if result.stderr.contains("No module named") {
                Issue.record(
                    "python m3u8 check skipped: the m3u8 package is not installed (make deps)", severity: .warning)
                return
            }
            Issue.record("python m3u8 failed: \(result.stderr)")
            return
        }
        struct Reading: Decodable {
            var variants: [[Variant]]
            var durations: [String: [Double]]
            enum Variant: Decodable {
                case text(String)
                case number(Int)
                init(from decoder: Decoder) throws {
                    let container = try decoder.singleValueContainer()
                    if let number = try? container.decode(Int.self) {
                        self = .number(number)
                    } else {
                        self = .text(try container.decode(String.self))
                    }
                }
            }
        }
        let reading = try JSONDecoder().decode(Reading.self, from: Data(result.stdout.utf8))
        // The same facts from `filterz inspect --json` (run in process).
        let inspected = try inspectJSON("master.m3u8")
        let variants = try #require(inspected["variants"] as? [[String: Any]])
        #expect(reading.variants.count == variants.count && variants.count == master.variants.count)
        for (pair, variant) in zip(reading.variants, variants) {
            let uri = try #require(variant["uri"] as? String)
            if case .text(let theirs) = pair[0] { #expect(theirs == uri) }
            if case .number(let bandwidth) = pair[1] { #expect(bandwidth == variant["bandwidth"] as? Int) }
            let segments = try #require(try inspectJSON(uri)["segments"] as? [[String: Any]])
            let ours = segments.compactMap { $0["duration"] as? Double }
            let theirs = reading.durations[uri] ?? []
            #expect(theirs.count == segments.count && ours.count == segments.count && !ours.isEmpty)
            for (a, b) in zip(theirs, ours) { #expect(abs(a - b) < 1e-9) }
        }
    }

    /// `filterz inspect --json` of a playlist in the folder, as a JSON object.
    func inspectJSON(_ relative: String) throws -> [String: Any] {
        let run = runFilterz(["inspect", "--json", folder.appendingPathComponent(relative).path])
        #expect(run.code == 0, "filterz inspect \(relative): \(run.err)")
        return try #require(try JSONSerialization.jsonObject(with: Data(run.out.utf8)) as? [String: Any])
    }
}
