import HLS
import JSON

/// Every WebVTT segment carries X-TIMESTAMP-MAP, mapping its cue times onto the media's own timeline
/// (RFC 8216bis §3.1.4): MPEGTS − LOCAL equals the media's presentation time at cue time 0, modulo 2^33.
///
/// Cue time 0 is the start of the presentation. The first listed subtitle segment starts at cue time
/// (media sequence number × average EXTINF) — exact for VOD and EVENT playlists, which start at 0, and for
/// live windows of equal segments — and the media segment with the same sequence number says which
/// presentation time that is.
enum SubtitleRules {
    static func check(_ context: AuditContext) -> [Finding] {
        var findings: [Finding] = []
        for audited in context.input.playlists {
            guard case .rendition(let rendition) = audited.role, rendition.type == .subtitles else { continue }
            let playlist = audited.playlist
            let sequence = playlist.firstMediaSequenceNumber
            var expectedOffset: Double?
            if let start = context.mediaStart(forSubtitleGroup: rendition.groupID, sequence: sequence),
                !playlist.segments.isEmpty
            {
                expectedOffset = start - Double(sequence) * playlist.totalDuration / Double(playlist.segments.count)
            }
            let tolerance = sequence == 0 ? 0.034 : 0.25 * Double(playlist.targetDuration ?? 1)
            var missing: [String] = []
            var wrong: (segment: String, offset: Double)?
            for (segment, observation) in zip(playlist.segments, audited.segments) {
                guard case .subtitles(let document) = observation.outcome, let document else { continue }
                guard let map = document.timestampMap else {
                    missing.append(segment.uri)
                    continue
                }
                guard let expectedOffset, wrong == nil else { continue }
                let wrap = Double(1 << 33) / 90_000
                var difference = (map.offsetSeconds - expectedOffset).truncatingRemainder(dividingBy: wrap)
                if difference > wrap / 2 { difference -= wrap }
                if difference < -wrap / 2 { difference += wrap }
                if abs(difference) > tolerance { wrong = (segment.uri, map.offsetSeconds) }
            }
            if let first = missing.first {
                findings.append(
                    Finding(
                        .timestampMapMissing, playlist: audited.uri, segment: first,
                        message:
                            "\(missing.count) WebVTT segment(s) lack X-TIMESTAMP-MAP (cues drift by the media's start offset)",
                        measured: "absent", declared: nil))
            }
            if let wrong, let expectedOffset {
                findings.append(
                    Finding(
                        .timestampMapWrong, playlist: audited.uri, segment: wrong.segment,
                        message:
                            "X-TIMESTAMP-MAP puts cue time 0 at \(fixedNumber(wrong.offset, digits: 3)) s of the media; it is at \(fixedNumber(expectedOffset, digits: 3)) s",
                        measured: "MPEGTS:\(ticks(expectedOffset)) for LOCAL 0",
                        declared: "MPEGTS:\(ticks(wrong.offset)) for LOCAL 0"))
            }
        }
        return findings
    }

    /// `seconds` as 90 kHz MPEG-TS ticks, modulo 2^33.
    private static func ticks(_ seconds: Double) -> Int64 {
        let wrap = Double(1 << 33)
        let value = (seconds * 90_000).rounded().truncatingRemainder(dividingBy: wrap)
        return Int64(exactly: value < 0 ? value + wrap : value) ?? 0
    }
}
