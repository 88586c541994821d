import JSON

// Rules of the live edge of a Low-Latency HLS playlist: part lengths, preload hints, blocking reload
// (RFC 8216bis §4.4.3.8, §4.4.4.9, §4.4.5.3; Apple HLS Authoring Specification §14).

/// "The duration of each Partial Segment [...] MUST be at least 85% of the Part Target Duration", the last
/// Partial Segment of each Parent Segment excepted (RFC 8216bis §4.4.4.9).
public struct PartDurationsAtLeast85PercentOfPartTarget: ValidationRule {
    public init() {}
    public func check(_ context: ValidationContext) -> [Diagnostic] {
        guard let media = context.playlist.media, let partTarget = media.partInf?.partTarget else { return [] }
        let minimum = 0.85 * partTarget
        // Every part but the last of each finished segment; all parts of the segment in progress but its last
        // (which may yet be the segment's last).
        let parents = media.segments.map(\.parts) + [media.incompleteSegment?.parts ?? []]
        return parents.flatMap { $0.dropLast() }.filter { $0.duration < minimum - 1e-9 }.map {
            .error(
                .partBelowPartTarget,
                "EXT-X-PART DURATION=\(plainNumber($0.duration)) is below 85 % of PART-TARGET "
                    + "(\(plainNumber(minimum))) and is not the last part of its segment",
                at: context.location($0.source), SpecReference.part)
        }
    }
}

/// "A Playlist MUST NOT contain more than one EXT-X-PRELOAD-HINT tag with the same TYPE attribute value"
/// (RFC 8216bis §4.4.5.3).
public struct PreloadHintOncePerType: ValidationRule {
    public init() {}
    public func check(_ context: ValidationContext) -> [Diagnostic] {
        guard let media = context.playlist.media else { return [] }
        var seen: Set<String> = []
        var diagnostics: [Diagnostic] = []
        for hint in media.preloadHints where !seen.insert(hint.type.rawValue).inserted {
            diagnostics.append(
                .error(
                    .preloadHintDuplicate, "a second EXT-X-PRELOAD-HINT with TYPE=\(hint.type.rawValue)",
                    at: context.location(hint.source, fallback: context.firstLocation(of: .preloadHint)),
                    SpecReference.preloadHint))
        }
        return diagnostics
    }
}

/// A preload hint names a resource the client does not have yet: a hinted part that the playlist already lists
/// as a part would be fetched twice, and a finished playlist (EXT-X-ENDLIST) has nothing left to hint
/// (RFC 8216bis §4.4.5.3, §6.2.6).
public struct PreloadHintNamesTheNextPart: ValidationRule {
    public init() {}
    public func check(_ context: ValidationContext) -> [Diagnostic] {
        guard let media = context.playlist.media else { return [] }
        let listed = Set(media.allParts.filter { $0.byteRange == nil }.map(\.uri))
        return media.preloadHints.filter { $0.type == .part }.compactMap { hint in
            let location = context.location(hint.source, fallback: context.firstLocation(of: .preloadHint))
            if media.endList {
                return .warning(
                    .preloadHintAfterEndList, "EXT-X-PRELOAD-HINT in a playlist that has EXT-X-ENDLIST",
                    at: location, SpecReference.preloadHint)
            }
            guard hint.byteRangeStart == nil, listed.contains(hint.uri) else { return nil }
            return .error(
                .preloadHintAlreadyListed, "EXT-X-PRELOAD-HINT names \(hint.uri), which is already an EXT-X-PART",
                at: location, SpecReference.preloadHint)
        }
    }
}

/// A playlist with parts is meant to be reloaded at the live edge: without CAN-BLOCK-RELOAD=YES a client polls
/// for every part (Apple HLS Authoring Specification §14: low-latency playlists MUST support blocking reload).
public struct BlockingReloadWithParts: ValidationRule {
    public init() {}
    public func check(_ context: ValidationContext) -> [Diagnostic] {
        guard let media = context.playlist.media, let partInf = media.partInf, !media.endList,
            media.serverControl?.canBlockReload != true
        else { return [] }
        return [
            .error(
                .canBlockReloadMissing,
                "a live playlist with EXT-X-PART-INF lacks EXT-X-SERVER-CONTROL CAN-BLOCK-RELOAD=YES",
                at: context.location(media.serverControl?.source ?? partInf.source), SpecReference.appleAuthoring)
        ]
    }
}
