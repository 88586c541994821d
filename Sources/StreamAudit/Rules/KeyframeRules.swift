import JSON

/// Where the IDRs are: at the start of every video segment (Apple 7.4), and at least every 2 s (Apple 1.13).
enum KeyframeRules {
    static let longestIntervalSeconds = 2.0

    static func check(_ context: AuditContext) -> [Finding] {
        var findings: [Finding] = []
        for audited in context.mediaPlaylists {
            for (_, segment, facts) in audited.measured {
                guard let video = facts.video, let first = video.frames.first else { continue }
                if !first.isIDR {
                    let firstIDR = video.frames.firstIndex(where: \.isIDR)
                    findings.append(
                        Finding(
                            .notStartingWithIDR, playlist: audited.uri, segment: segment.uri,
                            message: "the first video frame is not an IDR"
                                + (firstIDR.map { " (the first IDR is frame \($0 + 1))" } ?? " (the segment has no IDR)"),
                            measured: firstIDR.map { "IDR at frame \($0 + 1)" } ?? "no IDR", declared: "IDR at frame 1")
                    )
                }
            }
            if let interval = IDRIntervals(audited), let longest = interval.longestSeconds,
                longest > longestIntervalSeconds + (interval.frameSeconds ?? 0) / 2
            {
                findings.append(
                    Finding(
                        .idrInterval, playlist: audited.uri, segment: interval.longestAt,
                        message:
                            "IDRs are up to \(fixedNumber(longest, digits: 2)) s apart (average \(fixedNumber(interval.averageSeconds ?? 0, digits: 2)) s, deviation \(fixedNumber(interval.deviationSeconds ?? 0, digits: 2)) s)",
                        measured: fixedNumber(longest, digits: 2), declared: "≤ 2.00"))
            }
        }
        return findings
    }
}

/// The intervals between consecutive IDRs of a playlist (within a segment and across adjacent measured
/// segments without a discontinuity between them).
struct IDRIntervals {
    var intervals: [Double] = []
    var longestSeconds: Double?
    /// The segment where the longest interval ends.
    var longestAt: String?
    var frameSeconds: Double?

    init?(_ audited: AuditedPlaylist) {
        var previous: (index: Int, seconds: Double)?
        for (index, segment, facts) in audited.measured {
            guard let video = facts.video else { continue }
            frameSeconds = frameSeconds ?? video.frameDurationSeconds
            if segment.discontinuity || previous.map({ $0.index != index - 1 }) ?? false { previous = nil }
            let idrs = video.frames.filter(\.isIDR).compactMap(\.presentationTime).sorted().map(video.seconds)
            for time in idrs {
                if let previous {
                    let interval = time - previous.seconds
                    intervals.append(interval)
                    if interval > (longestSeconds ?? -1) {
                        longestSeconds = interval
                        longestAt = segment.uri
                    }
                }
                previous = (index, time)
            }
            if let last = previous { previous = (index, last.seconds) }
        }
        if frameSeconds == nil { return nil }
    }

    var averageSeconds: Double? { intervals.isEmpty ? nil : intervals.reduce(0, +) / Double(intervals.count) }

    var deviationSeconds: Double? {
        guard let average = averageSeconds else { return nil }
        let variance = intervals.reduce(0) { $0 + ($1 - average) * ($1 - average) } / Double(intervals.count)
        return variance.squareRoot()
    }
}
