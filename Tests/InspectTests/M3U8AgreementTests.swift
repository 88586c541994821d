import FilterzTestSupport
import Foundation
import RealClients
import Testing

@testable import CLIKit
@testable import Inspect

/// Python m3u8 6.0.0, an independent parser, reads the sample playlists the same way `inspect --json` does.
@Suite(.enabled(if: PythonM3U8.isInstalled, "needs python3 with m3u8 (make deps)"), .network)
struct M3U8AgreementTests {
    /// Reads the playlist with m3u8 and our JSON from a file, prints every field where they differ.
    static let compareScript = """
        import json, sys, m3u8
        p = m3u8.loads(open(sys.argv[1], encoding="utf-8").read())
        ours = json.load(open(sys.argv[2], encoding="utf-8"))
        def yes(v): return str(v).upper() == "YES"
        def byterange(s):
            if not s.byterange: return None
            length, _, offset = s.byterange.partition("@")
            return {"length": int(length), "offset": int(offset) if offset else None}
        theirs = {
            "kind": "master" if p.is_variant else "media", "version": p.version,
            "target_duration": p.target_duration, "endlist": p.is_endlist,
            "playlist_type": p.playlist_type.upper() if p.playlist_type else None,
            "independent_segments": p.is_independent_segments,
            "variants": [{"uri": v.uri, "bandwidth": v.stream_info.bandwidth,
                          "average_bandwidth": v.stream_info.average_bandwidth, "codecs": v.stream_info.codecs,
                          "resolution": list(v.stream_info.resolution) if v.stream_info.resolution else None,
                          "frame_rate": v.stream_info.frame_rate, "audio": v.stream_info.audio,
                          "subtitles": v.stream_info.subtitles} for v in p.playlists],
            "renditions": [{"type": m.type, "group_id": m.group_id, "name": m.name, "language": m.language,
                            "uri": m.uri, "default": yes(m.default), "autoselect": yes(m.autoselect),
                            "forced": yes(m.forced)} for m in p.media],
            "segments": [{"uri": s.uri, "duration": s.duration, "title": s.title or None,
                          "byterange": byterange(s), "discontinuity": s.discontinuity} for s in p.segments],
        }
        def compare(a, b, path):
            if isinstance(a, dict):
                for k in a: compare(a[k], b.get(k, "<missing>"), path + "." + k)
            elif isinstance(a, list):
                if not isinstance(b, list) or len(a) != len(b): print(path, "length differs"); return
                for i, (x, y) in enumerate(zip(a, b)): compare(x, y, "%s[%d]" % (path, i))
            elif isinstance(a, float) or isinstance(b, float):
                if b is None or a is None or abs(a - b) > 1e-9: print(path, repr(a), "vs ours", repr(b))
            elif a != b:
                print(path, repr(a), "vs ours", repr(b))
        compare(theirs, ours, "")
        """

    static let samples = [
        "filterz-master.m3u8", "filterz-vod.m3u8", "filterz/720p/index.m3u8", "filterz/subs/ko/index.m3u8",
    ]

    @Test(arguments: samples)
    func pythonM3U8AgreesWithOurJSON(_ name: String) throws {
        let path = SharedData.sampleMedia.appendingPathComponent("playlists/\(name)").path
        let run = InspectCLI.run(["inspect", "--json", path])
        #expect(run.code == 0)
        let folder = try TemporaryFolder()
        let ours = folder.url.appendingPathComponent("ours.json")
        try run.out.write(to: ours, atomically: true, encoding: .utf8)
        let result = try ExternalTool.run("python3", ["-c", Self.compareScript, path, ours.path], timeoutSeconds: 60)
        #expect(result.exitCode == 0, "\(result.stderr)")
        #expect(result.stdout == "", "\(name): \(result.stdout)")
    }
}
