import JSON

// Rules about the segments and header tags of a media playlist (RFC 8216bis §4.4.3, §4.4.4).

/// "The EXT-X-TARGETDURATION tag is REQUIRED" in every media playlist (RFC 8216bis §4.4.3.1).
public struct TargetDurationRequired: ValidationRule {
    public init() {}
    public func check(_ context: ValidationContext) -> [Diagnostic] {
        guard let media = context.playlist.media, media.targetDuration == nil,
            context.firstLocation(of: .targetDuration) == nil  // present but unparsable: the parser said so
        else { return [] }
        return [
            .error(
                .targetDurationMissing, "media playlist lacks the REQUIRED EXT-X-TARGETDURATION tag",
                at: context.playlistLocation, SpecReference.targetDuration)
        ]
    }
}

/// "The EXTINF duration of each Media Segment in a Playlist file, when rounded to the nearest integer, MUST be
/// less than or equal to the Target Duration" (RFC 8216bis §4.4.3.1).
public struct SegmentDurationsWithinTargetDuration: ValidationRule {
    public init() {}
    public func check(_ context: ValidationContext) -> [Diagnostic] {
        guard let media = context.playlist.media, let target = media.targetDuration, target >= 0 else { return [] }
        var found: [Diagnostic] = []
        // Segments are read in place, not copied out (see MediaPlaylist.statistics).
        for index in media.segments.indices where media.segments[index].duration.isFinite {
            let rounded = media.segments[index].duration.rounded()
            guard rounded > Double(target) else { continue }
            let segment = media.segments[index]
            found.append(
                .error(
                    .extinfExceedsTargetDuration,
                    "EXTINF \(plainNumber(segment.duration)) rounds to \(plainNumber(rounded)), above EXT-X-TARGETDURATION \(target)",
                    at: context.location(of: .extinf, segment: index) ?? context.location(segment.source),
                    SpecReference.targetDuration))
        }
        return found
    }
}

/// "The EXT-X-MEDIA-SEQUENCE tag MUST appear before the first Media Segment in the Playlist" (§4.4.3.2), and
/// likewise EXT-X-DISCONTINUITY-SEQUENCE (§4.4.3.3).
public struct SequenceTagsBeforeFirstSegment: ValidationRule {
    public init() {}
    public func check(_ context: ValidationContext) -> [Diagnostic] {
        guard context.playlist.kind == .media, let info = context.parseInfo else { return [] }
        let firstSegmentTag = info.tagOccurrences.first { $0.tag.isMediaSegmentTag }?.location
        var found: [Diagnostic] = []
        for occurrence in info.tagOccurrences
        where occurrence.tag == .mediaSequence || occurrence.tag == .discontinuitySequence {
            let afterFirst = occurrence.segmentIndex > 0 || (firstSegmentTag.map { $0 < occurrence.location } ?? false)
            guard afterFirst else { continue }
            let isMedia = occurrence.tag == .mediaSequence
            found.append(
                .error(
                    isMedia ? .mediaSequenceAfterFirstSegment : .discontinuitySequenceAfterFirstSegment,
                    "\(occurrence.tag.rawValue) must appear before the first media segment",
                    at: occurrence.location, isMedia ? SpecReference.mediaSequence : SpecReference.discontinuitySequence
                ))
        }
        return found
    }
}

/// Durations and sequence numbers cannot be negative: decimal-integers are unsigned and EXTINF durations are
/// non-negative (RFC 8216bis §4.2, §4.4.4.1).
///
/// The parser already reports a negative number where it reads one, so this rule checks only playlists built
/// in code (no parse info), e.g. by a packager, before they are written.
public struct NonNegativeNumbers: ValidationRule {
    public init() {}
    public func check(_ context: ValidationContext) -> [Diagnostic] {
        guard let media = context.playlist.media, context.parseInfo == nil else { return [] }
        var found: [Diagnostic] = []
        func report(_ tag: TagName, _ value: String, at location: SourceLocation?) {
            found.append(
                .error(
                    .negativeNumber, "\(tag.rawValue) is \(value); it cannot be negative",
                    at: location ?? context.playlistLocation, SpecReference.section(for: tag)))
        }
        if let value = media.targetDuration, value < 0 {
            report(.targetDuration, String(value), at: context.firstLocation(of: .targetDuration))
        }
        if let value = media.mediaSequence, value < 0 {
            report(.mediaSequence, String(value), at: context.firstLocation(of: .mediaSequence))
        }
        if let value = media.discontinuitySequence, value < 0 {
            report(.discontinuitySequence, String(value), at: context.firstLocation(of: .discontinuitySequence))
        }
        for index in media.segments.indices where media.segments[index].duration < 0 {
            let segment = media.segments[index]
            report(
                .extinf, plainNumber(segment.duration),
                at: context.location(of: .extinf, segment: index) ?? segment.source?.location)
        }
        return found
    }
}

/// "If o is not present, a previous Media Segment MUST appear in the Playlist file and MUST be a sub-range of
/// the same media resource, or the Media Segment is undefined and the client MUST fail to parse the Playlist"
/// (RFC 8216bis §4.4.4.2).
public struct ByteRangeOffsetsResolvable: ValidationRule {
    public init() {}
    public func check(_ context: ValidationContext) -> [Diagnostic] {
        guard let media = context.playlist.media else { return [] }
        var found: [Diagnostic] = []
        for index in media.segments.indices {
            guard let range = media.segments[index].byteRange, range.offset == nil else { continue }
            let segment = media.segments[index]
            let previous = index > 0 ? media.segments[index - 1] : nil
            if let previous, previous.byteRange != nil, previous.uri == segment.uri { continue }
            let why =
                previous == nil
                ? "the first segment" : "the previous segment is not a sub-range of \(segment.uri)"
            found.append(
                .error(
                    .byteRangeOffsetUnresolvable,
                    "EXT-X-BYTERANGE:\(range.length) has no offset, but \(why)",
                    at: context.location(of: .byteRange, segment: index) ?? context.location(segment.source),
                    SpecReference.byteRange))
        }
        return found
    }
}

/// EXT-X-DATERANGE: "START-DATE: A quoted-string containing the ISO-8601 date at which the Date Range begins.
/// This attribute is REQUIRED" (RFC 8216bis §4.4.5.1). A later tag with the same ID adds attributes to the
/// same range (e.g. an SCTE35-IN after the SCTE35-OUT), so only the first tag of each ID needs it.
public struct DateRangeStartDateRequired: ValidationRule {
    public init() {}
    public func check(_ context: ValidationContext) -> [Diagnostic] {
        guard let media = context.playlist.media else { return [] }
        var dateRanges: [DateRange] = []
        for index in media.segments.indices where media.segments[index].hasRareTags {
            dateRanges += media.segments[index].dateRanges
        }
        dateRanges += media.incompleteSegment?.dateRanges ?? []
        var started: Set<String> = []
        var found: [Diagnostic] = []
        for dateRange in dateRanges {
            if dateRange.startDate != nil { started.insert(dateRange.id) }
            guard !started.contains(dateRange.id) else { continue }
            found.append(
                .error(
                    .dateRangeStartDateMissing,
                    "EXT-X-DATERANGE ID=\"\(dateRange.id)\" lacks the REQUIRED START-DATE (and no earlier tag with this ID has one)",
                    at: context.location(dateRange.source), SpecReference.dateRange))
        }
        return found
    }
}
