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
        // The location is looked up only for a requirement that is reported (most segments need nothing).
        func need(_ version: Int, _ feature: @autoclosure () -> String, _ location: @autoclosure () -> SourceLocation?)
        {
            guard version > declared else { return }
            let feature = feature()
            guard !requirements.contains(where: { $0.feature == feature }) else { return }
            requirements.append(
                Requirement(
                    version: version, feature: feature, location: location() ?? context.playlistLocation))
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
            // Segments are read in place, not copied out (see MediaPlaylist.statistics).
            for index in media.segments.indices {
                let duration = media.segments[index].duration
                if duration != duration.rounded() {
                    need(3, "a floating-point EXTINF duration", context.location(of: .extinf, segment: index))
                }
                if media.segments[index].byteRange != nil {
                    need(4, TagName.byteRange.rawValue, context.location(of: .byteRange, segment: index))
                }
                guard media.segments[index].hasRareTags else { continue }
                let segment = media.segments[index]
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
