/// "A Playlist file MUST NOT contain more than one EXT-X-VERSION tag ... [and] MUST indicate" a protocol
/// version at least as high as every feature it uses requires (RFC 8216bis §7, "Protocol Version
/// Compatibility"). A playlist without EXT-X-VERSION is version 1.
///
/// Checked requirements: IV in EXT-X-KEY/SESSION-KEY ≥ 2; floating-point EXTINF ≥ 3; EXT-X-BYTERANGE and
/// EXT-X-I-FRAMES-ONLY ≥ 4; KEYFORMAT/KEYFORMATVERSIONS ≥ 5; EXT-X-MAP ≥ 5 in an I-frame playlist, ≥ 6
/// otherwise; INSTREAM-ID=SERVICEn ≥ 7; variable substitution (EXT-X-DEFINE) ≥ 8; EXT-X-SKIP ≥ 9;
/// RECENTLY-REMOVED-DATERANGES ≥ 10; EXT-X-DEFINE QUERYPARAM ≥ 11; INSTREAM-ID on a rendition other than
/// CLOSED-CAPTIONS ≥ 13. Each feature is reported once, at its first use.
public struct ProtocolVersionCoversFeatures: ValidationRule {
    public init() {}

    struct Requirement {
        var version: Int
        var feature: String
        var location: SourceLocation
    }

    public func check(_ context: ValidationContext) -> [Diagnostic] {
        let declared = context.playlist.version ?? 1
        var requirements: [Requirement] = []
        func need(_ version: Int, _ feature: String, _ location: SourceLocation?) {
            guard version > declared, !requirements.contains(where: { $0.feature == feature }) else { return }
            requirements.append(
                Requirement(
                    version: version, feature: feature, location: location ?? context.playlistLocation))
        }
        func keys(_ keys: [Key]) {
            for key in keys {
                if key.iv != nil { need(2, "the IV attribute of \(TagName.key.rawValue)", key.source?.location) }
                if key.keyFormat != nil || key.keyFormatVersions != nil {
                    need(5, "KEYFORMAT/KEYFORMATVERSIONS", key.source?.location)
                }
            }
        }
        let defines: [Define]
        switch context.playlist {
        case .media(let media):
            defines = media.defines
            if media.iFramesOnly { need(4, TagName.iFramesOnly.rawValue, context.firstLocation(of: .iFramesOnly)) }
            for (index, segment) in media.segments.enumerated() {
                if segment.duration != segment.duration.rounded() {
                    need(3, "a floating-point EXTINF duration", context.location(of: .extinf, segment: index))
                }
                if segment.byteRange != nil {
                    need(4, TagName.byteRange.rawValue, context.location(of: .byteRange, segment: index))
                }
                keys(segment.keys)
                if let map = segment.map {
                    need(media.iFramesOnly ? 5 : 6, TagName.map.rawValue, map.source?.location)
                }
            }
            if let skip = media.skip {
                need(9, TagName.skip.rawValue, skip.source?.location)
                if skip.recentlyRemovedDateRanges != nil {
                    need(10, "RECENTLY-REMOVED-DATERANGES", skip.source?.location)
                }
            }
        case .multivariant(let multivariant):
            defines = multivariant.defines
            keys(multivariant.sessionKeys)
            for rendition in multivariant.renditions {
                guard let instreamID = rendition.instreamID else { continue }
                if rendition.type != .closedCaptions {
                    need(13, "INSTREAM-ID on a \(rendition.type.rawValue) rendition", rendition.source?.location)
                } else if instreamID.hasPrefix("SERVICE") {
                    need(7, "INSTREAM-ID=\(instreamID)", rendition.source?.location)
                }
            }
        }
        if let define = defines.first {
            need(8, "variable substitution (\(TagName.define.rawValue))", define.source?.location)
        }
        if let define = defines.first(where: { $0.kind == .queryParameter }) {
            need(11, "EXT-X-DEFINE QUERYPARAM", define.source?.location)
        }
        return requirements.map {
            .error(
                .versionTooLow,
                "\($0.feature) requires EXT-X-VERSION \($0.version) or higher; the playlist "
                    + (context.playlist.version.map { "declares \($0)" } ?? "has no EXT-X-VERSION (version 1)"),
                at: $0.location, SpecReference.versionCompatibility)
        }
    }
}

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

    static let singleTags: Set<TagName> = [
        .version, .targetDuration, .mediaSequence, .discontinuitySequence, .playlistType, .start, .partInf,
        .serverControl, .skip, .contentSteering,
    ]

    public func check(_ context: ValidationContext) -> [Diagnostic] {
        var seen: Set<TagName> = []
        var found: [Diagnostic] = []
        for occurrence in context.parseInfo?.tagOccurrences ?? [] where Self.singleTags.contains(occurrence.tag) {
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
