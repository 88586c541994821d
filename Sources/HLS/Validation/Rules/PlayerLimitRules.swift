import JSON

// Values the grammar allows but players cannot use (see ``PlayerLimits``).

/// Media sequence and discontinuity sequence numbers past 2⁵³ − 1: a JavaScript player cannot tell two such
/// segments apart (RFC 8216bis §4.4.3.2, §4.4.3.3; the grammar allows up to 2⁶⁴ − 1, §4.2). Checked for the
/// furthest number a client may ask for (the segment after the one in progress) and for the discontinuity
/// sequence number of the last segment.
public struct SequenceNumbersCountable: ValidationRule {
    public init() {}
    public func check(_ context: ValidationContext) -> [Diagnostic] {
        guard let media = context.playlist.media else { return [] }
        let limit = PlayerLimits.maximumSequenceNumber
        var found: [Diagnostic] = []
        if media.mediaSequence != nil, (media.furthestMediaSequenceNumber ?? .max) > limit {
            found.append(
                .error(
                    .mediaSequenceTooLarge,
                    "EXT-X-MEDIA-SEQUENCE \(media.firstMediaSequenceNumber) numbers the segment after the last "
                        + "past \(limit) (2^53 - 1), the largest a JavaScript player counts exactly",
                    at: context.firstLocation(of: .mediaSequence) ?? context.playlistLocation,
                    SpecReference.mediaSequence))
        }
        if let first = media.discontinuitySequence {
            var last = first
            for segment in media.segments where segment.discontinuity { last = last.addingReportingOverflow(1).0 }
            if media.incompleteSegment?.discontinuity == true { last = last.addingReportingOverflow(1).0 }
            if last < first || last > limit {
                found.append(
                    .error(
                        .discontinuitySequenceTooLarge,
                        "EXT-X-DISCONTINUITY-SEQUENCE \(first) numbers the last discontinuity past \(limit) "
                            + "(2^53 - 1), the largest a JavaScript player counts exactly",
                        at: context.firstLocation(of: .discontinuitySequence) ?? context.playlistLocation,
                        SpecReference.discontinuitySequence))
            }
        }
        return found
    }
}

/// EXT-X-TARGETDURATION and PART-TARGET longer than a player's timer can wait (2³¹ − 1 ms, about 24.8 days): a
/// player reloads a live playlist after a target duration (RFC 8216bis §6.3.4), and such a wait fires at once.
public struct TargetDurationsWithinPlayerTimers: ValidationRule {
    public init() {}
    public func check(_ context: ValidationContext) -> [Diagnostic] {
        guard let media = context.playlist.media else { return [] }
        let limit = PlayerLimits.maximumTargetDurationSeconds
        var found: [Diagnostic] = []
        if let target = media.targetDuration, target > limit {
            found.append(
                .error(
                    .targetDurationTooLarge,
                    "EXT-X-TARGETDURATION \(target) is longer than \(limit) s (2^31 - 1 ms), the longest a player's "
                        + "timer can wait",
                    at: context.firstLocation(of: .targetDuration) ?? context.playlistLocation,
                    SpecReference.targetDuration))
        }
        if let partInf = media.partInf, partInf.partTarget > Double(limit) {
            found.append(
                .error(
                    .partTargetTooLarge,
                    "PART-TARGET=\(plainNumber(partInf.partTarget)) is longer than \(limit) s (2^31 - 1 ms), the "
                        + "longest a player's timer can wait",
                    at: context.location(partInf.source, fallback: context.firstLocation(of: .partInf)),
                    SpecReference.partInf))
        }
        return found
    }
}
