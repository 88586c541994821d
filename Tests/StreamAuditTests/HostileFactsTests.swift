import HLS
import Testing

@testable import StreamAudit

/// The rules on numbers a playlist or a container can hold and no recorder writes: each run ends with a report,
/// the values saturated, never a trap.
struct HostileFactsTests {
    /// One fMP4 segment: a 30 fps video track whose frames start at `pts` (90 kHz) and an AAC track whose frames
    /// each last `audioDuration` ticks.
    static func facts(pts: [Int64], audioDuration: Int64 = 1024) -> SegmentFacts {
        let video = pts.map {
            FrameFact(presentationTime: $0, decodingTime: $0, duration: 3000, size: 900, isIDR: true)
        }
        let audio = (0..<3).map { index in
            FrameFact(
                presentationTime: Int64(index) * 1024, decodingTime: nil, duration: audioDuration, size: 200,
                isIDR: true)
        }
        return SegmentFacts(
            tracks: [
                TrackFacts(
                    kind: .video, codec: .h264, timeBaseNumerator: 1, timeBaseDenominator: 90_000, frames: video),
                TrackFacts(
                    kind: .audio, codec: .aac, timeBaseNumerator: 1, timeBaseDenominator: 48_000, sampleRate: 48_000,
                    frames: audio),
            ], initTrackIDs: [1, 2], fragmentTrackIDs: [1, 2])
    }

    static func audit(_ segments: [(extinf: Double, facts: SegmentFacts, bytes: Int)]) -> [Finding] {
        var playlist = MediaPlaylist(version: 7, targetDuration: 2, playlistType: .vod, endList: true)
        for index in segments.indices {
            playlist.segments.append(Segment(uri: "s\(index).m4s", duration: segments[index].extinf))
        }
        let audited = AuditedPlaylist(
            uri: "v.m3u8", location: "v.m3u8", role: .standalone, playlist: playlist,
            segments: segments.map { SegmentObservation(.measured($0.facts), byteCount: $0.bytes) })
        return StreamAuditor.audit(AuditInput(multivariant: nil, playlists: [audited])).findings
    }

    @Test func anEXTINFOf10To20SecondsIsATimescaleFindingWithoutTrapping() {
        // Video of 2 s against an EXTINF of 10^20 s: the "intended timescale" is 4.5 × 10^24, past Int.
        let findings = Self.audit([(1e20, Self.facts(pts: (0..<60).map { Int64($0) * 3000 }), 50_000)])
        let mismatch = findings.first { $0.code == .initMismatch }
        #expect(mismatch?.message.hasSuffix("about \(Int.max)") == true, "\(findings)")
    }

    @Test func aSegmentOfAlmostNoDurationHasASaturatedBitrate() {
        let findings = Self.audit([(1e-300, Self.facts(pts: [0]), 50_000), (2, Self.facts(pts: [180_000]), 50_000)])
        #expect(findings.contains { $0.code == .durationMismatch })
    }

    @Test func timestampsAtBothEndsOfInt64AndAACFramesLastingAlmostInt64AreMeasured() {
        // Two presentation times 2^64 − 2 ticks apart, and three AAC frames whose durations sum past Int64.
        let findings = Self.audit([(2, Self.facts(pts: [.min + 1, .max], audioDuration: .max / 2), 50_000)])
        #expect(findings.contains { $0.code == .initMismatch })
    }
}
