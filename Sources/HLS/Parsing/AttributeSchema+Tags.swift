/// The attribute list of every tag that has one (except EXT-X-DEFINE), in the order the writer writes them.
enum TagSchemas {
    static let key = AttributeSchema<Key>(
        .key, required: ["METHOD"],
        [
            .enumerated("METHOD", \.method),
            .quoted("URI", \.uri),
            .hexadecimal("IV", \.iv),
            .quoted("KEYFORMAT", \.keyFormat),
            .quoted("KEYFORMATVERSIONS", \.keyFormatVersions),
        ])

    static let map = AttributeSchema<Map>(
        .map, required: ["URI"],
        [
            .quoted("URI", \.uri),
            .byteRange("BYTERANGE", \.byteRange),
        ])

    static let part = AttributeSchema<PartialSegment>(
        .part, required: ["URI", "DURATION"],
        [
            .decimal("DURATION", \.duration),
            .quoted("URI", \.uri),
            .flag("INDEPENDENT", \.independent),
            .byteRange("BYTERANGE", \.byteRange),
            .flag("GAP", \.gap),
        ])

    /// `X-` client attributes are written between PLANNED-DURATION and the SCTE35 attributes.
    static let dateRange = AttributeSchema<DateRange>(
        .dateRange, required: ["ID"], others: \.clientAttributes, othersPosition: 7, acceptsClientAttributes: true,
        [
            .quoted("ID", \.id),
            .quoted("CLASS", \.className),
            .dateTime("START-DATE", \.startDate),
            .quoted("CUE", \.cue),
            .dateTime("END-DATE", \.endDate),
            .decimal("DURATION", \.duration),
            .decimal("PLANNED-DURATION", \.plannedDuration),
            .hexadecimal("SCTE35-CMD", \.scte35Command),
            .hexadecimal("SCTE35-OUT", \.scte35Out),
            .hexadecimal("SCTE35-IN", \.scte35In),
            .flag("END-ON-NEXT", \.endOnNext, onlyYes: true),
        ])

    static let start = AttributeSchema<Start>(
        .start, required: ["TIME-OFFSET"],
        [
            .decimal("TIME-OFFSET", \.timeOffset, signed: true),
            .flag("PRECISE", \.precise),
        ])

    static let serverControl = AttributeSchema<ServerControl>(
        .serverControl,
        [
            .decimal("CAN-SKIP-UNTIL", \.canSkipUntil),
            .flag("CAN-SKIP-DATERANGES", \.canSkipDateRanges, onlyYes: true),
            .decimal("HOLD-BACK", \.holdBack),
            .decimal("PART-HOLD-BACK", \.partHoldBack),
            .flag("CAN-BLOCK-RELOAD", \.canBlockReload, onlyYes: true),
        ])

    static let partInf = AttributeSchema<PartInf>(
        .partInf, required: ["PART-TARGET"],
        [
            .decimal("PART-TARGET", \.partTarget)
        ])

    static let skip = AttributeSchema<Skip>(
        .skip, required: ["SKIPPED-SEGMENTS"],
        [
            .integer("SKIPPED-SEGMENTS", \.skippedSegments),
            // Tab-separated IDs in one quoted-string.
            AttributeField(
                "RECENTLY-REMOVED-DATERANGES",
                read: { p, slot, tag, skip in
                    skip.recentlyRemovedDateRanges = p.quotedString(slot, tag)
                        .split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
                },
                write: { skip, a in
                    a.quoted("RECENTLY-REMOVED-DATERANGES", skip.recentlyRemovedDateRanges?.joined(separator: "\t"))
                }),
        ])

    static let preloadHint = AttributeSchema<PreloadHint>(
        .preloadHint, required: ["TYPE", "URI"],
        [
            .enumerated("TYPE", \.type),
            .quoted("URI", \.uri),
            .integer("BYTERANGE-START", \.byteRangeStart),
            .integer("BYTERANGE-LENGTH", \.byteRangeLength),
        ])

    static let renditionReport = AttributeSchema<RenditionReport>(
        .renditionReport, required: ["URI"],
        [
            .quoted("URI", \.uri),
            .integer("LAST-MSN", \.lastMediaSequenceNumber),
            .integer("LAST-PART", \.lastPart),
        ])

    static let rendition = AttributeSchema<Rendition>(
        .media, required: ["TYPE", "GROUP-ID", "NAME"],
        [
            .enumerated("TYPE", \.type),
            .quoted("GROUP-ID", \.groupID),
            .quoted("NAME", \.name),
            .quoted("LANGUAGE", \.language),
            .quoted("ASSOC-LANGUAGE", \.associatedLanguage),
            .quoted("STABLE-RENDITION-ID", \.stableRenditionID),
            .flag("DEFAULT", \.isDefault),
            .flag("AUTOSELECT", \.autoselect),
            .flag("FORCED", \.forced),
            .quoted("INSTREAM-ID", \.instreamID),
            .integer("BIT-DEPTH", \.bitDepth),
            .integer("SAMPLE-RATE", \.sampleRate),
            .quoted("CHARACTERISTICS", \.characteristics),
            .quoted("CHANNELS", \.channels),
            .quoted("URI", \.uri),
        ])

    static let variant = AttributeSchema<Variant>(
        .streamInf, required: ["BANDWIDTH"],
        [
            .integer("BANDWIDTH", \.streamInf.bandwidth),
            .integer("AVERAGE-BANDWIDTH", \.streamInf.averageBandwidth),
            .decimal("SCORE", \.streamInf.score),
            .quoted("CODECS", \.streamInf.codecs),
            .quoted("SUPPLEMENTAL-CODECS", \.streamInf.supplementalCodecs),
            .resolution("RESOLUTION", \.streamInf.resolution),
            .decimal("FRAME-RATE", \.frameRate),
            .enumerated("HDCP-LEVEL", \.streamInf.hdcpLevel),
            .quoted("ALLOWED-CPC", \.streamInf.allowedCPC),
            .enumerated("VIDEO-RANGE", \.streamInf.videoRange),
            .quoted("REQ-VIDEO-LAYOUT", \.streamInf.requiredVideoLayout),
            .quoted("STABLE-VARIANT-ID", \.streamInf.stableVariantID),
            .quoted("AUDIO", \.audio),
            .quoted("VIDEO", \.streamInf.video),
            .quoted("SUBTITLES", \.subtitles),
            // The enumerated-string NONE or a quoted group id.
            AttributeField(
                "CLOSED-CAPTIONS",
                read: { p, slot, tag, variant in
                    if !slot.quoted && p.buffer.equalsASCII(slot.valueStart..<slot.valueEnd, "NONE") {
                        variant.closedCaptions = ClosedCaptionsReference.none
                    } else {
                        variant.closedCaptions = .group(p.quotedString(slot, tag))
                    }
                },
                write: { variant, a in
                    switch variant.closedCaptions {
                    case .none?: a.add("CLOSED-CAPTIONS", "NONE")
                    case .group(let id)?: a.quoted("CLOSED-CAPTIONS", id)
                    case nil: break
                    }
                }),
            .quoted("PATHWAY-ID", \.streamInf.pathwayID),
            .integer("PROGRAM-ID", \.streamInf.programID),
        ])

    static let iFrameVariant = AttributeSchema<IFrameVariant>(
        .iFrameStreamInf, required: ["BANDWIDTH", "URI"],
        [
            .integer("BANDWIDTH", \.streamInf.bandwidth),
            .integer("AVERAGE-BANDWIDTH", \.streamInf.averageBandwidth),
            .decimal("SCORE", \.streamInf.score),
            .quoted("CODECS", \.streamInf.codecs),
            .quoted("SUPPLEMENTAL-CODECS", \.streamInf.supplementalCodecs),
            .resolution("RESOLUTION", \.streamInf.resolution),
            .enumerated("HDCP-LEVEL", \.streamInf.hdcpLevel),
            .quoted("ALLOWED-CPC", \.streamInf.allowedCPC),
            .enumerated("VIDEO-RANGE", \.streamInf.videoRange),
            .quoted("REQ-VIDEO-LAYOUT", \.streamInf.requiredVideoLayout),
            .quoted("STABLE-VARIANT-ID", \.streamInf.stableVariantID),
            .quoted("VIDEO", \.streamInf.video),
            .quoted("PATHWAY-ID", \.streamInf.pathwayID),
            .integer("PROGRAM-ID", \.streamInf.programID),
            .quoted("URI", \.uri),
        ])

    static let sessionData = AttributeSchema<SessionData>(
        .sessionData, required: ["DATA-ID"],
        [
            .quoted("DATA-ID", \.dataID),
            .quoted("VALUE", \.value),
            .quoted("URI", \.uri),
            .enumerated("FORMAT", \.format),
            .quoted("LANGUAGE", \.language),
        ])

    static let contentSteering = AttributeSchema<ContentSteering>(
        .contentSteering, required: ["SERVER-URI"],
        [
            .quoted("SERVER-URI", \.serverURI),
            .quoted("PATHWAY-ID", \.pathwayID),
        ])
}

/// A model element that keeps the attributes its schema does not name in `otherAttributes`.
protocol AttributeListElement {
    var otherAttributes: [Attribute] { get set }
}

extension AttributeSchema where Model: AttributeListElement {
    init(_ tag: TagName, required: [String] = [], _ fields: [AttributeField<Model>]) {
        self.init(tag, required: required, others: \.otherAttributes, fields)
    }
}

extension Key: AttributeListElement {}
extension Map: AttributeListElement {}
extension PartialSegment: AttributeListElement {}
extension Start: AttributeListElement {}
extension ServerControl: AttributeListElement {}
extension PartInf: AttributeListElement {}
extension Skip: AttributeListElement {}
extension PreloadHint: AttributeListElement {}
extension RenditionReport: AttributeListElement {}
extension Rendition: AttributeListElement {}
extension Variant: AttributeListElement {}
extension IFrameVariant: AttributeListElement {}
extension SessionData: AttributeListElement {}
extension ContentSteering: AttributeListElement {}
