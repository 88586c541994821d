import JSON

// Rules of Low-Latency HLS and playlist delta updates (RFC 8216bis §4.4.3.7, §4.4.3.8, §4.4.4.9).

extension MediaPlaylist {
    /// Every EXT-X-PART, including those of the segment still being produced.
    var allParts: [PartialSegment] {
        var parts: [PartialSegment] = []
        for index in segments.indices where segments[index].hasRareTags { parts += segments[index].parts }
        return parts + (incompleteSegment?.parts ?? [])
    }
}

/// EXT-X-PART-INF: "This tag is REQUIRED if a Media Playlist contains one or more EXT-X-PART tags"
/// (RFC 8216bis §4.4.3.7).
public struct PartInfRequiredWithParts: ValidationRule {
    public init() {}
    public func check(_ context: ValidationContext) -> [Diagnostic] {
        guard let media = context.playlist.media, media.partInf == nil, let firstPart = media.allParts.first,
            context.firstLocation(of: .partInf) == nil
        else { return [] }
        return [
            .error(
                .partInfMissing, "EXT-X-PART is used but the playlist has no EXT-X-PART-INF",
                at: context.location(firstPart.source, fallback: context.firstLocation(of: .part)),
                SpecReference.partInf)
        ]
    }
}

/// "The duration of each Partial Segment MUST be less than or equal to the Part Target Duration"
/// (EXT-X-PART-INF PART-TARGET, RFC 8216bis §4.4.4.9).
public struct PartDurationsWithinPartTarget: ValidationRule {
    public init() {}
    public func check(_ context: ValidationContext) -> [Diagnostic] {
        guard let media = context.playlist.media, let partTarget = media.partInf?.partTarget else { return [] }
        return media.allParts.filter { $0.duration > partTarget }.map {
            .error(
                .partExceedsPartTarget,
                "EXT-X-PART DURATION=\(plainNumber($0.duration)) is above PART-TARGET=\(plainNumber(partTarget))",
                at: context.location($0.source), SpecReference.part)
        }
    }
}

/// EXT-X-SERVER-CONTROL CAN-SKIP-UNTIL: "The value MUST be at least six times the Target Duration"
/// (RFC 8216bis §4.4.3.8).
public struct CanSkipUntilAtLeastSixTargetDurations: ValidationRule {
    public init() {}
    public func check(_ context: ValidationContext) -> [Diagnostic] {
        guard let media = context.playlist.media, let control = media.serverControl,
            let skipUntil = control.canSkipUntil, let target = media.targetDuration,
            skipUntil < 6 * Double(target)
        else { return [] }
        return [
            .error(
                .canSkipUntilTooSmall,
                "CAN-SKIP-UNTIL=\(plainNumber(skipUntil)) is less than 6 × EXT-X-TARGETDURATION (\(plainNumber(6 * Double(target))))",
                at: context.location(control.source), SpecReference.serverControl)
        ]
    }
}

/// EXT-X-SERVER-CONTROL HOLD-BACK: "its value MUST be at least three times the Target Duration"
/// (RFC 8216bis §4.4.3.8).
public struct HoldBackAtLeastThreeTargetDurations: ValidationRule {
    public init() {}
    public func check(_ context: ValidationContext) -> [Diagnostic] {
        guard let media = context.playlist.media, let control = media.serverControl,
            let holdBack = control.holdBack, let target = media.targetDuration, holdBack < 3 * Double(target)
        else { return [] }
        return [
            .error(
                .holdBackTooSmall,
                "HOLD-BACK=\(plainNumber(holdBack)) is less than 3 × EXT-X-TARGETDURATION (\(plainNumber(3 * Double(target))))",
                at: context.location(control.source), SpecReference.serverControl)
        ]
    }
}

/// EXT-X-SERVER-CONTROL PART-HOLD-BACK: "its value MUST be at least twice the Part Target Duration [...]
/// PART-HOLD-BACK is REQUIRED if the Playlist contains the EXT-X-PART-INF tag" (RFC 8216bis §4.4.3.8).
public struct PartHoldBackAtLeastTwoPartTargets: ValidationRule {
    public init() {}
    public func check(_ context: ValidationContext) -> [Diagnostic] {
        guard let media = context.playlist.media, let partInf = media.partInf else { return [] }
        guard let control = media.serverControl, let partHoldBack = control.partHoldBack else {
            return [
                .error(
                    .partHoldBackMissing, "EXT-X-PART-INF is present but EXT-X-SERVER-CONTROL has no PART-HOLD-BACK",
                    at: context.location(media.serverControl?.source ?? partInf.source), SpecReference.serverControl)
            ]
        }
        guard partHoldBack < 2 * partInf.partTarget else { return [] }
        return [
            .error(
                .partHoldBackTooSmall,
                "PART-HOLD-BACK=\(plainNumber(partHoldBack)) is less than 2 × PART-TARGET "
                    + "(\(plainNumber(2 * partInf.partTarget)))",
                at: context.location(control.source), SpecReference.serverControl)
        ]
    }
}
