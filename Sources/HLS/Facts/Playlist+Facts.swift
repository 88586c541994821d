import JSON
import Notation

extension Playlist {
    /// The playlist's facts in the schema of the shared conformance corpus (`corpus/README.md`), plus
    /// `diagnostics`, with keys in schema order so the JSON is deterministic:
    ///
    /// `kind` (master|media), `version`, `target_duration`, `media_sequence`, `discontinuity_sequence`,
    /// `endlist`, `playlist_type`, `independent_segments`, `variants`, `iframe_variants`, `renditions`,
    /// `segments`; then what LL-HLS and protected playlists are made of: `keys`, `session_keys`, `maps`,
    /// `parts`, `preload_hints`, `rendition_reports`, `server_control`, `part_inf`, `skip`, `date_ranges`;
    /// `lenient` (numbers read from text their grammar refuses, ``LenientValue``) and `diagnostics`. Every key
    /// is present for both kinds (empty lists and nulls where the kind has no such tag).
    ///
    /// Tags written before a segment (`keys`, `maps`, `parts`, `date_ranges`) give `segment`, the index in
    /// `segments` of the segment they describe; the segment still being produced (parts without a URI line
    /// yet) has the index `segments.length`.
    ///
    /// URIs are as written (after variable substitution, not resolved). Media playlist values take the spec
    /// defaults when their tag is absent (`media_sequence` 0, `discontinuity_sequence` 0); multivariant
    /// playlists have null there. Only complete segments are listed; `program_date_time` only where an
    /// explicit EXT-X-PROGRAM-DATE-TIME precedes the segment, in UTC with milliseconds.
    ///
    /// With `maximumItems`, each list (`variants`, …, `segments`, `keys`, …, `lenient`, `diagnostics`)
    /// holds at most that many items, and a last member `truncated` gives the full length of every list that was
    /// cut (`{"variants": 120240}`); without one, or when nothing was cut, there is no `truncated`.
    public func facts(diagnostics: [Diagnostic] = [], maximumItems: Int? = nil) -> JSONValue {
        var truncated: [(String, JSONValue)] = []
        /// The first `maximumItems` items of a list, noting its full length when it is longer.
        func list<Item>(_ name: String, _ items: [Item], _ fact: (Item) -> JSONValue) -> (String, JSONValue) {
            guard let limit = maximumItems, items.count > limit else { return (name, .array(items.map(fact))) }
            truncated.append((name, .integer(items.count)))
            return (name, .array(items.prefix(max(limit, 0)).map(fact)))
        }
        /// The same for tags gathered up to the limit already.
        func list<Tag>(
            _ name: String, _ listed: SegmentTagFacts.Listed<Tag>,
            _ fact: (SegmentTagFacts.Written<Tag>) -> JSONValue
        ) -> (String, JSONValue) {
            if listed.count > listed.items.count { truncated.append((name, .integer(listed.count))) }
            return (name, .array(listed.items.map(fact)))
        }
        var members: [(String, JSONValue)] = [
            ("kind", .string(kind == .media ? "media" : "master")),
            ("version", version.map(JSONValue.integer) ?? .null),
        ]
        switch self {
        case .media(let media):
            members += [
                ("target_duration", media.targetDuration.map(JSONValue.integer) ?? .null),
                ("media_sequence", .integer(media.mediaSequence ?? 0)),
                ("discontinuity_sequence", .integer(media.discontinuitySequence ?? 0)),
                ("endlist", .bool(media.endList)),
                ("playlist_type", media.playlistType.map { .string($0.rawValue) } ?? .null),
                ("independent_segments", .bool(media.independentSegments)),
                ("variants", .array([])),
                ("iframe_variants", .array([])),
                ("renditions", .array([])),
                list("segments", media.segments, Self.facts(of:)),
            ]
            let tags = SegmentTagFacts(media, limit: maximumItems.map { max($0, 0) })
            members += [
                list("keys", tags.keys, Self.facts(of:)),
                ("session_keys", .array([])),
                list("maps", tags.maps, Self.facts(of:)),
                list("parts", tags.parts, Self.facts(of:)),
                list("preload_hints", media.preloadHints, Self.facts(of:)),
                list("rendition_reports", media.renditionReports, Self.facts(of:)),
                ("server_control", media.serverControl.map(Self.facts(of:)) ?? .null),
                ("part_inf", media.partInf.map { .object([("part_target", .number($0.partTarget))]) } ?? .null),
                ("skip", media.skip.map(Self.facts(of:)) ?? .null),
                list("date_ranges", tags.dateRanges, Self.facts(of:)),
            ]
        case .multivariant(let multivariant):
            members += [
                ("target_duration", .null),
                ("media_sequence", .null),
                ("discontinuity_sequence", .null),
                ("endlist", .bool(false)),
                ("playlist_type", .null),
                ("independent_segments", .bool(multivariant.independentSegments)),
                list("variants", multivariant.variants, Self.facts(of:)),
                list("iframe_variants", multivariant.iFrameVariants, Self.facts(of:)),
                list("renditions", multivariant.renditions, Self.facts(of:)),
                ("segments", .array([])),
                ("keys", .array([])),
                list("session_keys", multivariant.sessionKeys, { Self.facts(of: $0, segment: nil) }),
                ("maps", .array([])),
                ("parts", .array([])),
                ("preload_hints", .array([])),
                ("rendition_reports", .array([])),
                ("server_control", .null),
                ("part_inf", .null),
                ("skip", .null),
                ("date_ranges", .array([])),
            ]
        }
        members.append(list("lenient", parseInfo?.lenientValues ?? [], Self.facts(of:)))
        members.append(list("diagnostics", diagnostics, \.jsonValue))
        if !truncated.isEmpty { members.append(("truncated", .object(truncated))) }
        return .object(members)
    }

    static func facts(of variant: Variant) -> JSONValue {
        .object(
            sharedFacts(of: variant) + [
                ("frame_rate", variant.frameRate.map(JSONValue.number) ?? .null),
                ("audio", variant.audio.map(JSONValue.string) ?? .null),
                ("subtitles", variant.subtitles.map(JSONValue.string) ?? .null),
                ("closed_captions", variant.closedCaptions.map { .string($0.groupID ?? "NONE") } ?? .null),
            ])
    }

    static func facts(of variant: IFrameVariant) -> JSONValue { .object(sharedFacts(of: variant)) }

    /// The facts both kinds of variant have, in the order the JSON report writes them.
    private static func sharedFacts(of variant: some StreamInfElement) -> [(String, JSONValue)] {
        [
            ("uri", .string(variant.uri)),
            ("bandwidth", .integer(variant.bandwidth)),
            ("average_bandwidth", variant.averageBandwidth.map(JSONValue.integer) ?? .null),
            ("codecs", variant.codecs.map(JSONValue.string) ?? .null),
            ("resolution", facts(of: variant.resolution)),
        ]
    }

    static func facts(of resolution: Resolution?) -> JSONValue {
        resolution.map { .array([.integer($0.width), .integer($0.height)]) } ?? .null
    }

    static func facts(of rendition: Rendition) -> JSONValue {
        .object([
            ("type", .string(rendition.type.rawValue)),
            ("group_id", .string(rendition.groupID)),
            ("name", .string(rendition.name)),
            ("language", rendition.language.map(JSONValue.string) ?? .null),
            ("uri", rendition.uri.map(JSONValue.string) ?? .null),
            ("default", .bool(rendition.isDefault)),
            ("autoselect", .bool(rendition.autoselect)),
            ("forced", .bool(rendition.forced)),
        ])
    }

    static func facts(of segment: Segment) -> JSONValue {
        .object([
            ("uri", .string(segment.uri)),
            ("duration", .number(segment.duration)),
            ("title", segment.title.map(JSONValue.string) ?? .null),
            ("byterange", facts(of: segment.byteRange)),
            ("discontinuity", .bool(segment.discontinuity)),
            ("program_date_time", segment.programDateTime.map { .string(utcMilliseconds($0)) } ?? .null),
            ("gap", .bool(segment.gap)),
            ("bitrate", segment.bitrateKilobitsPerSecond.map(JSONValue.integer) ?? .null),
        ])
    }

    static func facts(of range: ByteRange?) -> JSONValue {
        range.map { .object([("length", .integer($0.length)), ("offset", $0.offset.map(JSONValue.integer) ?? .null)]) }
            ?? .null
    }

    static func facts(of key: Key, segment: Int?) -> JSONValue {
        var members: [(String, JSONValue)] = segment.map { [("segment", .integer($0))] } ?? []
        members += [
            ("method", .string(key.method.rawValue)),
            ("uri", key.uri.map(JSONValue.string) ?? .null),
            ("iv", key.iv.map { .string($0.description) } ?? .null),
            ("keyformat", key.keyFormat.map(JSONValue.string) ?? .null),
            ("keyformatversions", key.keyFormatVersions.map(JSONValue.string) ?? .null),
        ]
        return .object(members)
    }

    static func facts(of key: SegmentTagFacts.Written<Key>) -> JSONValue { facts(of: key.tag, segment: key.segment) }

    static func facts(of map: SegmentTagFacts.Written<Map>) -> JSONValue {
        .object([
            ("segment", .integer(map.segment)),
            ("uri", .string(map.tag.uri)),
            ("byterange", facts(of: map.tag.byteRange)),
        ])
    }

    static func facts(of part: SegmentTagFacts.Written<PartialSegment>) -> JSONValue {
        .object([
            ("segment", .integer(part.segment)),
            ("uri", .string(part.tag.uri)),
            ("duration", .number(part.tag.duration)),
            ("independent", .bool(part.tag.independent)),
            ("byterange", facts(of: part.tag.byteRange)),
            ("gap", .bool(part.tag.gap)),
        ])
    }

    static func facts(of hint: PreloadHint) -> JSONValue {
        .object([
            ("type", .string(hint.type.rawValue)),
            ("uri", .string(hint.uri)),
            ("byterange_start", hint.byteRangeStart.map(JSONValue.integer) ?? .null),
            ("byterange_length", hint.byteRangeLength.map(JSONValue.integer) ?? .null),
        ])
    }

    static func facts(of report: RenditionReport) -> JSONValue {
        .object([
            ("uri", .string(report.uri)),
            ("last_msn", report.lastMediaSequenceNumber.map(JSONValue.integer) ?? .null),
            ("last_part", report.lastPart.map(JSONValue.integer) ?? .null),
        ])
    }

    static func facts(of control: ServerControl) -> JSONValue {
        .object([
            ("can_skip_until", control.canSkipUntil.map(JSONValue.number) ?? .null),
            ("can_skip_dateranges", .bool(control.canSkipDateRanges)),
            ("hold_back", control.holdBack.map(JSONValue.number) ?? .null),
            ("part_hold_back", control.partHoldBack.map(JSONValue.number) ?? .null),
            ("can_block_reload", .bool(control.canBlockReload)),
        ])
    }

    static func facts(of skip: Skip) -> JSONValue {
        .object([
            ("skipped_segments", .integer(skip.skippedSegments)),
            (
                "recently_removed_dateranges",
                skip.recentlyRemovedDateRanges.map { .array($0.map(JSONValue.string)) } ?? .null
            ),
        ])
    }

    static func facts(of written: SegmentTagFacts.Written<DateRange>) -> JSONValue {
        let range = written.tag
        let clientAttributes: [(String, JSONValue)] = range.clientAttributes.map { attribute in
            switch attribute.value {
            case .quotedString(let text): (attribute.name, .string(text))
            case .unquoted(let text): (attribute.name, Self.plainNumber(text).map(JSONValue.number) ?? .string(text))
            }
        }
        return .object([
            ("segment", .integer(written.segment)),
            ("id", .string(range.id)),
            ("class", range.className.map(JSONValue.string) ?? .null),
            ("start_date", range.startDate.map { .string(utcMilliseconds($0)) } ?? .null),
            ("end_date", range.endDate.map { .string(utcMilliseconds($0)) } ?? .null),
            ("duration", range.duration.map(JSONValue.number) ?? .null),
            ("planned_duration", range.plannedDuration.map(JSONValue.number) ?? .null),
            ("cue", range.cue.map(JSONValue.string) ?? .null),
            ("end_on_next", .bool(range.endOnNext)),
            ("scte35_cmd", range.scte35Command.map { .string($0.description) } ?? .null),
            ("scte35_out", range.scte35Out.map { .string($0.description) } ?? .null),
            ("scte35_in", range.scte35In.map { .string($0.description) } ?? .null),
            ("client_attributes", .object(clientAttributes)),
        ])
    }

    /// A client attribute's unquoted value as a number when it is a decimal-floating-point.
    static func plainNumber(_ text: String) -> Double? {
        Array(text.utf8).withUnsafeBufferPointer { $0.plainDecimal(0..<$0.count) }
    }

    static func facts(of value: LenientValue) -> JSONValue {
        let read: JSONValue =
            switch value.value {
            case .integer(let number)?: .integer(number)
            case .decimal(let number)?: .number(number)
            case nil: .null
            }
        return .object([
            ("line", .integer(value.location.line)),
            ("column", .integer(value.location.column)),
            ("tag", .string(value.tag.rawValue)),
            ("attribute", value.attribute.map(JSONValue.string) ?? .null),
            ("written", .string(value.written)),
            ("read", read),
            ("segment", value.segmentIndex.map(JSONValue.integer) ?? .null),
        ])
    }

    /// `YYYY-MM-DDTHH:MM:SS.mmmZ`, converted to UTC in whole seconds (exact) with the fraction truncated to
    /// milliseconds — going through a `Double` of seconds since 1970 would lose the last millisecond.
    static func utcMilliseconds(_ dateTime: DateTime) -> String {
        var utc = dateTime
        if dateTime.utcOffsetMinutes != 0 {
            let wholeSeconds = DateTime(
                year: dateTime.year, month: dateTime.month, day: dateTime.day, hour: dateTime.hour,
                minute: dateTime.minute, second: dateTime.second, utcOffsetMinutes: dateTime.utcOffsetMinutes)
            utc = DateTime(secondsSince1970: wholeSeconds.secondsSince1970)  // whole seconds: exact in a Double
            utc.nanosecond = dateTime.nanosecond
        }
        utc.fractionDigits = 3
        return utc.description
    }
}

extension Diagnostic {
    /// `{"severity", "code", "line", "column", "message", "reference"}`, as in `inspect --json`.
    public var jsonValue: JSONValue {
        let diagnostic = self
        return .object([
            ("severity", .string(diagnostic.severity.rawValue)),
            ("code", .string(diagnostic.code.rawValue)),
            ("line", .integer(diagnostic.location.line)),
            ("column", .integer(diagnostic.location.column)),
            ("message", .string(diagnostic.message)),
            ("reference", diagnostic.specReference.map(JSONValue.string) ?? .null),
        ])
    }
}

/// The tags written before segments, each with the index of the segment it describes (the segment still being
/// produced has the index `segments.count`), gathered in one pass that skips the segments without such tags.
struct SegmentTagFacts {
    struct Written<Tag> {
        var segment: Int
        var tag: Tag
    }

    /// The first `limit` tags of one kind and how many there are in all.
    struct Listed<Tag> {
        var items: [Written<Tag>] = []
        var count = 0
        let limit: Int

        mutating func add(_ tags: some Collection<Tag>, segment: Int) {
            for tag in tags.prefix(max(limit - items.count, 0)) { items.append(Written(segment: segment, tag: tag)) }
            count += tags.count
        }
    }

    var keys: Listed<Key>
    var maps: Listed<Map>
    var parts: Listed<PartialSegment>
    var dateRanges: Listed<DateRange>

    /// At most `limit` items of each list are kept (a live playlist may hold hundreds of thousands of parts).
    init(_ media: MediaPlaylist, limit: Int?) {
        let limit = limit ?? .max
        keys = Listed(limit: limit)
        maps = Listed(limit: limit)
        parts = Listed(limit: limit)
        dateRanges = Listed(limit: limit)
        for index in media.segments.indices where media.segments[index].hasRareTags {
            add(media.segments[index], index)
        }
        if let incomplete = media.incompleteSegment { add(incomplete, media.segments.count) }
    }

    private mutating func add(_ segment: Segment, _ index: Int) {
        keys.add(segment.keys, segment: index)
        if let map = segment.map { maps.add(CollectionOfOne(map), segment: index) }
        parts.add(segment.parts, segment: index)
        dateRanges.add(segment.dateRanges, segment: index)
    }
}
