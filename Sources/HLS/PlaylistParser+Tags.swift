/// One handler per tag: reads the value or attribute list into the model.
extension PlaylistParser {
    mutating func handleTag(_ tag: TagName, value: Range<Int>?) {
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
            pending.bitrateKilobitsPerSecond = decimalInteger(v, what: tag.rawValue)
        case .key:
            if let key = readKey(tag, value) { pending.keys.append(key) }
        case .map: handleMap(value)
        case .part: handlePart(value)
        case .dateRange: handleDateRange(value)

        case .extm3u:
            noValue(tag, value)
            if info.extm3uLocation == nil { info.extm3uLocation = lineLocation }
        case .version:
            guard let v = requireValue(tag, value) else { return }
            let number = decimalInteger(v, what: tag.rawValue)
            if version == nil { version = number }
        case .independentSegments:
            noValue(tag, value)
            independentSegments = true
        case .start: handleStart(value)
        case .define: handleDefine(value)

        case .targetDuration:
            guard let v = requireValue(tag, value) else { return }
            media.targetDuration = decimalInteger(v, what: tag.rawValue)
        case .mediaSequence:
            guard let v = requireValue(tag, value) else { return }
            media.mediaSequence = decimalInteger(v, what: tag.rawValue)
        case .discontinuitySequence:
            guard let v = requireValue(tag, value) else { return }
            media.discontinuitySequence = decimalInteger(v, what: tag.rawValue)
        case .endList:
            noValue(tag, value)
            media.endList = true
        case .playlistType:
            guard let v = requireValue(tag, value) else { return }
            let text = string(v)
            if !PlaylistType.known.map(\.rawValue).contains(text) {
                report(.error, .invalidEnumeratedString, "EXT-X-PLAYLIST-TYPE is \"\(text)\"; expected EVENT or VOD",
                       at: location(v.lowerBound), spec: SpecReference.section(for: tag))
            }
            media.playlistType = PlaylistType(rawValue: text)
        case .iFramesOnly:
            noValue(tag, value)
            media.iFramesOnly = true
        case .partInf: handlePartInf(value)
        case .serverControl: handleServerControl(value)
        case .skip: handleSkip(value)
        case .preloadHint: handlePreloadHint(value)
        case .renditionReport: handleRenditionReport(value)

        case .media: handleMedia(value)
        case .streamInf: handleStreamInf(value)
        case .iFrameStreamInf: handleIFrameStreamInf(value)
        case .sessionData: handleSessionData(value)
        case .sessionKey:
            if let key = readKey(tag, value) { multivariant.sessionKeys.append(key) }
        case .contentSteering: handleContentSteering(value)
        }
    }

    // MARK: - Helpers

    mutating func requireValue(_ tag: TagName, _ value: Range<Int>?) -> Range<Int>? {
        if let value, !value.isEmpty { return value }
        report(.error, .tagValueMissing, "\(tag.rawValue) needs a value after ':'", at: lineLocation,
               spec: SpecReference.section(for: tag))
        return nil
    }

    mutating func noValue(_ tag: TagName, _ value: Range<Int>?) {
        if value != nil {
            report(.error, .tagValueUnexpected, "\(tag.rawValue) takes no value", at: lineLocation,
                   spec: SpecReference.section(for: tag))
        }
    }

    mutating func missing(_ attribute: String, _ tag: TagName) {
        report(.error, .missingAttribute(attribute, in: tag), "\(tag.rawValue) lacks \(attribute)", at: lineLocation,
               spec: SpecReference.section(for: tag))
    }

    mutating func unknownAttribute(_ slot: AttributeSlot, _ tag: TagName) -> Attribute {
        let attribute = otherAttribute(slot)
        report(.note, .unknownAttribute, "\(tag.rawValue) has an attribute the spec does not define: \(attribute.name)",
               at: location(slot.nameStart), spec: SpecReference.section(for: tag))
        return attribute
    }

    var lineSpan: SourceSpan {
        @inline(__always) get { SourceSpan(location: lineLocation, byteRange: lineStart..<lineNext) }
    }

    // MARK: - Media segment tags

    mutating func handleExtinf(_ value: Range<Int>?) {
        if pendingHasExtinf {
            report(.error, .extinfWithoutURI, "EXTINF is not followed by a URI line", at: extinfLocation,
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
            report(.error, .extinfMissingComma, "EXTINF lacks the comma after the duration", at: location(v.lowerBound),
                   spec: SpecReference.extinf)
        }
        let durationRange = v.lowerBound..<comma
        if let duration = plainDecimal(durationRange) {
            pending.duration = duration
        } else if durationRange.count > 1, buffer[durationRange.lowerBound] == UInt8(ascii: "-"),
            let magnitude = plainDecimal(durationRange.lowerBound + 1..<durationRange.upperBound)
        {
            report(.error, .extinfNegativeDuration, "EXTINF duration is negative", at: location(v.lowerBound),
                   spec: SpecReference.extinf)
            pending.duration = -magnitude
        } else {
            report(.error, .invalidFloat,
                   "EXTINF duration \"\(string(durationRange))\" is not a decimal-floating-point",
                   at: location(v.lowerBound), spec: SpecReference.extinf)
            pending.duration = 0
        }
        pending.title = comma + 1 < v.upperBound ? string(comma + 1..<v.upperBound) : nil
    }

    mutating func readKey(_ tag: TagName, _ value: Range<Int>?) -> Key? {
        guard let v = requireValue(tag, value) else { return nil }
        scanAttributes(v, tag: tag)
        var key = Key(method: .none, source: lineSpan)
        var sawMethod = false
        for k in attributes.indices {
            let slot = attributes[k]
            switch name(slot) {
            case "METHOD":
                sawMethod = true
                key.method = EncryptionMethod(
                    rawValue: enumeratedString(slot, tag, allowed: EncryptionMethod.known.map(\.rawValue)))
            case "URI": key.uri = quotedString(slot, tag)
            case "IV": key.iv = hexadecimal(slot, tag)
            case "KEYFORMAT": key.keyFormat = quotedString(slot, tag)
            case "KEYFORMATVERSIONS": key.keyFormatVersions = quotedString(slot, tag)
            default: key.otherAttributes.append(unknownAttribute(slot, tag))
            }
        }
        if !sawMethod { missing("METHOD", tag) }
        if key.method != .none && key.uri == nil && sawMethod { missing("URI", tag) }
        return key
    }

    mutating func handleMap(_ value: Range<Int>?) {
        guard let v = requireValue(.map, value) else { return }
        scanAttributes(v, tag: .map)
        var map = Map(uri: "", source: lineSpan)
        var sawURI = false
        for k in attributes.indices {
            let slot = attributes[k]
            switch name(slot) {
            case "URI":
                map.uri = quotedString(slot, .map)
                sawURI = true
            case "BYTERANGE": map.byteRange = quotedByteRange(slot, .map)
            default: map.otherAttributes.append(unknownAttribute(slot, .map))
            }
        }
        if !sawURI { missing("URI", .map) }
        pending.map = map
    }

    mutating func quotedByteRange(_ slot: AttributeSlot, _ tag: TagName) -> ByteRange? {
        if !slot.quoted {
            report(.error, .expectedQuotedString, "BYTERANGE of \(tag.rawValue) must be a quoted string",
                   at: valueLocation(slot), spec: SpecReference.section(for: tag))
        }
        return byteRange(slot.valueStart..<slot.valueEnd, what: "BYTERANGE of \(tag.rawValue)", at: valueLocation(slot))
    }

    mutating func handlePart(_ value: Range<Int>?) {
        guard let v = requireValue(.part, value) else { return }
        scanAttributes(v, tag: .part)
        var part = PartialSegment(uri: "", duration: 0, source: lineSpan)
        var sawURI = false
        var sawDuration = false
        for k in attributes.indices {
            let slot = attributes[k]
            switch name(slot) {
            case "URI":
                part.uri = quotedString(slot, .part)
                sawURI = true
            case "DURATION":
                part.duration = decimalFloat(slot, .part) ?? 0
                sawDuration = true
            case "INDEPENDENT": part.independent = yesNo(slot, .part)
            case "BYTERANGE": part.byteRange = quotedByteRange(slot, .part)
            case "GAP": part.gap = yesNo(slot, .part)
            default: part.otherAttributes.append(unknownAttribute(slot, .part))
            }
        }
        if !sawURI { missing("URI", .part) }
        if !sawDuration { missing("DURATION", .part) }
        pending.parts.append(part)
    }

    mutating func handleDateRange(_ value: Range<Int>?) {
        let tag = TagName.dateRange
        guard let v = requireValue(tag, value) else { return }
        scanAttributes(v, tag: tag)
        var range = DateRange(id: "", source: lineSpan)
        var sawID = false
        for k in attributes.indices {
            let slot = attributes[k]
            let attribute = name(slot)
            switch attribute {
            case "ID":
                range.id = quotedString(slot, tag)
                sawID = true
            case "CLASS": range.className = quotedString(slot, tag)
            case "START-DATE":
                let text = quotedString(slot, tag)
                range.startDate = dateTime(text, what: "START-DATE of \(tag.rawValue)", at: valueLocation(slot))
            case "END-DATE":
                let text = quotedString(slot, tag)
                range.endDate = dateTime(text, what: "END-DATE of \(tag.rawValue)", at: valueLocation(slot))
            case "CUE": range.cue = quotedString(slot, tag)
            case "DURATION": range.duration = decimalFloat(slot, tag)
            case "PLANNED-DURATION": range.plannedDuration = decimalFloat(slot, tag)
            case "SCTE35-CMD": range.scte35Command = hexadecimal(slot, tag)
            case "SCTE35-OUT": range.scte35Out = hexadecimal(slot, tag)
            case "SCTE35-IN": range.scte35In = hexadecimal(slot, tag)
            case "END-ON-NEXT": range.endOnNext = yesNo(slot, tag, onlyYes: true)
            default:
                if attribute.hasPrefix("X-") {
                    range.clientAttributes.append(otherAttribute(slot))
                } else {
                    range.clientAttributes.append(unknownAttribute(slot, tag))
                }
            }
        }
        if !sawID { missing("ID", tag) }
        pending.dateRanges.append(range)
    }

    /// A date-time held in a (substituted) quoted string.
    mutating func dateTime(_ text: String, what: String, at: SourceLocation) -> DateTime? {
        var bytes = Array(text.utf8)
        let saved = buffer
        let result: DateTime? = bytes.withUnsafeMutableBufferPointer { scratch in
            buffer = UnsafeBufferPointer(scratch)
            defer { buffer = saved }
            return parseDateTime(0..<scratch.count)
        }
        if result == nil {
            report(.error, .invalidDateTime, "\(what) is \"\(text)\", not an ISO 8601 date-time", at: at,
                   spec: SpecReference.section(for: .dateRange))
        }
        return result
    }

    // MARK: - Playlist tags

    mutating func handleStart(_ value: Range<Int>?) {
        let tag = TagName.start
        guard let v = requireValue(tag, value) else { return }
        scanAttributes(v, tag: tag)
        var start = Start(timeOffset: 0, source: lineSpan)
        var sawOffset = false
        for k in attributes.indices {
            let slot = attributes[k]
            switch name(slot) {
            case "TIME-OFFSET":
                start.timeOffset = decimalFloat(slot, tag, signed: true) ?? 0
                sawOffset = true
            case "PRECISE": start.precise = yesNo(slot, tag)
            default: start.otherAttributes.append(unknownAttribute(slot, tag))
            }
        }
        if !sawOffset { missing("TIME-OFFSET", tag) }
        self.start = start
    }

    mutating func handleDefine(_ value: Range<Int>?) {
        let tag = TagName.define
        guard let v = requireValue(tag, value) else { return }
        scanAttributes(v, tag: tag)
        var nameSlot: AttributeSlot?
        var valueSlot: AttributeSlot?
        var kinds: [(Define.Kind, AttributeSlot)] = []
        for k in attributes.indices {
            let slot = attributes[k]
            switch name(slot) {
            case "NAME": kinds.append((.value, slot)); nameSlot = slot
            case "VALUE": valueSlot = slot
            case "IMPORT": kinds.append((.import, slot))
            case "QUERYPARAM": kinds.append((.queryParameter, slot))
            default: _ = unknownAttribute(slot, tag)
            }
        }
        guard kinds.count == 1, let (kind, slot) = kinds.first else {
            report(.error, .invalidDefine, "EXT-X-DEFINE needs exactly one of NAME, IMPORT and QUERYPARAM",
                   at: lineLocation, spec: SpecReference.define)
            return
        }
        if !slot.quoted {
            report(.error, .expectedQuotedString, "\(name(slot)) of EXT-X-DEFINE must be a quoted string",
                   at: valueLocation(slot), spec: SpecReference.define)
        }
        let variable = string(slot.valueStart..<slot.valueEnd)
        if !PlaylistParser.isValidVariableName(variable) {
            report(.error, .invalidVariableName,
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
                report(.error, .importNotFound,
                       "EXT-X-DEFINE IMPORT=\"\(variable)\": the multivariant playlist defines no such variable",
                       at: valueLocation(slot), spec: SpecReference.define)
            }
        case .queryParameter:
            if let parameter = queryParameter(variable) {
                define.value = parameter
            } else {
                report(.error, .queryParameterNotFound,
                       "EXT-X-DEFINE QUERYPARAM=\"\(variable)\": the playlist URI has no such query parameter",
                       at: valueLocation(slot), spec: SpecReference.define)
            }
        }
        if variables[variable] != nil || defines.contains(where: { $0.name == variable }) {
            report(.error, .duplicateVariable, "variable \(variable) is defined twice", at: valueLocation(slot),
                   spec: SpecReference.define)
        }
        if let value = define.value, variables[variable] == nil { variables[variable] = value }
        defines.append(define)
    }

    mutating func handlePartInf(_ value: Range<Int>?) {
        let tag = TagName.partInf
        guard let v = requireValue(tag, value) else { return }
        scanAttributes(v, tag: tag)
        var partInf = PartInf(partTarget: 0, source: lineSpan)
        var sawTarget = false
        for k in attributes.indices {
            let slot = attributes[k]
            switch name(slot) {
            case "PART-TARGET":
                partInf.partTarget = decimalFloat(slot, tag) ?? 0
                sawTarget = true
            default: partInf.otherAttributes.append(unknownAttribute(slot, tag))
            }
        }
        if !sawTarget { missing("PART-TARGET", tag) }
        media.partInf = partInf
    }

    mutating func handleServerControl(_ value: Range<Int>?) {
        let tag = TagName.serverControl
        guard let v = requireValue(tag, value) else { return }
        scanAttributes(v, tag: tag)
        var control = ServerControl(source: lineSpan)
        for k in attributes.indices {
            let slot = attributes[k]
            switch name(slot) {
            case "CAN-SKIP-UNTIL": control.canSkipUntil = decimalFloat(slot, tag)
            case "CAN-SKIP-DATERANGES": control.canSkipDateRanges = yesNo(slot, tag, onlyYes: true)
            case "HOLD-BACK": control.holdBack = decimalFloat(slot, tag)
            case "PART-HOLD-BACK": control.partHoldBack = decimalFloat(slot, tag)
            case "CAN-BLOCK-RELOAD": control.canBlockReload = yesNo(slot, tag, onlyYes: true)
            default: control.otherAttributes.append(unknownAttribute(slot, tag))
            }
        }
        media.serverControl = control
    }

    mutating func handleSkip(_ value: Range<Int>?) {
        let tag = TagName.skip
        guard let v = requireValue(tag, value) else { return }
        scanAttributes(v, tag: tag)
        var skip = Skip(skippedSegments: 0, source: lineSpan)
        var sawCount = false
        for k in attributes.indices {
            let slot = attributes[k]
            switch name(slot) {
            case "SKIPPED-SEGMENTS":
                skip.skippedSegments = decimalInteger(slot, tag) ?? 0
                sawCount = true
            case "RECENTLY-REMOVED-DATERANGES":
                let text = quotedString(slot, tag)
                skip.recentlyRemovedDateRanges = text.split(separator: "\t", omittingEmptySubsequences: false)
                    .map(String.init)
            default: skip.otherAttributes.append(unknownAttribute(slot, tag))
            }
        }
        if !sawCount { missing("SKIPPED-SEGMENTS", tag) }
        media.skip = skip
    }

    mutating func handlePreloadHint(_ value: Range<Int>?) {
        let tag = TagName.preloadHint
        guard let v = requireValue(tag, value) else { return }
        scanAttributes(v, tag: tag)
        var hint = PreloadHint(type: .part, uri: "", source: lineSpan)
        var sawType = false
        var sawURI = false
        for k in attributes.indices {
            let slot = attributes[k]
            switch name(slot) {
            case "TYPE":
                hint.type = PreloadHintType(
                    rawValue: enumeratedString(slot, tag, allowed: PreloadHintType.known.map(\.rawValue)))
                sawType = true
            case "URI":
                hint.uri = quotedString(slot, tag)
                sawURI = true
            case "BYTERANGE-START": hint.byteRangeStart = decimalInteger(slot, tag)
            case "BYTERANGE-LENGTH": hint.byteRangeLength = decimalInteger(slot, tag)
            default: hint.otherAttributes.append(unknownAttribute(slot, tag))
            }
        }
        if !sawType { missing("TYPE", tag) }
        if !sawURI { missing("URI", tag) }
        media.preloadHints.append(hint)
    }

    mutating func handleRenditionReport(_ value: Range<Int>?) {
        let tag = TagName.renditionReport
        guard let v = requireValue(tag, value) else { return }
        scanAttributes(v, tag: tag)
        var report = RenditionReport(uri: "", source: lineSpan)
        var sawURI = false
        for k in attributes.indices {
            let slot = attributes[k]
            switch name(slot) {
            case "URI":
                report.uri = quotedString(slot, tag)
                sawURI = true
            case "LAST-MSN": report.lastMediaSequenceNumber = decimalInteger(slot, tag)
            case "LAST-PART": report.lastPart = decimalInteger(slot, tag)
            default: report.otherAttributes.append(unknownAttribute(slot, tag))
            }
        }
        if !sawURI { missing("URI", tag) }
        media.renditionReports.append(report)
    }

    // MARK: - Multivariant playlist tags

    mutating func handleMedia(_ value: Range<Int>?) {
        let tag = TagName.media
        guard let v = requireValue(tag, value) else { return }
        scanAttributes(v, tag: tag)
        var rendition = Rendition(type: .audio, groupID: "", name: "", source: lineSpan)
        var saw: Set<String> = []
        for k in attributes.indices {
            let slot = attributes[k]
            let attribute = name(slot)
            saw.insert(attribute)
            switch attribute {
            case "TYPE":
                rendition.type = MediaType(rawValue: enumeratedString(slot, tag, allowed: MediaType.known.map(\.rawValue)))
            case "URI": rendition.uri = quotedString(slot, tag)
            case "GROUP-ID": rendition.groupID = quotedString(slot, tag)
            case "LANGUAGE": rendition.language = quotedString(slot, tag)
            case "ASSOC-LANGUAGE": rendition.associatedLanguage = quotedString(slot, tag)
            case "NAME": rendition.name = quotedString(slot, tag)
            case "STABLE-RENDITION-ID": rendition.stableRenditionID = quotedString(slot, tag)
            case "DEFAULT": rendition.isDefault = yesNo(slot, tag)
            case "AUTOSELECT": rendition.autoselect = yesNo(slot, tag)
            case "FORCED": rendition.forced = yesNo(slot, tag)
            case "INSTREAM-ID": rendition.instreamID = quotedString(slot, tag)
            case "BIT-DEPTH": rendition.bitDepth = decimalInteger(slot, tag)
            case "SAMPLE-RATE": rendition.sampleRate = decimalInteger(slot, tag)
            case "CHARACTERISTICS": rendition.characteristics = quotedString(slot, tag)
            case "CHANNELS": rendition.channels = quotedString(slot, tag)
            default: rendition.otherAttributes.append(unknownAttribute(slot, tag))
            }
        }
        for required in ["TYPE", "GROUP-ID", "NAME"] where !saw.contains(required) { missing(required, tag) }
        multivariant.renditions.append(rendition)
    }

    mutating func handleStreamInf(_ value: Range<Int>?) {
        let tag = TagName.streamInf
        if pendingVariant != nil {
            report(.error, .streamInfWithoutURI, "EXT-X-STREAM-INF is not followed by a URI line",
                   at: pendingVariantLocation, spec: SpecReference.streamInf)
        }
        var variant = Variant(uri: "", bandwidth: 0)
        var sawBandwidth = false
        if let v = value, !v.isEmpty {
            scanAttributes(v, tag: tag)
            for k in attributes.indices {
                let slot = attributes[k]
                switch name(slot) {
                case "BANDWIDTH":
                    variant.bandwidth = decimalInteger(slot, tag) ?? 0
                    sawBandwidth = true
                case "AVERAGE-BANDWIDTH": variant.averageBandwidth = decimalInteger(slot, tag)
                case "SCORE": variant.score = decimalFloat(slot, tag)
                case "CODECS": variant.codecs = quotedString(slot, tag)
                case "SUPPLEMENTAL-CODECS": variant.supplementalCodecs = quotedString(slot, tag)
                case "RESOLUTION": variant.resolution = resolution(slot, tag)
                case "FRAME-RATE": variant.frameRate = decimalFloat(slot, tag)
                case "HDCP-LEVEL":
                    variant.hdcpLevel = HDCPLevel(rawValue: enumeratedString(slot, tag, allowed: HDCPLevel.known.map(\.rawValue)))
                case "ALLOWED-CPC": variant.allowedCPC = quotedString(slot, tag)
                case "VIDEO-RANGE":
                    variant.videoRange = VideoRange(rawValue: enumeratedString(slot, tag, allowed: VideoRange.known.map(\.rawValue)))
                case "REQ-VIDEO-LAYOUT": variant.requiredVideoLayout = quotedString(slot, tag)
                case "STABLE-VARIANT-ID": variant.stableVariantID = quotedString(slot, tag)
                case "AUDIO": variant.audio = quotedString(slot, tag)
                case "VIDEO": variant.video = quotedString(slot, tag)
                case "SUBTITLES": variant.subtitles = quotedString(slot, tag)
                case "CLOSED-CAPTIONS":
                    if !slot.quoted && equalsASCII(slot.valueStart..<slot.valueEnd, "NONE") {
                        variant.closedCaptions = ClosedCaptionsReference.none
                    } else {
                        variant.closedCaptions = .group(quotedString(slot, tag))
                    }
                case "PATHWAY-ID": variant.pathwayID = quotedString(slot, tag)
                case "PROGRAM-ID": variant.programID = decimalInteger(slot, tag)
                default: variant.otherAttributes.append(unknownAttribute(slot, tag))
                }
            }
        }
        if !sawBandwidth {
            report(.error, .streamInfBandwidthMissing, "EXT-X-STREAM-INF lacks BANDWIDTH", at: lineLocation,
                   spec: SpecReference.streamInf)
        }
        pendingVariant = variant
        pendingVariantStart = lineStart
        pendingVariantLocation = lineLocation
    }

    @inline(__always) func equalsASCII(_ range: Range<Int>, _ text: StaticString) -> Bool { buffer.equalsASCII(range, text) }

    mutating func handleIFrameStreamInf(_ value: Range<Int>?) {
        let tag = TagName.iFrameStreamInf
        guard let v = requireValue(tag, value) else { return }
        scanAttributes(v, tag: tag)
        var variant = IFrameVariant(uri: "", bandwidth: 0, source: lineSpan)
        var saw: Set<String> = []
        for k in attributes.indices {
            let slot = attributes[k]
            let attribute = name(slot)
            saw.insert(attribute)
            switch attribute {
            case "URI": variant.uri = quotedString(slot, tag)
            case "BANDWIDTH": variant.bandwidth = decimalInteger(slot, tag) ?? 0
            case "AVERAGE-BANDWIDTH": variant.averageBandwidth = decimalInteger(slot, tag)
            case "SCORE": variant.score = decimalFloat(slot, tag)
            case "CODECS": variant.codecs = quotedString(slot, tag)
            case "SUPPLEMENTAL-CODECS": variant.supplementalCodecs = quotedString(slot, tag)
            case "RESOLUTION": variant.resolution = resolution(slot, tag)
            case "HDCP-LEVEL":
                variant.hdcpLevel = HDCPLevel(rawValue: enumeratedString(slot, tag, allowed: HDCPLevel.known.map(\.rawValue)))
            case "ALLOWED-CPC": variant.allowedCPC = quotedString(slot, tag)
            case "VIDEO-RANGE":
                variant.videoRange = VideoRange(rawValue: enumeratedString(slot, tag, allowed: VideoRange.known.map(\.rawValue)))
            case "REQ-VIDEO-LAYOUT": variant.requiredVideoLayout = quotedString(slot, tag)
            case "STABLE-VARIANT-ID": variant.stableVariantID = quotedString(slot, tag)
            case "VIDEO": variant.video = quotedString(slot, tag)
            case "PATHWAY-ID": variant.pathwayID = quotedString(slot, tag)
            case "PROGRAM-ID": variant.programID = decimalInteger(slot, tag)
            default: variant.otherAttributes.append(unknownAttribute(slot, tag))
            }
        }
        for required in ["BANDWIDTH", "URI"] where !saw.contains(required) { missing(required, tag) }
        multivariant.iFrameVariants.append(variant)
    }

    mutating func handleSessionData(_ value: Range<Int>?) {
        let tag = TagName.sessionData
        guard let v = requireValue(tag, value) else { return }
        scanAttributes(v, tag: tag)
        var data = SessionData(dataID: "", source: lineSpan)
        var sawID = false
        for k in attributes.indices {
            let slot = attributes[k]
            switch name(slot) {
            case "DATA-ID":
                data.dataID = quotedString(slot, tag)
                sawID = true
            case "VALUE": data.value = quotedString(slot, tag)
            case "URI": data.uri = quotedString(slot, tag)
            case "FORMAT":
                data.format = SessionDataFormat(
                    rawValue: enumeratedString(slot, tag, allowed: SessionDataFormat.known.map(\.rawValue)))
            case "LANGUAGE": data.language = quotedString(slot, tag)
            default: data.otherAttributes.append(unknownAttribute(slot, tag))
            }
        }
        if !sawID { missing("DATA-ID", tag) }
        multivariant.sessionData.append(data)
    }

    mutating func handleContentSteering(_ value: Range<Int>?) {
        let tag = TagName.contentSteering
        guard let v = requireValue(tag, value) else { return }
        scanAttributes(v, tag: tag)
        var steering = ContentSteering(serverURI: "", source: lineSpan)
        var sawURI = false
        for k in attributes.indices {
            let slot = attributes[k]
            switch name(slot) {
            case "SERVER-URI":
                steering.serverURI = quotedString(slot, tag)
                sawURI = true
            case "PATHWAY-ID": steering.pathwayID = quotedString(slot, tag)
            default: steering.otherAttributes.append(unknownAttribute(slot, tag))
            }
        }
        if !sawURI { missing("SERVER-URI", tag) }
        multivariant.contentSteering = steering
    }
}
