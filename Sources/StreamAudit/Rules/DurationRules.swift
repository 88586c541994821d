import JSON

/// EXTINF against the segment's real media duration, one by one and summed over every run (Apple 8.1).
enum DurationRules {
    static func check(_ context: AuditContext) -> [Finding] {
        var findings: [Finding] = []
        for audited in context.mediaPlaylists {
            var drift = 0.0
            var previousIndex: Int?
            for (index, segment, facts) in audited.measured {
                guard let track = facts.timingTrack, let measured = track.durationSeconds else { continue }
                let tolerance = (track.frameDurationSeconds ?? 0) + 0.0015
                if previousIndex != index - 1 || segment.discontinuity { drift = 0 }
                previousIndex = index
                let difference = segment.duration - measured
                drift += difference
                if abs(difference) > tolerance || abs(drift) > tolerance {
                    let what = abs(difference) > tolerance ? "EXTINF" : "the EXTINF sum up to here"
                    findings.append(
                        Finding(
                            .durationMismatch, playlist: audited.uri, segment: segment.uri,
                            message:
                                "\(what) is off the media by \(fixedNumber(abs(difference) > tolerance ? difference : drift, digits: 3)) s (allowed: one frame, \(fixedNumber(tolerance, digits: 3)) s)",
                            measured: fixedNumber(measured, digits: 3),
                            declared: fixedNumber(segment.duration, digits: 3)))
                    drift = 0
                }
            }
        }
        return findings
    }
}
