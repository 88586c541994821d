// Rules about which tags a playlist may hold and how often (RFC 8216bis §4.1, §4.4).

/// Media playlist tags MUST NOT appear in a multivariant playlist and vice versa: "a Playlist [...] MUST be
/// either a Media Playlist or a Multivariant Playlist" and a client MUST fail to parse one with both
/// (RFC 8216bis §4.1, §4.4). The parser keeps such a tag as a verbatim line and records it as misplaced.
public struct TagsMatchPlaylistKind: ValidationRule {
    public init() {}
    public func check(_ context: ValidationContext) -> [Diagnostic] {
        let kind = context.playlist.kind == .media ? "media" : "multivariant"
        let other = context.playlist.kind == .media ? "multivariant" : "media"
        return (context.parseInfo?.tagOccurrences ?? []).filter(\.isMisplaced).map {
            .error(
                .tagWrongPlaylistKind,
                "\($0.tag.rawValue) is a \(other) playlist tag; it cannot appear in a \(kind) playlist",
                at: $0.location, SpecReference.section(for: $0.tag))
        }
    }
}

/// Playlist-wide tags appear at most once: "A Playlist file MUST NOT contain more than one EXT-X-VERSION tag"
/// (§4.4.1.2), and likewise EXT-X-TARGETDURATION, EXT-X-MEDIA-SEQUENCE, EXT-X-DISCONTINUITY-SEQUENCE,
/// EXT-X-PLAYLIST-TYPE, EXT-X-START, EXT-X-PART-INF, EXT-X-SERVER-CONTROL, EXT-X-SKIP and
/// EXT-X-CONTENT-STEERING ("MUST NOT appear more than once", each in its section of RFC 8216bis §4.4).
public struct PlaylistTagsAppearOnce: ValidationRule {
    public init() {}

    /// A switch, not a set: the check runs once per tag occurrence (hundreds of thousands in a long playlist).
    static func isSingle(_ tag: TagName) -> Bool {
        switch tag {
        case .version, .targetDuration, .mediaSequence, .discontinuitySequence, .playlistType, .start, .partInf,
            .serverControl, .skip, .contentSteering:
            true
        default: false
        }
    }

    public func check(_ context: ValidationContext) -> [Diagnostic] {
        var seen: Set<TagName> = []
        var found: [Diagnostic] = []
        for occurrence in context.parseInfo?.tagOccurrences ?? [] where Self.isSingle(occurrence.tag) {
            if !seen.insert(occurrence.tag).inserted {
                found.append(
                    .error(
                        .tagDuplicate, "\(occurrence.tag.rawValue) appears more than once",
                        at: occurrence.location, SpecReference.section(for: occurrence.tag)))
            }
        }
        return found
    }
}
