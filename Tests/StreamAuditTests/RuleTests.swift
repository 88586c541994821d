import HLS
import Testing

@testable import StreamAudit

/// Rules over synthetic facts, for what a recording cannot easily be made to show.
struct RuleTests {
    /// A video segment of `frames` frames at `rate` fps from `start` seconds (90 kHz), IDR first unless told.
    static func video(start: Double, frames: Int, rate: Double, idrs: Set<Int> = [0]) -> SegmentFacts {
        let step = 90_000 / rate
        let list = (0..<frames).map { index in
            let pts = Int64(((start + Double(index) / rate) * 90_000).rounded())
            return FrameFact(
                presentationTime: pts, decodingTime: pts, duration: Int64(step), size: 1000, isIDR: idrs.contains(index)
            )
        }
        let parameters = VideoParameters(
            codec: .h264, profile: 100, compatibility: 0, level: 30, width: 640, height: 360)
        return SegmentFacts(tracks: [
            TrackFacts(
                kind: .video, codec: .h264, timeBaseNumerator: 1, timeBaseDenominator: 90_000, video: parameters,
                frames: list)
        ])
    }

    static func audit(_ segments: [(Double, SegmentFacts, Int)], target: Int, discontinuityAt: Int? = nil)
        -> AuditReport
    {
        var playlist = MediaPlaylist(version: 3, targetDuration: target, playlistType: .vod, endList: true)
        for (index, segment) in segments.enumerated() {
            playlist.segments.append(
                Segment(uri: "s\(index).ts", duration: segment.0, discontinuity: index == discontinuityAt))
        }
        let audited = AuditedPlaylist(
            uri: "v.m3u8", location: "v.m3u8", role: .standalone, playlist: playlist,
            segments: segments.map { SegmentObservation(.measured($0.1), byteCount: $0.2) })
        return StreamAuditor.audit(AuditInput(multivariant: nil, playlists: [audited]))
    }

    @Test func thePeakIsTheHighestRunOfHalfToOneAndAHalfTargetDurations() {
        // Target 4 s, segments of 2 s: a lone 2 s segment qualifies (≥ 2 s); a 1 s burst does not on its own.
        var playlist = MediaPlaylist(version: 3, targetDuration: 4, playlistType: .vod, endList: true)
        let durations = [2.0, 2.0, 1.0, 2.0]
        let bytes = [100_000, 100_000, 200_000, 50_000]
        for (index, duration) in durations.enumerated() {
            playlist.segments.append(Segment(uri: "\(index).ts", duration: duration))
        }
        let audited = AuditedPlaylist(
            uri: "v", location: "v", role: .standalone, playlist: playlist,
            segments: bytes.map { SegmentObservation(.notSampled, byteCount: $0) })
        let measured = BitrateMeasurement(audited)
        // Best run: segments 2+3 (1 s + 2 s = 3 s ≤ 6 s) or 1+2 (3 s): (100k + 200k) × 8 / 3 s = 800 kb/s.
        #expect(measured.peakBitsPerSecond == 800_000)
        #expect(measured.averageBitsPerSecond == Int((450_000.0 * 8 / 7).rounded()))
    }

    @Test func aFrameRateChangeWithoutADiscontinuityIsCaughtAndWithOneIsNot() {
        let first = Self.video(start: 10, frames: 30, rate: 30)
        let second = Self.video(start: 11, frames: 25, rate: 25)
        let codes = Self.audit([(1, first, 5000), (1, second, 5000)], target: 1).findings.map(\.code)
        #expect(codes == [.frameRateChanged])
        #expect(Self.audit([(1, first, 5000), (1, second, 5000)], target: 1, discontinuityAt: 1).findings.isEmpty)
    }

    @Test func idrsFurtherThanTwoSecondsApartAreAShouldFinding() {
        let segments = (0..<3).map { index in
            (3.0, Self.video(start: 10 + 3 * Double(index), frames: 90, rate: 30), 30_000)
        }
        let report = Self.audit(segments, target: 3)
        #expect(report.findings.map(\.code) == [.idrInterval])
        #expect(report.findings.first?.severity == .should)
        #expect(report.variants.first?.idrIntervalSeconds == 3)
    }

    @Test func aSegmentWhoseFirstFrameIsNotAnIDRIsCaught() {
        let segment = Self.video(start: 10, frames: 30, rate: 30, idrs: [5])
        let report = Self.audit([(1, Self.video(start: 9, frames: 30, rate: 30), 5000), (1, segment, 5000)], target: 1)
        #expect(report.findings.map(\.code) == [.notStartingWithIDR])
        #expect(report.findings.first?.measured == "IDR at frame 6")
    }

    /// An encrypted ladder's I-frames are resources of their own beside the variant's segments: they are still
    /// held to the variant's IDRs (the one variant in the same folder), so an I-frame cut short is caught.
    @Test func anIFrameResourceOfItsOwnIsHeldToTheIDRsOfTheVariantBesideIt() {
        func audit(iFrameBytes: Int) -> [FindingCode] {
            var media = MediaPlaylist(version: 3, targetDuration: 1, playlistType: .vod, endList: true)
            var iFrames = MediaPlaylist(
                version: 4, targetDuration: 1, playlistType: .vod, iFramesOnly: true, endList: true)
            var mediaFacts: [SegmentObservation] = []
            var iFrameFacts: [SegmentObservation] = []
            for index in 0..<2 {
                media.segments.append(Segment(uri: "s\(index).ts", duration: 1))
                iFrames.segments.append(Segment(uri: "s\(index).iframe.ts", duration: 1))
                let segment = Self.video(start: 10 + Double(index), frames: 30, rate: 30)
                mediaFacts.append(SegmentObservation(.measured(segment), byteCount: 30_000))
                var frame = Self.video(start: 10 + Double(index), frames: 1, rate: 30)
                frame.tracks[0].frames[0].size = iFrameBytes
                iFrameFacts.append(SegmentObservation(.measured(frame), byteCount: iFrameBytes))
            }
            let variant = Variant(uri: "720p/index.m3u8", bandwidth: 240_000, averageBandwidth: 240_000)
            let iFrameVariant = IFrameVariant(uri: "720p/iframes.m3u8", bandwidth: 8_000, averageBandwidth: 8_000)
            let input = AuditInput(
                multivariant: MultivariantPlaylist(variants: [variant], iFrameVariants: [iFrameVariant]),
                playlists: [
                    AuditedPlaylist(
                        uri: variant.uri, location: "/srv/v/720p/index.m3u8", role: .variant(variant),
                        playlist: media, segments: mediaFacts),
                    AuditedPlaylist(
                        uri: iFrameVariant.uri, location: "/srv/v/720p/iframes.m3u8",
                        role: .iFrameVariant(iFrameVariant), playlist: iFrames, segments: iFrameFacts),
                ])
            return StreamAuditor.audit(input).findings.map(\.code).filter { $0 == .iFrameRangeNotIDR }
        }
        #expect(audit(iFrameBytes: 1000).isEmpty)
        #expect(audit(iFrameBytes: 600) == [.iFrameRangeNotIDR, .iFrameRangeNotIDR])
    }

    @Test func everyCodeHasARuleAndAFix() {
        for code in FindingCode.allCases {
            #expect(!code.rule.isEmpty && !code.fix.isEmpty && code.rawValue.contains("."))
        }
    }
}
