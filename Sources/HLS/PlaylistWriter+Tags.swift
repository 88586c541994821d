/// Canonical serialisation of every tag: one function per tag, attributes in the spec's order.
struct TextOutput {
    var bytes: [UInt8] = []

    mutating func line(_ text: String) {
        bytes.append(contentsOf: text.utf8)
        bytes.append(0x0A)
    }

    /// Input bytes copied through; a missing final line feed is added when more text may follow.
    mutating func raw(_ slice: ArraySlice<UInt8>) {
        bytes.append(contentsOf: slice)
    }

    /// Copies `element` from the parsed input when the parsed model has an equal element at the same place.
    mutating func copy<Element: SourcedElement>(_ element: Element, from originals: [Element]?, bytes input: [UInt8])
        -> Bool
    {
        guard let originals, let range = element.source?.byteRange, range.upperBound <= input.count else {
            return false
        }
        // Originals are in input order: binary search by start offset.
        var low = 0
        var high = originals.count
        while low < high {
            let mid = (low + high) / 2
            let start = originals[mid].source?.byteRange.lowerBound ?? -1
            if start < range.lowerBound { low = mid + 1 } else { high = mid }
        }
        guard low < originals.count, originals[low].source?.byteRange == range, originals[low] == element else {
            return false
        }
        if let last = bytes.last, last != 0x0A { bytes.append(0x0A) }
        bytes.append(contentsOf: input[range])
        if let last = bytes.last, last != 0x0A { bytes.append(0x0A) }
        return true
    }

    // MARK: - Attribute lists

    struct Attributes {
        var text = ""
        mutating func add(_ name: String, _ value: String) {
            if !text.isEmpty { text += "," }
            text += name
            text += "="
            text += value
        }
        mutating func quoted(_ name: String, _ value: String?) {
            if let value { add(name, "\"" + value + "\"") }
        }
        mutating func integer(_ name: String, _ value: Int?) {
            if let value { add(name, String(value)) }
        }
        mutating func decimal(_ name: String, _ value: Double?) {
            if let value { add(name, DecimalFormat.string(value)) }
        }
        mutating func enumerated(_ name: String, _ value: String?) {
            if let value { add(name, value) }
        }
        mutating func yes(_ name: String, _ value: Bool) {
            if value { add(name, "YES") }
        }
        mutating func hex(_ name: String, _ value: HexadecimalSequence?) {
            if let value { add(name, value.description) }
        }
        mutating func others(_ attributes: [Attribute]) {
            for attribute in attributes {
                switch attribute.value {
                case .quotedString(let value): quoted(attribute.name, value)
                case .unquoted(let value): add(attribute.name, value)
                }
            }
        }
    }

    mutating func tag(_ tag: TagName, _ attributes: Attributes) {
        line("#\(tag.rawValue):\(attributes.text)")
    }

    // MARK: - Tags

    mutating func segmentTags(_ segment: Segment, complete: Bool) {
        if segment.discontinuity { line("#EXT-X-DISCONTINUITY") }
        for key in segment.keys { self.key(key, tag: .key) }
        if let map = segment.map { self.map(map) }
        if let date = segment.programDateTime { line("#EXT-X-PROGRAM-DATE-TIME:\(date)") }
        for range in segment.dateRanges { dateRange(range) }
        if segment.gap { line("#EXT-X-GAP") }
        if let bitrate = segment.bitrateKilobitsPerSecond { line("#EXT-X-BITRATE:\(bitrate)") }
        for part in segment.parts { self.part(part) }
        if let range = segment.byteRange { line("#EXT-X-BYTERANGE:\(range)") }
        if complete {
            line("#EXTINF:\(DecimalFormat.duration(segment.duration)),\(segment.title ?? "")")
        }
        for verbatim in segment.verbatimLines { line(verbatim.text) }
    }

    mutating func segment(_ segment: Segment) {
        segmentTags(segment, complete: true)
        line(segment.uri)
    }

    mutating func key(_ key: Key, tag: TagName) {
        var a = Attributes()
        a.enumerated("METHOD", key.method.rawValue)
        a.quoted("URI", key.uri)
        a.hex("IV", key.iv)
        a.quoted("KEYFORMAT", key.keyFormat)
        a.quoted("KEYFORMATVERSIONS", key.keyFormatVersions)
        a.others(key.otherAttributes)
        self.tag(tag, a)
    }

    mutating func map(_ map: Map) {
        var a = Attributes()
        a.quoted("URI", map.uri)
        a.quoted("BYTERANGE", map.byteRange?.description)
        a.others(map.otherAttributes)
        tag(.map, a)
    }

    mutating func part(_ part: PartialSegment) {
        var a = Attributes()
        a.decimal("DURATION", part.duration)
        a.quoted("URI", part.uri)
        a.yes("INDEPENDENT", part.independent)
        a.quoted("BYTERANGE", part.byteRange?.description)
        a.yes("GAP", part.gap)
        a.others(part.otherAttributes)
        tag(.part, a)
    }

    mutating func dateRange(_ range: DateRange) {
        var a = Attributes()
        a.quoted("ID", range.id)
        a.quoted("CLASS", range.className)
        a.quoted("START-DATE", range.startDate?.description)
        a.quoted("CUE", range.cue)
        a.quoted("END-DATE", range.endDate?.description)
        a.decimal("DURATION", range.duration)
        a.decimal("PLANNED-DURATION", range.plannedDuration)
        a.others(range.clientAttributes)
        a.hex("SCTE35-CMD", range.scte35Command)
        a.hex("SCTE35-OUT", range.scte35Out)
        a.hex("SCTE35-IN", range.scte35In)
        a.yes("END-ON-NEXT", range.endOnNext)
        tag(.dateRange, a)
    }

    mutating func start(_ start: Start) {
        var a = Attributes()
        a.decimal("TIME-OFFSET", start.timeOffset)
        a.yes("PRECISE", start.precise)
        a.others(start.otherAttributes)
        tag(.start, a)
    }

    mutating func define(_ define: Define) {
        var a = Attributes()
        switch define.kind {
        case .value:
            a.quoted("NAME", define.name)
            a.quoted("VALUE", define.value ?? "")
        case .import: a.quoted("IMPORT", define.name)
        case .queryParameter: a.quoted("QUERYPARAM", define.name)
        }
        tag(.define, a)
    }

    mutating func serverControl(_ control: ServerControl) {
        var a = Attributes()
        a.decimal("CAN-SKIP-UNTIL", control.canSkipUntil)
        a.yes("CAN-SKIP-DATERANGES", control.canSkipDateRanges)
        a.decimal("HOLD-BACK", control.holdBack)
        a.decimal("PART-HOLD-BACK", control.partHoldBack)
        a.yes("CAN-BLOCK-RELOAD", control.canBlockReload)
        a.others(control.otherAttributes)
        tag(.serverControl, a)
    }

    mutating func partInf(_ partInf: PartInf) {
        var a = Attributes()
        a.decimal("PART-TARGET", partInf.partTarget)
        a.others(partInf.otherAttributes)
        tag(.partInf, a)
    }

    mutating func skip(_ skip: Skip) {
        var a = Attributes()
        a.integer("SKIPPED-SEGMENTS", skip.skippedSegments)
        a.quoted("RECENTLY-REMOVED-DATERANGES", skip.recentlyRemovedDateRanges?.joined(separator: "\t"))
        a.others(skip.otherAttributes)
        tag(.skip, a)
    }

    mutating func preloadHint(_ hint: PreloadHint) {
        var a = Attributes()
        a.enumerated("TYPE", hint.type.rawValue)
        a.quoted("URI", hint.uri)
        a.integer("BYTERANGE-START", hint.byteRangeStart)
        a.integer("BYTERANGE-LENGTH", hint.byteRangeLength)
        a.others(hint.otherAttributes)
        tag(.preloadHint, a)
    }

    mutating func renditionReport(_ report: RenditionReport) {
        var a = Attributes()
        a.quoted("URI", report.uri)
        a.integer("LAST-MSN", report.lastMediaSequenceNumber)
        a.integer("LAST-PART", report.lastPart)
        a.others(report.otherAttributes)
        tag(.renditionReport, a)
    }

    mutating func rendition(_ rendition: Rendition) {
        var a = Attributes()
        a.enumerated("TYPE", rendition.type.rawValue)
        a.quoted("GROUP-ID", rendition.groupID)
        a.quoted("NAME", rendition.name)
        a.quoted("LANGUAGE", rendition.language)
        a.quoted("ASSOC-LANGUAGE", rendition.associatedLanguage)
        a.quoted("STABLE-RENDITION-ID", rendition.stableRenditionID)
        a.yes("DEFAULT", rendition.isDefault)
        a.yes("AUTOSELECT", rendition.autoselect)
        a.yes("FORCED", rendition.forced)
        a.quoted("INSTREAM-ID", rendition.instreamID)
        a.integer("BIT-DEPTH", rendition.bitDepth)
        a.integer("SAMPLE-RATE", rendition.sampleRate)
        a.quoted("CHARACTERISTICS", rendition.characteristics)
        a.quoted("CHANNELS", rendition.channels)
        a.quoted("URI", rendition.uri)
        a.others(rendition.otherAttributes)
        tag(.media, a)
    }

    mutating func variant(_ variant: Variant) {
        var a = Attributes()
        a.integer("BANDWIDTH", variant.bandwidth)
        a.integer("AVERAGE-BANDWIDTH", variant.averageBandwidth)
        a.decimal("SCORE", variant.score)
        a.quoted("CODECS", variant.codecs)
        a.quoted("SUPPLEMENTAL-CODECS", variant.supplementalCodecs)
        a.enumerated("RESOLUTION", variant.resolution?.description)
        a.decimal("FRAME-RATE", variant.frameRate)
        a.enumerated("HDCP-LEVEL", variant.hdcpLevel?.rawValue)
        a.quoted("ALLOWED-CPC", variant.allowedCPC)
        a.enumerated("VIDEO-RANGE", variant.videoRange?.rawValue)
        a.quoted("REQ-VIDEO-LAYOUT", variant.requiredVideoLayout)
        a.quoted("STABLE-VARIANT-ID", variant.stableVariantID)
        a.quoted("AUDIO", variant.audio)
        a.quoted("VIDEO", variant.video)
        a.quoted("SUBTITLES", variant.subtitles)
        switch variant.closedCaptions {
        case .none?: a.add("CLOSED-CAPTIONS", "NONE")
        case .group(let id)?: a.quoted("CLOSED-CAPTIONS", id)
        case nil: break
        }
        a.quoted("PATHWAY-ID", variant.pathwayID)
        a.integer("PROGRAM-ID", variant.programID)
        a.others(variant.otherAttributes)
        tag(.streamInf, a)
        for verbatim in variant.verbatimLines { line(verbatim.text) }
        line(variant.uri)
    }

    mutating func iFrameVariant(_ variant: IFrameVariant) {
        var a = Attributes()
        a.integer("BANDWIDTH", variant.bandwidth)
        a.integer("AVERAGE-BANDWIDTH", variant.averageBandwidth)
        a.decimal("SCORE", variant.score)
        a.quoted("CODECS", variant.codecs)
        a.quoted("SUPPLEMENTAL-CODECS", variant.supplementalCodecs)
        a.enumerated("RESOLUTION", variant.resolution?.description)
        a.enumerated("HDCP-LEVEL", variant.hdcpLevel?.rawValue)
        a.quoted("ALLOWED-CPC", variant.allowedCPC)
        a.enumerated("VIDEO-RANGE", variant.videoRange?.rawValue)
        a.quoted("REQ-VIDEO-LAYOUT", variant.requiredVideoLayout)
        a.quoted("STABLE-VARIANT-ID", variant.stableVariantID)
        a.quoted("VIDEO", variant.video)
        a.quoted("PATHWAY-ID", variant.pathwayID)
        a.integer("PROGRAM-ID", variant.programID)
        a.quoted("URI", variant.uri)
        a.others(variant.otherAttributes)
        tag(.iFrameStreamInf, a)
    }

    mutating func sessionData(_ data: SessionData) {
        var a = Attributes()
        a.quoted("DATA-ID", data.dataID)
        a.quoted("VALUE", data.value)
        a.quoted("URI", data.uri)
        a.enumerated("FORMAT", data.format?.rawValue)
        a.quoted("LANGUAGE", data.language)
        a.others(data.otherAttributes)
        tag(.sessionData, a)
    }

    mutating func contentSteering(_ steering: ContentSteering) {
        var a = Attributes()
        a.quoted("SERVER-URI", steering.serverURI)
        a.quoted("PATHWAY-ID", steering.pathwayID)
        a.others(steering.otherAttributes)
        tag(.contentSteering, a)
    }
}

/// Decimal text for Doubles: the shortest digits that read back as the same value, never in exponent form.
enum DecimalFormat {
    /// `9.009`, `10.0`, `0.00001`; non-finite values are written as `0`.
    static func string(_ value: Double) -> String {
        guard value.isFinite else { return "0" }
        let text = value.description
        guard let e = text.firstIndex(where: { $0 == "e" || $0 == "E" }) else { return text }
        // Expand d.ddde±x.
        let mantissa = text[..<e]
        let exponent = Int(text[text.index(after: e)...]) ?? 0
        let negative = mantissa.hasPrefix("-")
        let unsigned = negative ? mantissa.dropFirst() : mantissa[...]
        let parts = unsigned.split(separator: ".", omittingEmptySubsequences: false)
        let whole = String(parts[0])
        let fraction = parts.count > 1 ? String(parts[1]) : ""
        var digits = whole + fraction
        var point = whole.count + exponent
        if point <= 0 {
            digits = String(repeating: "0", count: -point + 1) + digits
            point = 1
        } else if point > digits.count {
            digits += String(repeating: "0", count: point - digits.count)
        }
        var intPart = String(digits.prefix(point))
        var fracPart = String(digits.dropFirst(point))
        while fracPart.hasSuffix("0") { fracPart.removeLast() }
        if intPart.isEmpty { intPart = "0" }
        if fracPart.isEmpty { fracPart = "0" }
        return (negative ? "-" : "") + intPart + "." + fracPart
    }

    /// An EXTINF duration: ``string(_:)`` padded to at least three decimals (`10.000`, `9.009`, `4.00008`).
    static func duration(_ value: Double) -> String {
        var text = string(value)
        guard let dot = text.firstIndex(of: ".") else { return text + ".000" }
        let decimals = text.distance(from: dot, to: text.endIndex) - 1
        if decimals < 3 { text += String(repeating: "0", count: 3 - decimals) }
        return text
    }
}
