import JSON

extension Playlist {
    /// The playlist's facts in the schema of the shared conformance corpus (`corpus/README.md`), plus
    /// `diagnostics`, with keys in schema order so the JSON is deterministic:
    ///
    /// `kind` (master|media), `version`, `target_duration`, `media_sequence`, `discontinuity_sequence`,
    /// `endlist`, `playlist_type`, `independent_segments`, `variants`, `iframe_variants`, `renditions`,
    /// `segments`, `diagnostics`.
    ///
    /// URIs are as written (after variable substitution, not resolved). Media playlist values take the spec
    /// defaults when their tag is absent (`media_sequence` 0, `discontinuity_sequence` 0); multivariant
    /// playlists have null there. Only complete segments are listed; `program_date_time` only where an
    /// explicit EXT-X-PROGRAM-DATE-TIME precedes the segment, in UTC with milliseconds.
    ///
    /// With `maximumItems`, each list (`variants`, `iframe_variants`, `renditions`, `segments`, `diagnostics`)
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
            ]
        }
        members.append(list("diagnostics", diagnostics, \.jsonValue))
        if !truncated.isEmpty { members.append(("truncated", .object(truncated))) }
        return .object(members)
    }

    static func facts(of variant: Variant) -> JSONValue {
        .object([
            ("uri", .string(variant.uri)),
            ("bandwidth", .integer(variant.bandwidth)),
            ("average_bandwidth", variant.averageBandwidth.map(JSONValue.integer) ?? .null),
            ("codecs", variant.codecs.map(JSONValue.string) ?? .null),
            ("resolution", facts(of: variant.resolution)),
            ("frame_rate", variant.frameRate.map(JSONValue.number) ?? .null),
            ("audio", variant.audio.map(JSONValue.string) ?? .null),
            ("subtitles", variant.subtitles.map(JSONValue.string) ?? .null),
            ("closed_captions", variant.closedCaptions.map { .string($0.groupID ?? "NONE") } ?? .null),
        ])
    }

    static func facts(of variant: IFrameVariant) -> JSONValue {
        .object([
            ("uri", .string(variant.uri)),
            ("bandwidth", .integer(variant.bandwidth)),
            ("average_bandwidth", variant.averageBandwidth.map(JSONValue.integer) ?? .null),
            ("codecs", variant.codecs.map(JSONValue.string) ?? .null),
            ("resolution", facts(of: variant.resolution)),
        ])
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
            (
                "byterange",
                segment.byteRange.map {
                    .object([("length", .integer($0.length)), ("offset", $0.offset.map(JSONValue.integer) ?? .null)])
                } ?? .null
            ),
            ("discontinuity", .bool(segment.discontinuity)),
            ("program_date_time", segment.programDateTime.map { .string(utcMilliseconds($0)) } ?? .null),
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
