import HLS

/// Every WebVTT segment carries X-TIMESTAMP-MAP, mapping its cue times onto the media's own timeline
/// (RFC 8216bis §3.1.4): MPEGTS − LOCAL equals the first presentation time of the media, modulo 2^33.
enum SubtitleRules {
    static func check(_ context: AuditContext) -> [Finding] {
        var findings: [Finding] = []
        for audited in context.input.playlists {
            guard case .rendition(let rendition) = audited.role, rendition.type == .subtitles else { continue }
            let mediaStart = context.mediaTimelineStart(forSubtitleGroup: rendition.groupID)
            var missing: [String] = []
            var wrong: (segment: String, offset: Double)?
            for (segment, observation) in zip(audited.playlist.segments, audited.segments) {
                guard case .subtitles(let document) = observation.outcome, let document else { continue }
                guard let map = document.timestampMap else {
                    missing.append(segment.uri)
                    continue
                }
                guard let mediaStart, wrong == nil else { continue }
                let ticks = Double(1 << 33)
                var difference = (map.offsetSeconds * 90_000 - mediaStart * 90_000).truncatingRemainder(dividingBy: ticks)
                if difference > ticks / 2 { difference -= ticks }
                if difference < -ticks / 2 { difference += ticks }
                if abs(difference) > 90 * 34 { wrong = (segment.uri, map.offsetSeconds) }
            }
            if let first = missing.first {
                findings.append(
                    Finding(
                        .timestampMapMissing, playlist: audited.uri, segment: first,
                        message: "\(missing.count) WebVTT segment(s) lack X-TIMESTAMP-MAP (cues drift by the media's start offset)",
                        measured: "absent", declared: nil))
            }
            if let wrong, let mediaStart {
                findings.append(
                    Finding(
                        .timestampMapWrong, playlist: audited.uri, segment: wrong.segment,
                        message: "X-TIMESTAMP-MAP puts cue time 0 at \(String(format2: wrong.offset, decimals: 3)) s; the media starts at \(String(format2: mediaStart, decimals: 3)) s",
                        measured: "MPEGTS:\(Int64((mediaStart * 90_000).rounded()) % (1 << 33)) for LOCAL 0",
                        declared: "MPEGTS:\(Int64((wrong.offset * 90_000).rounded())) for LOCAL 0"))
            }
        }
        return findings
    }
}
