import FilterzTestSupport
import Foundation
import HLS
import RealClients
import Server
import Testing

@testable import CLIKit
@testable import FilterzCLI
@testable import Inspect
@testable import StreamAudit

#if canImport(Glibc)
    import Glibc
#endif

/// `inspect --deep` on clean `filterz record` output (TS and fMP4, VOD and live: no finding) and on copies
/// of it with one defect each, manufactured as people make them: exactly the expected codes fire.
@Suite(
    .serialized, .enabled(if: ExternalTool.isInstalled("ffmpeg"), "needs ffmpeg (make deps)"), .slow)
struct DeepInspectTests {
    typealias Fixture = DeepInspectFixture

    /// One defect: how to make it in a copy of the clean recording, and the codes it must produce.
    struct Defect: Sendable, CustomTestStringConvertible {
        var name: String
        var expected: [String]
        var make: @Sendable (URL) throws -> Void
        var testDescription: String { name }
    }

    static let transportStreamDefects: [Defect] = [
        Defect(name: "BANDWIDTH written as half the peak", expected: ["bandwidth.peak-above-declared"]) { folder in
            let file = folder.appendingPathComponent("master.m3u8")
            let text = try String(contentsOf: file, encoding: .utf8)
            let edited = text.replacing(/STREAM-INF:BANDWIDTH=(\d+)/, maxReplacements: 1) {
                "STREAM-INF:BANDWIDTH=\((Int($0.output.1) ?? 0) / 2)"
            }
            try edited.write(to: file, atomically: true, encoding: .utf8)
        },
        Defect(name: "BANDWIDTH written far above the peak", expected: ["bandwidth.peak-below-declared"]) {
            // A 1 before the old digits: more than twice the peak for every variant.
            try Fixture.edit($0, "master.m3u8", "#EXT-X-STREAM-INF:BANDWIDTH=", "#EXT-X-STREAM-INF:BANDWIDTH=1")
        },
        Defect(name: "AVERAGE-BANDWIDTH dropped", expected: ["bandwidth.average-missing"]) { folder in
            let text = try String(contentsOf: folder.appendingPathComponent("master.m3u8"), encoding: .utf8)
            let edited = text.replacing(/AVERAGE-BANDWIDTH=\d+,(CODECS="avc1\.64000d)/) { "\($0.output.1)" }
            try edited.write(to: folder.appendingPathComponent("master.m3u8"), atomically: true, encoding: .utf8)
        },
        Defect(name: "one EXTINF changed", expected: ["extinf.duration-mismatch"]) {
            try Fixture.edit($0, "180p/index.m3u8", "#EXTINF:1.000,\nseg_00001.ts", "#EXTINF:1.200,\nseg_00001.ts")
        },
        Defect(
            name: "a segment deleted from the playlist", expected: ["timeline.gap", "variants.segments-not-aligned"]
        ) {
            try Fixture.edit($0, "180p/index.m3u8", "#EXTINF:1.000,\nseg_00001.ts\n", "")
            try Fixture.dropLines($0, "master.m3u8", containing: "I-FRAME")
        },
        Defect(name: "a segment file missing", expected: ["segment.unreadable"]) {
            try FileManager.default.removeItem(at: $0.appendingPathComponent("90p/seg_00002.ts"))
            try Fixture.dropLines($0, "master.m3u8", containing: "I-FRAME")
        },
        Defect(name: "CODECS misstated", expected: ["codecs.mismatch"]) {
            try Fixture.edit($0, "master.m3u8", "avc1.64000d,mp4a.40.2", "avc1.42e01e,mp4a.40.2")
        },
        Defect(name: "RESOLUTION misstated", expected: ["resolution.mismatch"]) {
            try Fixture.edit($0, "master.m3u8", "RESOLUTION=320x180,FRAME-RATE", "RESOLUTION=320x240,FRAME-RATE")
        },
        Defect(name: "FRAME-RATE misstated", expected: ["frame-rate.mismatch"]) {
            try Fixture.edit(
                $0, "master.m3u8", "RESOLUTION=160x90,FRAME-RATE=30.0", "RESOLUTION=160x90,FRAME-RATE=25.0")
        },
        Defect(name: "X-TIMESTAMP-MAP stripped", expected: ["webvtt.timestamp-map-missing"]) {
            for index in 0..<3 {
                try Fixture.dropLines($0, "subs/en/seg_0000\(index).vtt", containing: "X-TIMESTAMP-MAP")
            }
        },
        Defect(name: "X-TIMESTAMP-MAP off by ffmpeg's 1.4 s", expected: ["webvtt.timestamp-map-wrong"]) {
            for index in 0..<3 {
                try Fixture.edit($0, "subs/ko/seg_0000\(index).vtt", "MPEGTS:900000", "MPEGTS:1026000")
            }
        },
        Defect(
            name: "an I-frame range pointed at a P-frame",
            expected: ["bandwidth.average-mismatch", "iframes.range-not-idr"]
        ) {
            // The first range moved past the IDR and the PAT/PMT, onto 376 bytes of the frames after it.
            let file = $0.appendingPathComponent("180p/iframes.m3u8")
            let text = try String(contentsOf: file, encoding: .utf8)
            let edited = text.replacing(/#EXT-X-BYTERANGE:\d+@0/, maxReplacements: 1) { _ in "#EXT-X-BYTERANGE:376@6016"
            }
            try edited.write(to: file, atomically: true, encoding: .utf8)
        },
        Defect(name: "an encryption key of the wrong length", expected: ["key.unusable"]) {
            try Data(repeating: 7, count: 10).write(to: $0.appendingPathComponent("90p/key.bin"))
            try Fixture.edit(
                $0, "90p/index.m3u8", "#EXT-X-PLAYLIST-TYPE:VOD\n",
                "#EXT-X-PLAYLIST-TYPE:VOD\n#EXT-X-KEY:METHOD=AES-128,URI=\"key.bin\"\n")
            try Fixture.dropLines($0, "master.m3u8", containing: "I-FRAME")
        },
        Defect(
            name: "a segment cut off its keyframe (ffmpeg -ss copy)",
            expected: [
                "bandwidth.average-mismatch", "extinf.duration-mismatch", "segment.not-starting-with-idr",
                "timeline.gap",
                "variants.segments-not-aligned",
            ]
        ) { folder in
            let segment = folder.appendingPathComponent("180p/seg_00001.ts")
            let whole = folder.appendingPathComponent("whole.ts")
            try FileManager.default.moveItem(at: segment, to: whole)
            try Fixture.ffmpeg([
                "-i", whole.path, "-ss", "0.7", "-copyinkf", "-c", "copy", "-muxdelay", "0", "-muxpreload", "0",
                "-output_ts_offset", "11.7", segment.path,
            ])
            try Fixture.dropLines(folder, "master.m3u8", containing: "I-FRAME")
        },
    ]

    @Test func aTransportStreamRecordingPassesAndEveryDefectMadeInItIsCaught() throws {
        let folder = try TemporaryFolder()
        let clean = try Fixture.record([], into: folder.url, name: "clean")
        let outcome = try Fixture.inspect(clean.appendingPathComponent("master.m3u8"))
        #expect(outcome.code == 0 && outcome.codes.isEmpty, "clean TS recording: \(outcome.codes) \(outcome.stderr)")
        let variants = outcome.deep["variants"] as? [[String: Any]] ?? []
        #expect(variants.count == 4 && variants.allSatisfy { ($0["segments_checked"] as? Int) == 3 })
        #expect(variants.first?["codecs_measured"] as? [String] == ["avc1.64000d", "mp4a.40.2"])
        #expect(variants.first?["resolution_measured"] as? String == "320x180")

        // The same over HTTP (byte ranges as Range requests), from the Server module on 127.0.0.1.
        var configuration = ServerConfiguration(root: folder.url.path)
        configuration.host = "127.0.0.1"
        configuration.port = 0
        let server = try HTTPServer(configuration: configuration)
        defer { server.stop(graceSeconds: 1) }
        let url = try #require(URL(string: "\(server.baseURL)/v1/videos/clean/master.m3u8"))
        let overHTTP = try Fixture.inspect(url)
        #expect(overHTTP.code == 0 && overHTTP.codes.isEmpty, "over HTTP: \(overHTTP.codes) \(overHTTP.stderr)")

        for (index, defect) in Self.transportStreamDefects.enumerated() {
            let copy = try Fixture.copy(clean, as: "defect\(index)", in: folder.url)
            try defect.make(copy)
            let found = try Fixture.inspect(copy.appendingPathComponent("master.m3u8"))
            #expect(found.codes == defect.expected.sorted(), "\(defect.name): \(found.codes)")
            let must = defect.expected.contains { !["variants.segments-not-aligned", "idr.interval"].contains($0) }
            #expect(found.code == (must ? 1 : 0), "\(defect.name): exit \(found.code)")
        }
    }

    @Test func aFragmentedMP4RecordingPassesAndAForeignInitSectionIsCaught() throws {
        let folder = try TemporaryFolder()
        let clean = try Fixture.record(["--format", "fmp4"], into: folder.url, name: "clean")
        let outcome = try Fixture.inspect(clean.appendingPathComponent("master.m3u8"))
        #expect(outcome.code == 0 && outcome.codes.isEmpty, "clean fMP4 recording: \(outcome.codes) \(outcome.stderr)")

        // The init section's track id changed (tkhd and trex): the fragments name a track it lacks.
        let copy = try Fixture.copy(clean, as: "init", in: folder.url)
        let initFile = copy.appendingPathComponent("180p/init.mp4")
        var bytes = [UInt8](try Data(contentsOf: initFile))
        for (box, offset) in [("tkhd", 16), ("trex", 8)] {
            let index = try #require(Self.find(Array(box.utf8), in: bytes), "no \(box) box")
            let at = index + offset - (box == "tkhd" && bytes[index + 4] == 1 ? -8 : 0)
            bytes.replaceSubrange(at..<(at + 4), with: [0, 0, 0, 9])
        }
        try Data(bytes).write(to: initFile)
        #expect(try Fixture.inspect(copy.appendingPathComponent("master.m3u8")).codes == ["fmp4.init-mismatch"])

        // The init section's video timescale doubled (mdhd): the segments' clock is no longer the init's. The
        // 180p media then measures half as long, at twice the frame rate, starting at half its time: those
        // rules (durations, frame rate, alignment with the other variants, the subtitles' timestamp map) fire too.
        let scaled = try Fixture.copy(clean, as: "timescale", in: folder.url)
        let scaledInit = scaled.appendingPathComponent("180p/init.mp4")
        var initBytes = [UInt8](try Data(contentsOf: scaledInit))
        let mdhd = try #require(Self.find(Array("mdhd".utf8), in: initBytes), "no mdhd box")
        let at = mdhd + (initBytes[mdhd + 4] == 1 ? 24 : 16)
        let timescale = initBytes[at..<(at + 4)].reduce(0) { $0 << 8 | Int($1) } * 2
        initBytes.replaceSubrange(
            at..<(at + 4), with: (0..<4).map { UInt8(truncatingIfNeeded: timescale >> (8 * (3 - $0))) })
        try Data(initBytes).write(to: scaledInit)
        let found = try Fixture.inspect(scaled.appendingPathComponent("master.m3u8"))
        #expect(
            found.codes == [
                "extinf.duration-mismatch", "fmp4.init-mismatch", "frame-rate.mismatch",
                "variants.segments-not-aligned",
                "webvtt.timestamp-map-wrong",
            ])
        let findings = (found.deep["findings"] as? [[String: Any]]) ?? []
        #expect(findings.contains { ($0["message"] as? String)?.contains("timescale \(timescale)") == true })
    }

    /// `filterz package` of a 25 fps clip with audio, as MPEG-TS and as fMP4: nothing its own --deep rejects.
    @Test(arguments: ["ts", "fmp4"])
    func aPackagedClipHasNoFinding(_ format: String) throws {
        let folder = try TemporaryFolder()
        let clip = folder.url.appendingPathComponent("clip.mp4").path
        try Fixture.ffmpeg([
            "-f", "lavfi", "-i", "testsrc2=s=320x180:r=25:d=3", "-f", "lavfi", "-i", "sine=f=440:d=3:sample_rate=44100",
            "-c:v", "libx264", "-c:a", "aac", "-shortest", clip,
        ])
        let out = folder.url.appendingPathComponent("packaged")
        let packaged = runFilterz([
            "package", clip, "--preset", "neutral", "--out", out.path, "--ladder", "320x180@400k,160x90@150k",
            "--segment-duration", "1", "--format", format,
        ])
        try #require(packaged.code == 0, "package: \(packaged.err)")
        let outcome = try Fixture.inspect(out.appendingPathComponent("master.m3u8"))
        #expect(outcome.code == 0 && outcome.codes.isEmpty, "packaged \(format): \(outcome.codes) \(outcome.stderr)")
        let variants = outcome.deep["variants"] as? [[String: Any]] ?? []
        #expect(
            variants.count == 4 && variants.allSatisfy { ($0["segments_checked"] as? Int ?? 0) == 3 }, "\(variants)")
    }

    @Test func aLiveWindowRecordingHasNoMustFinding() throws {
        let folder = try TemporaryFolder()
        let live = try Fixture.record(["--live", "--window", "2", "--duration", "4"], into: folder.url, name: "live")
        let outcome = try Fixture.inspect(live.appendingPathComponent("master.m3u8"))
        let findings = outcome.deep["findings"] as? [[String: Any]] ?? []
        #expect(
            outcome.code == 0 && findings.allSatisfy { $0["severity"] as? String == "should" }, "live: \(outcome.codes)"
        )
        let media = try String(contentsOf: live.appendingPathComponent("180p/index.m3u8"), encoding: .utf8)
        #expect(media.contains("#EXT-X-MEDIA-SEQUENCE:2"), "the window slid: \(media)")
    }

    /// `record --live --low-latency`: every segment is several `moof`+`mdat` fragments (its parts) and each
    /// I-frame range covers the first of them. While it records (the segments listed so far) and once it ends:
    /// no finding.
    @Test func aLowLatencyRecordingHasNoFindingWhileLiveAndWhenFinished() throws {
        let folder = try TemporaryFolder()
        let video = folder.url.appendingPathComponent("ll")
        let recording = try LiveRecording(folder: video, extra: ["--low-latency", "--fps", "10", "--duration", "30"])
        _ = try recording.waitForSegments(4)
        let live = try Fixture.inspect(video.appendingPathComponent("master.m3u8"))
        Self.expectNoFinding(live, "live", framesDropped: recording.child.stderr.contains(Self.framesDropped))
        recording.signal(SIGINT)
        #expect(recording.waitForExit(timeoutSeconds: 60) == 0)
        let finished = try Fixture.inspect(video.appendingPathComponent("master.m3u8"))
        Self.expectNoFinding(finished, "finished", framesDropped: recording.child.stderr.contains(Self.framesDropped))
    }

    /// What `record` says when low latency drops frames to keep up with real time.
    static let framesDropped = "frames are dropped"

    /// No finding at all; with `framesDropped`, none on the I-frame playlists and none of the init sections'.
    /// Low latency drops frames when encoding falls behind real time (by design: the kept frames keep their
    /// timestamps), as on a machine whose cores are busy elsewhere; the media then really has the gaps, short
    /// segments and frame-rate changes that the duration, timeline and frame-rate rules report.
    static func expectNoFinding(
        _ outcome: Fixture.Outcome, _ label: String, framesDropped: Bool,
        sourceLocation: Testing.SourceLocation = #_sourceLocation
    ) {
        guard framesDropped else {
            #expect(
                outcome.code == 0 && outcome.codes.isEmpty, "\(label): \(outcome.places)",
                sourceLocation: sourceLocation)
            return
        }
        let unexplained = outcome.places.filter { $0.contains("iframes") || $0.hasPrefix("fmp4.") }
        #expect(unexplained.isEmpty, "\(label), frames dropped: \(outcome.places)", sourceLocation: sourceLocation)
    }

    /// `inspect --deep` over HTTP of a recording made with `extra` and `--encrypt aes-128`, its keys served by
    /// our server from the `--keys` folder (`live`: a low-latency recording, stopped after four segments); and
    /// whether the recorder dropped frames.
    static func inspectEncrypted(_ extra: [String], live: Bool = false) throws -> (Fixture.Outcome, Bool) {
        let folder = try TemporaryFolder()
        let media = folder.url.appendingPathComponent("media")
        let keys = folder.url.appendingPathComponent("keys")
        let encryption = ["--encrypt", "aes-128", "--key-rotation", "2", "--keys", keys.path]
        var dropped = false
        if live {
            try FileManager.default.createDirectory(at: media, withIntermediateDirectories: true)
            let recording = try LiveRecording(
                folder: media.appendingPathComponent("enc"),
                extra: extra + encryption + ["--low-latency", "--fps", "10", "--duration", "30"])
            _ = try recording.waitForSegments(4)
            recording.signal(SIGINT)
            #expect(recording.waitForExit(timeoutSeconds: 60) == 0)
            dropped = recording.child.stderr.contains(Self.framesDropped)
        } else {
            _ = try Fixture.record(extra + encryption, into: media, name: "enc")
        }
        var configuration = ServerConfiguration(root: media.path)
        configuration.host = "127.0.0.1"
        configuration.port = 0
        configuration.keysFolder = keys.path
        let server = try HTTPServer(configuration: configuration)
        defer { server.stop(graceSeconds: 1) }
        return (try Fixture.inspect(try #require(URL(string: "\(server.baseURL)/v1/videos/enc/master.m3u8"))), dropped)
    }

    /// Encrypted MPEG-TS and fMP4 recordings, decrypted with their served keys: no finding.
    @Test(arguments: ["ts", "fmp4"])
    func anEncryptedRecordingHasNoFinding(_ format: String) throws {
        let (outcome, _) = try Self.inspectEncrypted(["--format", format])
        #expect(outcome.code == 0 && outcome.codes.isEmpty, "encrypted \(format): \(outcome.places)")
    }

    /// An encrypted low-latency recording, finished: no finding.
    @Test func anEncryptedLowLatencyRecordingHasNoFinding() throws {
        let (outcome, dropped) = try Self.inspectEncrypted([], live: true)
        Self.expectNoFinding(outcome, "encrypted low latency", framesDropped: dropped)
    }

    /// Two variants encoded with different GOPs (1 s and 1.5 s), cut by ffmpeg's hls muxer at keyframes, and a
    /// multivariant playlist whose BANDWIDTH/AVERAGE-BANDWIDTH come from a first `--deep` run.
    @Test func variantsEncodedWithDifferentGOPsAreNotAligned() throws {
        let folder = try TemporaryFolder()
        for (name, gop) in [("a", "30"), ("b", "45")] {
            try Fixture.ffmpeg([
                "-f", "lavfi", "-i", "testsrc2=size=160x90:rate=30", "-t", "6", "-pix_fmt", "yuv420p", "-c:v",
                "libx264",
                "-g", gop, "-keyint_min", gop, "-sc_threshold", "0", "-f", "hls", "-hls_time", "1",
                "-hls_playlist_type", "vod",
                "-hls_segment_filename", folder.url.appendingPathComponent("\(name)%d.ts").path,
                folder.url.appendingPathComponent("\(name).m3u8").path,
            ])
        }
        // One target duration for both (ffmpeg writes 1 and 2): a difference would be a playlist error.
        try Fixture.edit(folder.url, "a.m3u8", "#EXT-X-TARGETDURATION:1\n", "#EXT-X-TARGETDURATION:2\n")
        let master = folder.url.appendingPathComponent("master.m3u8")
        func writeMaster(_ measured: [(peak: Int, average: Int, codecs: String)]) throws {
            var text = "#EXTM3U\n#EXT-X-VERSION:3\n"
            for (name, variant) in zip(["a", "b"], measured) {
                text += "#EXT-X-STREAM-INF:BANDWIDTH=\(variant.peak),AVERAGE-BANDWIDTH=\(variant.average),"
                text += "CODECS=\"\(variant.codecs)\",RESOLUTION=160x90\n\(name).m3u8\n"
            }
            try text.write(to: master, atomically: true, encoding: .utf8)
        }
        try writeMaster([(100_000, 100_000, "avc1.640000"), (100_000, 100_000, "avc1.640000")])
        let first = try Fixture.inspect(master)
        let measured = (first.deep["variants"] as? [[String: Any]] ?? []).map {
            (
                peak: ($0["measured_peak_bps"] as? Int) ?? 0, average: ($0["measured_average_bps"] as? Int) ?? 0,
                codecs: ($0["codecs_measured"] as? [String] ?? []).joined(separator: ",")
            )
        }
        try #require(measured.count == 2)
        try writeMaster(measured)
        let second = try Fixture.inspect(master)
        #expect(second.codes == ["variants.segments-not-aligned"], "\(second.codes)")
        #expect(second.code == 0, "a should finding alone passes")
    }

    /// The ffmpeg CLI's hls muxer with its defaults (and a WebVTT track): what docs/INSPECT.md reports.
    @Test func ffmpegsDefaultHLSOutputIsJudgedAsDocumented() throws {
        let folder = try TemporaryFolder()
        let subtitles = folder.url.appendingPathComponent("s.srt")
        try "1\n00:00:00,500 --> 00:00:02,000\nHello\n\n".write(to: subtitles, atomically: true, encoding: .utf8)
        try Fixture.ffmpeg([
            "-f", "lavfi", "-i", "testsrc=size=320x180:rate=30", "-f", "lavfi", "-i",
            "sine=frequency=440:sample_rate=48000",
            "-i", subtitles.path, "-t", "12", "-map", "0:v", "-map", "1:a", "-map", "2:s", "-c:v", "libx264",
            "-pix_fmt",
            "yuv420p", "-c:a", "aac", "-c:s", "webvtt", "-f", "hls", "-master_pl_name", "master.m3u8",
            "-var_stream_map",
            "v:0,a:0,s:0,sgroup:subs", folder.url.appendingPathComponent("out_%v.m3u8").path,
        ])
        let outcome = try Fixture.inspect(folder.url.appendingPathComponent("master.m3u8"))
        #expect(
            outcome.codes == [
                "bandwidth.average-missing", "bandwidth.peak-above-declared", "idr.interval",
                "webvtt.timestamp-map-missing",
            ], "\(outcome.codes)")
        #expect(outcome.code == 1)
    }

    @Test func segmentsNSamplesThatManyPerPlaylist() throws {
        let folder = try TemporaryFolder()
        let clean = try Fixture.record(["--duration", "3"], into: folder.url, name: "clean")
        let outcome = try Fixture.inspect(clean.appendingPathComponent("master.m3u8"), ["--segments", "2"])
        let variants = outcome.deep["variants"] as? [[String: Any]] ?? []
        #expect(variants.allSatisfy { ($0["segments_checked"] as? Int) == 2 && ($0["segments"] as? Int) == 3 })
        #expect(SegmentPlan.sampledIndices(total: 10, count: 3) == [0, 5, 9])
        #expect(SegmentPlan.sampledIndices(total: 3, count: 5) == [0, 1, 2])
        #expect(SegmentPlan.sampledIndices(total: 7, count: 1) == [0])
    }

    @Test(arguments: [
        UsageCase(arguments: ["--segments", "2"], message: "--segments needs --deep"),
        UsageCase(arguments: ["--report", "r.html"], message: "--report needs --deep"),
        UsageCase(
            arguments: ["--deep", "--segments", "0"],
            message: "--segments expects 'all' or a whole number of at least 1, got '0'"),
        UsageCase(
            arguments: ["--deep", "--segments", "some"],
            message: "--segments expects 'all' or a whole number of at least 1, got 'some'"),
    ])
    func badDeepOptionsAreUsageErrors(_ usage: UsageCase) {
        let run = runFilterz(["inspect"] + usage.arguments + ["x.m3u8"])
        #expect(run.code == 2)
        #expect(run.out.isEmpty)
        #expect(run.err.hasPrefix("Error: \(usage.message)\n"), "\(run.err)")
    }

    static func find(_ needle: [UInt8], in bytes: [UInt8]) -> Int? {
        guard bytes.count >= needle.count else { return nil }
        for index in 0...(bytes.count - needle.count) where bytes[index..<(index + needle.count)].elementsEqual(needle)
        {
            return index
        }
        return nil
    }

    /// A huge stream's report stays bounded: JSON lists stop at the listing limit with their full lengths in
    /// `truncated`, and a chart draws at most one bar per pixel, keeping every peak and the whole time span.
    @Test func deepReportsOfAHugeStreamStayBounded() throws {
        let findings = (0..<2500).map {
            Finding(.peakAboveDeclared, playlist: "v\($0 % 3).m3u8", segment: "s\($0).ts", message: "peak")
        }
        let report = AuditReport(variants: [VariantSummary(uri: "v0.m3u8")], findings: findings)
        guard case .object(let members) = DeepJSONReport.value(report),
            case .array(let listed)? = members.first(where: { $0.0 == "findings" })?.1,
            case .object(let truncated)? = members.first(where: { $0.0 == "truncated" })?.1
        else {
            Issue.record("no findings or no truncated member")
            return
        }
        #expect(listed.count == ListingLimit.items)
        #expect(truncated.map(\.0) == ["findings"] && truncated.first?.1 == .integer(2500))

        var generator = SeededGenerator(seed: 7)
        let samples = (0..<20_000).map {
            BitrateMeasurement.Sample(
                startSeconds: Double($0) * 2, durationSeconds: 2,
                bitsPerSecond: Int.random(in: 1...9, using: &generator))
        }
        let bars = DeepHTMLReport.bars(samples, maximum: DeepHTMLReport.maximumBars)
        #expect(bars.count <= DeepHTMLReport.maximumBars)
        #expect(bars.first?.startSeconds == 0 && bars.map { $0.startSeconds + $0.durationSeconds }.max() == 40_000)
        #expect(bars.map(\.bitsPerSecond).max() == samples.map(\.bitsPerSecond).max())
        #expect(DeepHTMLReport.bars(Array(samples.prefix(100)), maximum: 640) == Array(samples.prefix(100)))
    }
}
