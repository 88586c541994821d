import JSON

/// Presentation times run on from segment to segment unless EXT-X-DISCONTINUITY says otherwise, and the
/// frame rate does not change without one (RFC 8216bis §3, Apple 8.13, 8.14).
enum TimelineRules {
    /// MPEG-TS timestamps wrap at 2^33 ticks of 90 kHz.
    static let wrapSeconds = Double(1 << 33) / 90_000

    static func check(_ context: AuditContext) -> [Finding] {
        var findings: [Finding] = []
        for audited in context.mediaPlaylists {
            let measured = audited.measured
            for (previous, next) in zip(measured, measured.dropFirst())
            where next.index == previous.index + 1 && !next.segment.discontinuity {
                guard let before = previous.facts.timingTrack, let after = next.facts.timingTrack,
                    let end = before.endPresentationSeconds, let start = after.firstPresentationSeconds
                else { continue }
                var delta = start - end
                if delta > wrapSeconds / 2 { delta -= wrapSeconds }
                if delta < -wrapSeconds / 2 { delta += wrapSeconds }
                let tolerance = max(before.frameDurationSeconds ?? 0, 0.002)
                if delta > tolerance {
                    findings.append(
                        Finding(
                            .timelineGap, playlist: audited.uri, segment: next.segment.uri,
                            message:
                                "\(fixedNumber(delta, digits: 3)) s of media missing before this segment, with no EXT-X-DISCONTINUITY",
                            measured: "starts at \(fixedNumber(start, digits: 3)) s",
                            declared: "starts at \(fixedNumber(end, digits: 3)) s"))
                } else if delta < -tolerance {
                    findings.append(
                        Finding(
                            .timelineOverlap, playlist: audited.uri, segment: next.segment.uri,
                            message:
                                "this segment repeats \(fixedNumber(-delta, digits: 3)) s of the previous one's media, with no EXT-X-DISCONTINUITY",
                            measured: "starts at \(fixedNumber(start, digits: 3)) s",
                            declared: "starts at \(fixedNumber(end, digits: 3)) s"))
                }
                if let rateBefore = previous.facts.video?.framesPerSecond,
                    let rateAfter = next.facts.video?.framesPerSecond,
                    rateBefore > 0, abs(rateAfter / rateBefore - 1) > 0.02
                {
                    findings.append(
                        Finding(
                            .frameRateChanged, playlist: audited.uri, segment: next.segment.uri,
                            message:
                                "the frame rate changes from \(fixedNumber(rateBefore, digits: 3)) to \(fixedNumber(rateAfter, digits: 3)) fps with no EXT-X-DISCONTINUITY",
                            measured: fixedNumber(rateAfter, digits: 3),
                            declared: fixedNumber(rateBefore, digits: 3)))
                }
            }
        }
        return findings
    }
}
