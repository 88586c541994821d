// Warnings for recommendations of Apple's HLS Authoring Specification (not errors: the RFC allows these).

/// Apple HLS Authoring Specification: every variant should declare CODECS and AVERAGE-BANDWIDTH, and every
/// video variant RESOLUTION and FRAME-RATE, so a player can choose without downloading media playlists.
/// (RFC 8216bis §4.4.6.2 also says every EXT-X-STREAM-INF "SHOULD include a CODECS attribute".)
public struct VariantAttributesRecommended: ValidationRule {
    public init() {}

    /// Sample-entry prefixes of video codecs in CODECS strings.
    static let videoCodecPrefixes = [
        "avc1", "avc3", "hvc1", "hev1", "dvh1", "dvhe", "dva1", "dvav", "av01", "vp09", "vp08", "mp4v",
    ]

    public func check(_ context: ValidationContext) -> [Diagnostic] {
        guard let multivariant = context.playlist.multivariant else { return [] }
        var found: [Diagnostic] = []
        for variant in multivariant.variants {
            let location = context.location(variant.source)
            func warn(_ code: DiagnosticCode, _ attribute: String) {
                found.append(
                    .warning(
                        code, "EXT-X-STREAM-INF for \(variant.uri) has no \(attribute)", at: location,
                        SpecReference.appleAuthoring))
            }
            if variant.codecs == nil { warn(.codecsMissing, "CODECS") }
            // A variant is video unless CODECS says otherwise (no CODECS: assume video, as players must).
            let isVideo =
                variant.codecs == nil || variant.video != nil
                || variant.codecList.contains { codec in
                    Self.videoCodecPrefixes.contains { codec.hasPrefix($0) }
                }
            if isVideo && variant.resolution == nil { warn(.resolutionMissing, "RESOLUTION") }
            if isVideo && variant.frameRate == nil { warn(.frameRateMissing, "FRAME-RATE") }
            if variant.averageBandwidth == nil { warn(.averageBandwidthMissing, "AVERAGE-BANDWIDTH") }
        }
        return found
    }
}

/// Apple HLS Authoring Specification: a multivariant playlist should carry EXT-X-INDEPENDENT-SEGMENTS when
/// every segment starts with a key frame (which the specification requires of video segments).
public struct IndependentSegmentsRecommended: ValidationRule {
    public init() {}
    public func check(_ context: ValidationContext) -> [Diagnostic] {
        guard let multivariant = context.playlist.multivariant, !multivariant.independentSegments,
            !multivariant.variants.isEmpty
        else { return [] }
        return [
            .warning(
                .independentSegmentsMissing, "multivariant playlist has no EXT-X-INDEPENDENT-SEGMENTS",
                at: context.playlistLocation, SpecReference.appleAuthoring)
        ]
    }
}
