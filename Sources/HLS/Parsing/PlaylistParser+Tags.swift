import Notation

/// One handler per tag: reads the value or attribute list into the model.
extension PlaylistParser {
    mutating func handleTag(_ tag: TagName, value: Range<Int>?) {
        if continuation != nil && !Self.readsAlikeAfterACut(tag) { return abandon() }
        guard admit(tag, value: value) else { return }
        info.tagOccurrences.append(TagOccurrence(tag: tag, location: lineLocation, segmentIndex: currentIndex))
        if tag.isMediaSegmentTag {
            beginSegmentLine()
            if tag != .extinf { pendingHasTags = true }
        }
        switch tag {
        case .extinf: handleExtinf(value)
        case .programDateTime:
            guard let v = requireValue(tag, value) else { return }
            pending.programDateTime = dateTime(v, what: tag.rawValue, at: location(v.lowerBound))
        case .byteRange:
            guard let v = requireValue(tag, value) else { return }
            pending.byteRange = byteRange(v, what: tag.rawValue, at: location(v.lowerBound))
        case .discontinuity:
            noValue(tag, value)
            pending.discontinuity = true
        case .gap:
            noValue(tag, value)
            pending.gap = true
        case .bitrate:
            guard let v = requireValue(tag, value) else { return }
            pending.bitrateKilobitsPerSecond = decimalInteger(v, tag: tag)
        case .key:
            if let key = readKey(tag, value) {
                if pending.keys.isEmpty && pending.map != nil { pending.mapPrecedesKeys = true }
                pending.keys.append(key)
            }
        case .map:
            readElement(value, Map(uri: "", source: lineSpan), TagSchemas.map) { $0.pending.map = $1 }
        case .part:
            readElement(value, PartialSegment(uri: "", duration: 0, source: lineSpan), TagSchemas.part) {
                $0.pending.parts.append($1)
            }
        case .dateRange:
            readElement(value, DateRange(id: "", source: lineSpan), TagSchemas.dateRange) {
                $0.pending.dateRanges.append($1)
            }

        case .extm3u:
            noValue(tag, value)
            if info.extm3uLocation == nil { info.extm3uLocation = lineLocation }
        case .version:
            guard let v = requireValue(tag, value) else { return }
            let number = decimalInteger(v, tag: tag)
            if version == nil { version = number }
        case .independentSegments:
            noValue(tag, value)
            independentSegments = true
        case .start:
            readElement(value, Start(timeOffset: 0, source: lineSpan), TagSchemas.start) { $0.start = $1 }
        case .define: handleDefine(value)

        case .targetDuration:
            guard let v = requireValue(tag, value) else { return }
            media.targetDuration = decimalInteger(v, tag: tag, roundingUp: true)
        case .mediaSequence:
            guard let v = requireValue(tag, value) else { return }
            media.mediaSequence = decimalInteger(v, tag: tag)
        case .discontinuitySequence:
            guard let v = requireValue(tag, value) else { return }
            media.discontinuitySequence = decimalInteger(v, tag: tag)
        case .endList:
            noValue(tag, value)
            media.endList = true
        case .playlistType:
            guard let v = requireValue(tag, value) else { return }
            let text = string(v)
            if !PlaylistType.known.map(\.rawValue).contains(text) {
                report(
                    .error, .invalidEnumeratedString, "EXT-X-PLAYLIST-TYPE is \"\(text)\"; expected EVENT or VOD",
                    at: location(v.lowerBound), spec: SpecReference.section(for: tag))
            }
            media.playlistType = PlaylistType(rawValue: text)
        case .iFramesOnly:
            noValue(tag, value)
            media.iFramesOnly = true
        case .partInf:
            readElement(value, PartInf(partTarget: 0, source: lineSpan), TagSchemas.partInf) { $0.media.partInf = $1 }
        case .serverControl:
            readElement(value, ServerControl(source: lineSpan), TagSchemas.serverControl) {
                $0.media.serverControl = $1
            }
        case .skip:
            readElement(value, Skip(skippedSegments: 0, source: lineSpan), TagSchemas.skip) { $0.media.skip = $1 }
        case .preloadHint:
            readElement(value, PreloadHint(type: .part, uri: "", source: lineSpan), TagSchemas.preloadHint) {
                $0.media.preloadHints.append($1)
            }
        case .renditionReport:
            readElement(value, RenditionReport(uri: "", source: lineSpan), TagSchemas.renditionReport) {
                $0.media.renditionReports.append($1)
            }

        case .media:
            readElement(value, Rendition(type: .audio, groupID: "", name: "", source: lineSpan), TagSchemas.rendition) {
                $0.multivariant.renditions.append($1)
            }
        case .streamInf: handleStreamInf(value)
        case .iFrameStreamInf:
            readElement(value, IFrameVariant(uri: "", bandwidth: 0, source: lineSpan), TagSchemas.iFrameVariant) {
                $0.multivariant.iFrameVariants.append($1)
            }
        case .sessionData:
            readElement(value, SessionData(dataID: "", source: lineSpan), TagSchemas.sessionData) {
                $0.multivariant.sessionData.append($1)
            }
        case .sessionKey:
            if let key = readKey(tag, value) { multivariant.sessionKeys.append(key) }
        case .contentSteering:
            readElement(value, ContentSteering(serverURI: "", source: lineSpan), TagSchemas.contentSteering) {
                $0.multivariant.contentSteering = $1
            }
        }
    }

    // MARK: - Helpers

    @inline(__always)
    mutating func requireValue(_ tag: TagName, _ value: Range<Int>?) -> Range<Int>? {
        if let value, !value.isEmpty { return value }
        report(
            .error, .tagValueMissing, "\(tag.rawValue) needs a value after ':'", at: lineLocation,
            spec: SpecReference.section(for: tag))
        return nil
    }

    @inline(__always)
    mutating func noValue(_ tag: TagName, _ value: Range<Int>?) {
        if value != nil {
            report(
                .error, .tagValueUnexpected, "\(tag.rawValue) takes no value", at: lineLocation,
                spec: SpecReference.section(for: tag))
        }
    }

    mutating func missing(_ attribute: String, _ tag: TagName) {
        info.tagsLackingRequiredAttributes.insert(lineStart)
        report(
            .error, .missingAttribute(attribute, in: tag), "\(tag.rawValue) lacks \(attribute)", at: lineLocation,
            spec: SpecReference.section(for: tag))
    }

    mutating func unknownAttribute(_ slot: AttributeSlot, _ tag: TagName) -> Attribute {
        let attribute = otherAttribute(slot)
        report(
            .note, .unknownAttribute, "\(tag.rawValue) has an attribute the spec does not define: \(attribute.name)",
            at: location(slot.nameStart), spec: SpecReference.section(for: tag))
        return attribute
    }

    var lineSpan: SourceSpan {
        @inline(__always) get { SourceSpan(location: lineLocation, byteRange: lineStart..<lineNext) }
    }

    // MARK: - Media segment tags

    mutating func handleExtinf(_ value: Range<Int>?) {
        if pendingHasExtinf {
            report(
                .error, .extinfWithoutURI, "EXTINF is not followed by a URI line", at: extinfLocation,
                spec: SpecReference.extinf)
        }
        pendingHasExtinf = true
        extinfLocation = lineLocation
        guard let v = requireValue(.extinf, value) else {
            pending.duration = 0
            return
        }
        var comma = v.lowerBound
        while comma < v.upperBound && buffer[comma] != UInt8(ascii: ",") { comma += 1 }
        if comma == v.upperBound {
            report(
                .error, .extinfMissingComma, "EXTINF lacks the comma after the duration", at: location(v.lowerBound),
                spec: SpecReference.extinf)
        }
        let durationRange = v.lowerBound..<comma
        if let duration = plainDecimal(durationRange) {
            pending.duration = duration
        } else {
            if durationRange.count > 1, buffer[durationRange.lowerBound] == UInt8(ascii: "-"),
                plainDecimal(durationRange.lowerBound + 1..<durationRange.upperBound) != nil
            {
                report(
                    .error, .extinfNegativeDuration, "EXTINF duration is negative", at: location(v.lowerBound),
                    spec: SpecReference.extinf)
            } else {
                report(
                    .error, .invalidFloat,
                    "EXTINF duration \"\(string(durationRange))\" is not a decimal-floating-point",
                    at: location(v.lowerBound), spec: SpecReference.extinf)
            }
            // Read leniently (`" 11.320"` is 11.32 s), so totals are not built on zeros.
            let duration = buffer.lenientDecimal(durationRange)
            noteLenient(durationRange, tag: .extinf, attribute: nil, value: duration.map(LenientValue.Number.decimal))
            pending.duration = duration ?? 0
        }
        pending.title = comma + 1 < v.upperBound ? string(comma + 1..<v.upperBound) : nil
    }

    /// Reads the attribute list `value` into `model` through `schema` (see ``applyAttributes(to:_:tag:)``).
    mutating func readAttributes<Model>(
        _ value: Range<Int>, into model: inout Model, _ schema: AttributeSchema<Model>, tag: TagName? = nil
    ) {
        let tag = tag ?? schema.tag
        scanAttributes(value, tag: tag)
        applyAttributes(to: &model, schema, tag: tag)
    }

    /// Reads the scanned attribute slots into `model`: each named attribute into its field, the others kept in
    /// order (with a note, unless they are client attributes); then reports the required ones that are absent.
    mutating func applyAttributes<Model>(to model: inout Model, _ schema: AttributeSchema<Model>, tag: TagName) {
        var seen: UInt64 = 0
        for k in attributes.indices {
            let slot = attributes[k]
            if let index = schema.fieldIndex(buffer, slot.nameStart..<slot.nameEnd) {
                seen |= 1 << UInt64(index)
                schema.fields[index].read(&self, slot, tag, &model)
            } else if schema.acceptsClientAttributes && slot.nameEnd - slot.nameStart >= 2
                && buffer[slot.nameStart] == UInt8(ascii: "X") && buffer[slot.nameStart + 1] == UInt8(ascii: "-")
            {
                model[keyPath: schema.others].append(otherAttribute(slot))
            } else {
                model[keyPath: schema.others].append(unknownAttribute(slot, tag))
            }
        }
        for index in schema.required where seen & (1 << UInt64(index)) == 0 { missing(schema.fields[index].name, tag) }
    }

    /// EXT-X-KEY and EXT-X-SESSION-KEY: URI is required unless METHOD is NONE.
    mutating func readKey(_ tag: TagName, _ value: Range<Int>?) -> Key? {
        guard let v = requireValue(tag, value) else { return nil }
        var key = Key(method: .none, source: lineSpan)
        readAttributes(v, into: &key, TagSchemas.key, tag: tag)
        if key.method != .none && key.uri == nil { missing("URI", tag) }
        return key
    }

    /// A tag whose value is an attribute list read into a fresh model, then stored by `keep`.
    mutating func readElement<Model>(
        _ value: Range<Int>?, _ blank: Model, _ schema: AttributeSchema<Model>, keep: (inout Self, Model) -> Void
    ) {
        guard let v = requireValue(schema.tag, value) else { return }
        var model = blank
        readAttributes(v, into: &model, schema)
        keep(&self, model)
    }

    mutating func quotedByteRange(_ slot: AttributeSlot, _ tag: TagName) -> ByteRange? {
        if !slot.quoted {
            report(
                .error, .expectedQuotedString, "BYTERANGE of \(tag.rawValue) must be a quoted string",
                at: valueLocation(slot), spec: SpecReference.section(for: tag))
        }
        let range = slot.valueStart..<slot.valueEnd
        let what = "BYTERANGE of \(tag.rawValue)"
        guard containsVariableReference(range) else { return byteRange(range, what: what, at: valueLocation(slot)) }
        // A quoted-string: variables are substituted before the value is read (RFC 8216bis §4.3).
        let text = substitutedString(range, at: location(slot.valueStart))
        if let value = Array(text.utf8).withUnsafeBufferPointer({ $0.byteRange(0..<$0.count) }) { return value }
        report(
            .error, .invalidByteRange, "\(what) is \"\(text)\", not length[@offset]", at: valueLocation(slot),
            spec: SpecReference.byteRange)
        return nil
    }

    /// A date-time held in a (substituted) quoted string.
    mutating func dateTime(_ text: String, what: String, at: SourceLocation) -> DateTime? {
        let result = Array(text.utf8).withUnsafeBufferPointer { $0.parseDateTime(0..<$0.count) }
        if result == nil {
            report(
                .error, .invalidDateTime, "\(what) is \"\(text)\", not an ISO 8601 date-time", at: at,
                spec: SpecReference.section(for: .dateRange))
        }
        return result
    }

    // MARK: - Playlist tags

    mutating func handleDefine(_ value: Range<Int>?) {
        let tag = TagName.define
        guard let v = requireValue(tag, value) else { return }
        guard defines.count < options.maximumVariableCount else {
            if !variableLimitReported {
                variableLimitReported = true
                report(
                    .error, .invalidDefine,
                    "more than \(options.maximumVariableCount) EXT-X-DEFINE tags; the rest are ignored",
                    at: lineLocation, spec: SpecReference.define)
            }
            return
        }
        scanAttributes(v, tag: tag)
        var nameSlot: AttributeSlot?
        var valueSlot: AttributeSlot?
        var kinds: [(Define.Kind, AttributeSlot)] = []
        for k in attributes.indices {
            let slot = attributes[k]
            switch name(slot) {
            case "NAME":
                kinds.append((.value, slot))
                nameSlot = slot
            case "VALUE": valueSlot = slot
            case "IMPORT": kinds.append((.import, slot))
            case "QUERYPARAM": kinds.append((.queryParameter, slot))
            default: _ = unknownAttribute(slot, tag)
            }
        }
        guard kinds.count == 1, let (kind, slot) = kinds.first else {
            report(
                .error, .invalidDefine, "EXT-X-DEFINE needs exactly one of NAME, IMPORT and QUERYPARAM",
                at: lineLocation, spec: SpecReference.define)
            return
        }
        if !slot.quoted {
            report(
                .error, .expectedQuotedString, "\(name(slot)) of EXT-X-DEFINE must be a quoted string",
                at: valueLocation(slot), spec: SpecReference.define)
        }
        // NAME, IMPORT and QUERYPARAM are quoted-strings too: variables defined above are substituted in them.
        let variable = substitutedString(slot.valueStart..<slot.valueEnd, at: location(slot.valueStart))
        if !PlaylistParser.isValidVariableName(variable) {
            report(
                .error, .invalidVariableName,
                "variable name \"\(variable)\" has characters outside a-z, A-Z, 0-9, - and _",
                at: valueLocation(slot), spec: SpecReference.define)
        }
        var define = Define(kind: kind, name: variable, source: lineSpan)
        switch kind {
        case .value:
            if let valueSlot {
                define.value = quotedString(valueSlot, tag)
            } else {
                missing("VALUE", tag)
            }
            _ = nameSlot
        case .import:
            if let imported = options.importedVariables[variable] {
                define.value = imported
            } else {
                report(
                    .error, .importNotFound,
                    "EXT-X-DEFINE IMPORT=\"\(variable)\": the multivariant playlist defines no such variable",
                    at: valueLocation(slot), spec: SpecReference.define)
            }
        case .queryParameter:
            if let parameter = queryParameter(variable) {
                define.value = parameter
            } else {
                report(
                    .error, .queryParameterNotFound,
                    "EXT-X-DEFINE QUERYPARAM=\"\(variable)\": the playlist URI has no such query parameter",
                    at: valueLocation(slot), spec: SpecReference.define)
            }
        }
        if !definedNames.insert(variable).inserted {
            report(
                .error, .duplicateVariable, "variable \(variable) is defined twice", at: valueLocation(slot),
                spec: SpecReference.define)
        }
        if let value = define.value, variables[variable] == nil { variables[variable] = value }
        defines.append(define)
    }

    mutating func handleStreamInf(_ value: Range<Int>?) {
        if pendingVariant != nil {
            report(
                .error, .streamInfWithoutURI, "EXT-X-STREAM-INF is not followed by a URI line",
                at: pendingVariantLocation, spec: SpecReference.streamInf)
        }
        // The value may be empty: the missing BANDWIDTH is then reported.
        if let v = value, !v.isEmpty {
            scanAttributes(v, tag: .streamInf)
        } else {
            attributes.removeAll(keepingCapacity: true)
        }
        var variant = Variant(uri: "", bandwidth: 0)
        applyAttributes(to: &variant, TagSchemas.variant, tag: .streamInf)
        pendingVariant = variant
        pendingVariantStart = lineStart
        pendingVariantLocation = lineLocation
    }
}
