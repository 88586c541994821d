// Rules about variants and renditions of a multivariant playlist (RFC 8216bis §4.4.6).

/// AUDIO, VIDEO, SUBTITLES and CLOSED-CAPTIONS on EXT-X-STREAM-INF (and VIDEO on EXT-X-I-FRAME-STREAM-INF):
/// "The value MUST match the value of the GROUP-ID attribute of an EXT-X-MEDIA tag elsewhere in the
/// Multivariant Playlist whose TYPE attribute is" the same type (RFC 8216bis §4.4.6.2).
public struct RenditionGroupsDefined: ValidationRule {
    public init() {}
    public func check(_ context: ValidationContext) -> [Diagnostic] {
        guard let multivariant = context.playlist.multivariant else { return [] }
        let defined = Set(multivariant.renditions.map { GroupKey(type: $0.type, id: $0.groupID) })
        var found: [Diagnostic] = []
        func check(_ id: String?, _ type: MediaType, _ span: SourceSpan?, _ tag: TagName) {
            guard let id, !defined.contains(GroupKey(type: type, id: id)) else { return }
            found.append(
                .error(
                    .groupUndefined,
                    "\(tag.rawValue) \(type.rawValue)=\"\(id)\" names no EXT-X-MEDIA group of TYPE=\(type.rawValue)",
                    at: context.location(span), SpecReference.streamInf))
        }
        for variant in multivariant.variants {
            check(variant.audio, .audio, variant.source, .streamInf)
            check(variant.video, .video, variant.source, .streamInf)
            check(variant.subtitles, .subtitles, variant.source, .streamInf)
            check(variant.closedCaptions?.groupID, .closedCaptions, variant.source, .streamInf)
        }
        for variant in multivariant.iFrameVariants {
            check(variant.video, .video, variant.source, .iFrameStreamInf)
        }
        return found
    }
}

struct GroupKey: Hashable {
    var type: MediaType
    var id: String
}

/// "All EXT-X-MEDIA tags in the same Group MUST have different NAME attributes" (RFC 8216bis §4.4.6.1.1).
/// A rendition lacking NAME (or TYPE or GROUP-ID) was reported by the parser and is not compared: one cause,
/// one finding.
public struct RenditionNamesUniqueInGroup: ValidationRule {
    public init() {}
    public func check(_ context: ValidationContext) -> [Diagnostic] {
        guard let multivariant = context.playlist.multivariant else { return [] }
        var seen: Set<[String]> = []
        var found: [Diagnostic] = []
        for rendition in multivariant.renditions where !context.lacksRequiredAttribute(rendition.source) {
            let key = [rendition.type.rawValue, rendition.groupID, rendition.name]
            if !seen.insert(key).inserted {
                found.append(
                    .error(
                        .renditionNameDuplicate,
                        "EXT-X-MEDIA NAME=\"\(rendition.name)\" is used twice in \(rendition.type.rawValue) group \"\(rendition.groupID)\"",
                        at: context.location(rendition.source), SpecReference.media))
            }
        }
        return found
    }
}

/// "A Group MUST NOT have more than one member with a DEFAULT attribute of YES" (RFC 8216bis §4.4.6.1.1).
/// Renditions lacking a required attribute are not compared (their group may be a placeholder).
public struct SingleDefaultRenditionPerGroup: ValidationRule {
    public init() {}
    public func check(_ context: ValidationContext) -> [Diagnostic] {
        guard let multivariant = context.playlist.multivariant else { return [] }
        var defaults: Set<GroupKey> = []
        var found: [Diagnostic] = []
        for rendition in multivariant.renditions
        where rendition.isDefault && !context.lacksRequiredAttribute(rendition.source) {
            if !defaults.insert(GroupKey(type: rendition.type, id: rendition.groupID)).inserted {
                found.append(
                    .error(
                        .renditionDefaultDuplicate,
                        "\(rendition.type.rawValue) group \"\(rendition.groupID)\" has more than one DEFAULT=YES rendition",
                        at: context.location(rendition.source), SpecReference.media))
            }
        }
        return found
    }
}

/// EXT-X-DEFINE IMPORT: "This attribute MUST NOT be present in a Multivariant Playlist" (the variables come
/// from the multivariant playlist itself; RFC 8216bis §4.4.2.3).
public struct ImportOnlyInMediaPlaylists: ValidationRule {
    public init() {}
    public func check(_ context: ValidationContext) -> [Diagnostic] {
        guard let multivariant = context.playlist.multivariant else { return [] }
        return multivariant.defines.filter { $0.kind == .import }.map {
            .error(
                .importInMultivariant, "EXT-X-DEFINE IMPORT=\"\($0.name)\" is only allowed in media playlists",
                at: context.location($0.source), SpecReference.define)
        }
    }
}

/// EXT-X-MEDIA URI and INSTREAM-ID by TYPE (RFC 8216bis §4.4.6.1): "If the TYPE is CLOSED-CAPTIONS, the URI
/// attribute MUST NOT be present"; URI is REQUIRED for SUBTITLES; INSTREAM-ID "is REQUIRED if the TYPE
/// attribute is CLOSED-CAPTIONS" and then is `CC1`…`CC4` or `SERVICE1`…`SERVICE63`.
public struct RenditionURIMatchesType: ValidationRule {
    public init() {}
    public func check(_ context: ValidationContext) -> [Diagnostic] {
        guard let multivariant = context.playlist.multivariant else { return [] }
        var found: [Diagnostic] = []
        for rendition in multivariant.renditions {
            let location = context.location(rendition.source)
            let what = "EXT-X-MEDIA TYPE=\(rendition.type.rawValue) NAME=\"\(rendition.name)\""
            if rendition.type == .subtitles, rendition.uri == nil {
                found.append(
                    .error(
                        .renditionURIMissing, "\(what) lacks the URI that SUBTITLES renditions require", at: location,
                        SpecReference.media))
            }
            guard rendition.type == .closedCaptions else { continue }
            if rendition.uri != nil {
                found.append(
                    .error(
                        .closedCaptionsURI, "\(what) has a URI; closed captions are carried in the video", at: location,
                        SpecReference.media))
            }
            if let id = rendition.instreamID {
                if !Self.isValidClosedCaptionsID(id) {
                    found.append(
                        .error(
                            .instreamIDInvalid,
                            "\(what) has INSTREAM-ID=\"\(id)\"; expected CC1…CC4 or SERVICE1…SERVICE63",
                            at: location, SpecReference.media))
                }
            } else {
                found.append(
                    .error(
                        .instreamIDMissing, "\(what) lacks the INSTREAM-ID that CLOSED-CAPTIONS renditions require",
                        at: location, SpecReference.media))
            }
        }
        return found
    }

    static func isValidClosedCaptionsID(_ id: String) -> Bool {
        if id.hasPrefix("CC"), let n = Int(id.dropFirst(2)), (1...4).contains(n), id.count == 3 { return true }
        if id.hasPrefix("SERVICE"), let n = Int(id.dropFirst(7)), (1...63).contains(n),
            !id.dropFirst(7).hasPrefix("0")
        {
            return true
        }
        return false
    }
}
