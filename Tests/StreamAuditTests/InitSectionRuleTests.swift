import HLS
import Testing

@testable import StreamAudit

/// The init section's timescale against the segments' clock, on facts: what an fMP4 I-frame range of a
/// low-latency segment (its first `moof`+`mdat` fragment, one frame) measures is not the segment's duration.
struct InitSectionRuleTests {
    /// One fMP4 video fragment of `frames` frames at 30 fps from `start` seconds, on a 90 kHz clock.
    static func fragment(start: Double, frames: Int) -> SegmentFacts {
        let step: Int64 = 3000
        let first = Int64((start * 90_000).rounded())
        let list = (0..<frames).map { index in
            FrameFact(
                presentationTime: first + Int64(index) * step, decodingTime: first + Int64(index) * step,
                duration: step, size: 4000, isIDR: index == 0)
        }
        return SegmentFacts(
            tracks: [
                TrackFacts(
                    kind: .video, codec: .h264, timeBaseNumerator: 1, timeBaseDenominator: 90_000, frames: list)
            ], initTrackIDs: [1], fragmentTrackIDs: [1])
    }

    /// A playlist of 2 s entries (I-frames only: byte ranges of each segment's start), each measured as given.
    static func audit(_ facts: [SegmentFacts], iFramesOnly: Bool) -> [Finding] {
        var playlist = MediaPlaylist(version: 7, targetDuration: 2, playlistType: .vod, endList: true)
        playlist.iFramesOnly = iFramesOnly
        for index in facts.indices {
            playlist.segments.append(
                Segment(
                    uri: "seg\(index).m4s", duration: 2,
                    byteRange: iFramesOnly ? ByteRange(length: 5000, offset: 0) : nil))
        }
        let audited = AuditedPlaylist(
            uri: "v.m3u8", location: "v.m3u8", role: .standalone, playlist: playlist,
            segments: facts.map { SegmentObservation(.measured($0), byteCount: 5000) })
        return StreamAuditor.audit(AuditInput(multivariant: nil, playlists: [audited])).findings
    }

    @Test func anIFrameRangeOfOneFragmentIsMeasuredToTheNextIFrame() {
        // Low latency: each 2 s segment is six 1/3 s fragments; the I-frame range covers the first, one frame.
        let ranges = (0..<4).map { Self.fragment(start: 10 + 2 * Double($0), frames: 1) }
        #expect(Self.audit(ranges, iFramesOnly: true).isEmpty)
    }

    @Test func anIFrameRangeOnAnotherClockIsStillCaught() {
        // Muxed at 90000, the init says 45000: by its clock the I-frames are 4 s apart, each listed as 2 s.
        let ranges = (0..<4).map { index in
            var facts = Self.fragment(start: 10 + 2 * Double(index), frames: 1)
            facts.tracks[0].timeBaseDenominator = 45_000
            return facts
        }
        let findings = Self.audit(ranges, iFramesOnly: true)
        #expect(findings.map(\.code) == [FindingCode](repeating: .initMismatch, count: 3), "\(findings)")
        #expect(findings.first?.message.contains("lasts 2.00× its EXTINF") == true, "\(findings)")
    }

    @Test func aWholeSegmentOnAnotherClockIsStillCaught() {
        let segments = (0..<2).map { Self.fragment(start: 10 + 2 * Double($0), frames: 60) }
        #expect(Self.audit(segments, iFramesOnly: false).isEmpty)
        var halved = segments
        for index in halved.indices { halved[index].tracks[0].timeBaseDenominator = 180_000 }
        let codes = Self.audit(halved, iFramesOnly: false).map(\.code)
        #expect(codes.filter { $0 == .initMismatch }.count == 2, "\(codes)")
    }

    /// Video with unsigned composition offsets (`trun` version 0, no edit list): the first frame presented two
    /// frames after the fragment's `tfdt`. Signed offsets present it at `tfdt`.
    @Test func videoPresentedAfterItsFragmentsDecodingTimeIsReported() {
        var late = Self.fragment(start: 10, frames: 60)
        for index in late.tracks[0].frames.indices { late.tracks[0].frames[index].presentationTime! += 6000 }
        let findings = Self.audit([late], iFramesOnly: false)
        #expect(findings.map(\.code) == [.presentationAfterDecode], "\(findings)")
        #expect(findings.first?.message.contains("67 ms after") == true, "\(findings)")
        #expect(Self.audit([Self.fragment(start: 10, frames: 60)], iFramesOnly: false).isEmpty)
        // An I-frame range holds one frame: its presentation is the I-frame playlists' business.
        #expect(Self.audit([late, late], iFramesOnly: true).allSatisfy { $0.code != .presentationAfterDecode })
    }
}
