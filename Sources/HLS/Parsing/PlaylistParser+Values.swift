import Notation

/// Attribute lists (RFC 8216bis §4.2) and the typed value readers: decimal-integer, decimal-floating-point,
/// hexadecimal-sequence, quoted-string, enumerated-string, decimal-resolution, dates and byte ranges.
extension PlaylistParser {
    // MARK: - Attribute lists

    /// Splits `range` into attribute slots (in `attributes`), reporting syntax errors with their column.
    /// Lenient: a bad attribute is skipped up to the next comma; an unterminated quote takes the rest of the line.
    mutating func scanAttributes(_ range: Range<Int>, tag: TagName) {
        attributes.removeAll(keepingCapacity: true)
        var i = range.lowerBound
        let end = range.upperBound
        if i == end { return }
        let spec = SpecReference.attributeLists
        while i < end {
            // Leading whitespace.
            if buffer[i] == 0x20 || buffer[i] == 0x09 {
                report(
                    .error, .attributeWhitespace, "whitespace in the attribute list of \(tag.rawValue)",
                    at: location(i), spec: spec)
                while i < end && (buffer[i] == 0x20 || buffer[i] == 0x09) { i += 1 }
                if i == end { break }
            }
            if buffer[i] == UInt8(ascii: ",") {
                report(
                    .error, .emptyAttribute, "empty attribute before a comma in \(tag.rawValue)",
                    at: location(i), spec: spec)
                i += 1
                continue
            }
            // Name.
            let nameStart = i
            var badName = false
            while i < end {
                let b = buffer[i]
                if b == UInt8(ascii: "=") || b == UInt8(ascii: ",") { break }
                if b == 0x20 || b == 0x09 { break }
                let valid = (b >= 0x41 && b <= 0x5A) || (b >= 0x30 && b <= 0x39) || b == UInt8(ascii: "-")
                if !valid { badName = true }
                i += 1
            }
            let nameEnd = i
            if badName {
                report(
                    .error, .invalidAttributeName,
                    "attribute name \"\(string(nameStart..<nameEnd))\" has characters outside A-Z, 0-9 and -",
                    at: location(nameStart), spec: spec)
            }
            while i < end && (buffer[i] == 0x20 || buffer[i] == 0x09) {
                report(
                    .error, .attributeWhitespace, "whitespace in the attribute list of \(tag.rawValue)",
                    at: location(i), spec: spec)
                while i < end && (buffer[i] == 0x20 || buffer[i] == 0x09) { i += 1 }
            }
            guard i < end, buffer[i] == UInt8(ascii: "=") else {
                report(
                    .error, .attributeMissingEquals,
                    "attribute \"\(string(nameStart..<nameEnd))\" of \(tag.rawValue) has no value",
                    at: location(nameStart), spec: spec)
                while i < end && buffer[i] != UInt8(ascii: ",") { i += 1 }
                i += 1
                continue
            }
            i += 1  // '='
            if i < end && (buffer[i] == 0x20 || buffer[i] == 0x09) {
                report(
                    .error, .attributeWhitespace, "whitespace in the attribute list of \(tag.rawValue)",
                    at: location(i), spec: spec)
                while i < end && (buffer[i] == 0x20 || buffer[i] == 0x09) { i += 1 }
            }
            var slot = AttributeSlot(nameStart: nameStart, nameEnd: nameEnd, valueStart: i, valueEnd: i, quoted: false)
            if i < end && buffer[i] == UInt8(ascii: "\"") {
                let quote = i
                i += 1
                slot.valueStart = i
                while i < end && buffer[i] != UInt8(ascii: "\"") { i += 1 }
                slot.quoted = true
                slot.valueEnd = i
                if i == end {
                    report(
                        .error, .unterminatedQuote,
                        "quoted string of \(string(nameStart..<nameEnd)) in \(tag.rawValue) is not terminated",
                        at: location(quote), spec: spec)
                } else {
                    i += 1  // closing quote
                    if i < end && buffer[i] != UInt8(ascii: ",") {
                        let junk = i
                        while i < end && buffer[i] != UInt8(ascii: ",") { i += 1 }
                        var onlySpace = true
                        for j in junk..<i where buffer[j] != 0x20 && buffer[j] != 0x09 { onlySpace = false }
                        if onlySpace {
                            report(
                                .error, .attributeWhitespace, "whitespace in the attribute list of \(tag.rawValue)",
                                at: location(junk), spec: spec)
                        } else {
                            report(
                                .error, .trailingCharacters,
                                "characters after the closing quote of \(string(nameStart..<nameEnd))",
                                at: location(junk), spec: spec)
                        }
                    }
                }
            } else {
                while i < end && buffer[i] != UInt8(ascii: ",") { i += 1 }
                var valueEnd = i
                while valueEnd > slot.valueStart && (buffer[valueEnd - 1] == 0x20 || buffer[valueEnd - 1] == 0x09) {
                    valueEnd -= 1
                }
                if valueEnd != i {
                    report(
                        .error, .attributeWhitespace, "whitespace in the attribute list of \(tag.rawValue)",
                        at: location(valueEnd), spec: spec)
                }
                slot.valueEnd = valueEnd
            }
            // Duplicate names.
            for other in attributes where equalBytes(other.nameStart..<other.nameEnd, nameStart..<nameEnd) {
                report(
                    .error, .duplicateAttribute,
                    "attribute \(string(nameStart..<nameEnd)) appears twice in \(tag.rawValue)",
                    at: location(nameStart), spec: spec)
                break
            }
            attributes.append(slot)
            if i < end && buffer[i] == UInt8(ascii: ",") {
                i += 1
                if i == end {
                    report(
                        .error, .emptyAttribute, "trailing comma in \(tag.rawValue)", at: location(i - 1), spec: spec)
                }
            }
        }
    }

    @inline(__always) func equalBytes(_ a: Range<Int>, _ b: Range<Int>) -> Bool { buffer.equalBytes(a, b) }

    @inline(__always) func name(_ slot: AttributeSlot) -> String { string(slot.nameStart..<slot.nameEnd) }

    static func text(_ buffer: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> String {
        String(decoding: UnsafeBufferPointer(rebasing: buffer[range]), as: UTF8.self)
    }

    @inline(__always)
    func valueLocation(_ slot: AttributeSlot) -> SourceLocation {
        location(slot.quoted ? slot.valueStart - 1 : slot.valueStart)
    }

    /// The attribute kept as written, for ``Attribute`` lists.
    mutating func otherAttribute(_ slot: AttributeSlot) -> Attribute {
        let value: Attribute.Value =
            slot.quoted
            ? .quotedString(substitutedString(slot.valueStart..<slot.valueEnd, at: location(slot.valueStart)))
            : .unquoted(string(slot.valueStart..<slot.valueEnd))
        return Attribute(name: name(slot), value: value)
    }

    // MARK: - Typed attribute values

    /// A quoted-string (variables substituted). Unquoted input is reported and read as written.
    mutating func quotedString(_ slot: AttributeSlot, _ tag: TagName) -> String {
        if !slot.quoted {
            report(
                .error, .expectedQuotedString,
                "\(name(slot)) of \(tag.rawValue) must be a quoted string", at: valueLocation(slot),
                spec: SpecReference.attributeLists)
        }
        return substitutedString(slot.valueStart..<slot.valueEnd, at: location(slot.valueStart))
    }

    /// An unquoted value: quoted input is reported and read anyway.
    mutating func checkUnquoted(_ slot: AttributeSlot, _ tag: TagName, _ what: String) {
        if slot.quoted {
            report(
                .error, .unexpectedQuotedString,
                "\(name(slot)) of \(tag.rawValue) must be \(what), not a quoted string", at: valueLocation(slot),
                spec: SpecReference.attributeLists)
        }
    }

    mutating func decimalInteger(_ slot: AttributeSlot, _ tag: TagName) -> Int? {
        checkUnquoted(slot, tag, "a decimal-integer")
        return decimalInteger(slot.valueStart..<slot.valueEnd, tag: tag, attribute: slot.nameStart..<slot.nameEnd)
    }

    mutating func decimalFloat(_ slot: AttributeSlot, _ tag: TagName, signed: Bool = false) -> Double? {
        checkUnquoted(slot, tag, "a decimal-floating-point")
        return decimalFloat(
            slot.valueStart..<slot.valueEnd, signed: signed, tag: tag, attribute: slot.nameStart..<slot.nameEnd)
    }

    mutating func enumeratedString(_ slot: AttributeSlot, _ tag: TagName, allowed: [String]) -> String {
        checkUnquoted(slot, tag, "an enumerated-string")
        let value = string(slot.valueStart..<slot.valueEnd)
        if !allowed.contains(value) {
            report(
                .error, .invalidEnumeratedString,
                "\(name(slot)) of \(tag.rawValue) is \"\(value)\"; expected one of \(allowed.joined(separator: ", "))",
                at: valueLocation(slot), spec: SpecReference.section(for: tag))
        }
        return value
    }

    /// An enumerated-string of type `Value`; values the spec does not define are reported and kept.
    mutating func enumerated<Value: EnumeratedString>(_ slot: AttributeSlot, _ tag: TagName) -> Value {
        Value(rawValue: enumeratedString(slot, tag, allowed: Value.known.map(\.rawValue)))
    }

    /// YES/NO enumerated-string as a Bool (anything but YES is false).
    mutating func yesNo(_ slot: AttributeSlot, _ tag: TagName, onlyYes: Bool = false) -> Bool {
        enumeratedString(slot, tag, allowed: onlyYes ? ["YES"] : ["YES", "NO"]) == "YES"
    }

    mutating func resolution(_ slot: AttributeSlot, _ tag: TagName) -> Resolution? {
        checkUnquoted(slot, tag, "a decimal-resolution")
        var x = slot.valueStart
        while x < slot.valueEnd && buffer[x] != UInt8(ascii: "x") { x += 1 }
        if x < slot.valueEnd, x > slot.valueStart, x + 1 < slot.valueEnd,
            let width = plainDigits(slot.valueStart..<x), let height = plainDigits(x + 1..<slot.valueEnd)
        {
            return Resolution(width: width, height: height)
        }
        report(
            .error, .invalidResolution,
            "\(name(slot)) of \(tag.rawValue) is \"\(string(slot.valueStart..<slot.valueEnd))\", not WIDTHxHEIGHT",
            at: valueLocation(slot), spec: SpecReference.attributeLists)
        return nil
    }

    mutating func hexadecimal(_ slot: AttributeSlot, _ tag: TagName) -> HexadecimalSequence? {
        checkUnquoted(slot, tag, "a hexadecimal-sequence")
        let at = valueLocation(slot)
        let range = slot.valueStart..<slot.valueEnd
        if containsVariableReference(range) {
            let text = substitutedString(range, at: at)
            return hexadecimal(Array(text.utf8), what: "\(name(slot)) of \(tag.rawValue)", at: at)
        }
        return hexadecimal(Array(buffer[range]), what: "\(name(slot)) of \(tag.rawValue)", at: at)
    }

    mutating func hexadecimal(_ text: [UInt8], what: String, at location: SourceLocation) -> HexadecimalSequence? {
        guard text.count > 2, text[0] == UInt8(ascii: "0"), text[1] == UInt8(ascii: "x") || text[1] == UInt8(ascii: "X")
        else {
            report(
                .error, .invalidHexadecimal, "\(what) is not a hexadecimal-sequence (0x…)", at: location,
                spec: SpecReference.attributeLists)
            return nil
        }
        if text[1] == UInt8(ascii: "X") {
            // RFC 8216bis allows 0x or 0X.
        }
        var nibbles: [UInt8] = []
        nibbles.reserveCapacity(text.count - 2)
        var lower = false
        for b in text[2...] {
            switch b {
            case 0x30...0x39: nibbles.append(b - 0x30)
            case 0x41...0x46: nibbles.append(b - 0x41 + 10)
            case 0x61...0x66:
                nibbles.append(b - 0x61 + 10)
                lower = true
            default:
                report(
                    .error, .invalidHexadecimal, "\(what) has a character that is not a hex digit", at: location,
                    spec: SpecReference.attributeLists)
                return nil
            }
        }
        if lower {
            report(
                .warning, .lowercaseHexadecimal,
                "\(what) uses lower-case hex digits (the grammar allows 0-9 and A-F only)", at: location,
                spec: SpecReference.attributeLists)
        }
        if nibbles.count % 2 == 1 { nibbles.insert(0, at: 0) }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(nibbles.count / 2)
        var k = 0
        while k < nibbles.count {
            bytes.append(nibbles[k] << 4 | nibbles[k + 1])
            k += 2
        }
        return HexadecimalSequence(bytes: bytes)
    }

    // MARK: - Numbers

    /// Digits only, no sign; nil on anything else or overflow (no diagnostic).
    @inline(__always) func plainDigits(_ range: Range<Int>) -> Int? { buffer.plainDigits(range) }

    /// A decimal-integer (unsigned, at most 2^63-1 here), reporting what is wrong with it and then reading it
    /// leniently (``LenientValue``): a decimal is cut to its whole part, or rounded up when `roundingUp`.
    /// `attribute` is the range of the attribute's name, nil for a tag's own value.
    mutating func decimalInteger(
        _ range: Range<Int>, tag: TagName, attribute: Range<Int>? = nil, roundingUp: Bool = false
    ) -> Int? {
        if let value = plainDigits(range) { return value }
        let text = string(range)
        let at = location(range.lowerBound)
        let what = attribute.map { "\(string($0)) of \(tag.rawValue)" } ?? tag.rawValue
        if range.isEmpty {
            report(
                .error, .invalidDecimalInteger, "\(what) is empty; expected a decimal-integer", at: at,
                spec: SpecReference.attributeLists)
            return nil
        } else if buffer[range.lowerBound] == UInt8(ascii: "-"), range.count > 1,
            plainDigits(range.lowerBound + 1..<range.upperBound) != nil
        {
            report(
                .error, .negativeDecimalInteger, "\(what) is \(text); a decimal-integer cannot be negative", at: at,
                spec: SpecReference.attributeLists)
        } else if range.allSatisfy({ buffer[$0] &- 0x30 <= 9 }) {
            report(
                .error, .decimalIntegerOverflow, "\(what) is \(text), too large", at: at,
                spec: SpecReference.attributeLists)
            return nil
        } else {
            report(
                .error, .invalidDecimalInteger, "\(what) is \"\(text)\", not a decimal-integer", at: at,
                spec: SpecReference.attributeLists)
        }
        var value: Int?
        if let decimal = buffer.lenientDecimal(range) {
            let whole = roundingUp ? decimal.rounded(.up) : decimal.rounded(.towardZero)
            if abs(whole) < 0x1p62 { value = Int(whole) }
        }
        noteLenient(range, tag: tag, attribute: attribute, value: value.map(LenientValue.Number.integer))
        return value
    }

    static let powersOfTen: [Double] = (0...22).map { (0..<$0).reduce(1.0) { r, _ in r * 10 } }

    /// digits[.digits] without diagnostics; nil when the text is not of that shape.
    @inline(__always) func plainDecimal(_ range: Range<Int>) -> Double? { buffer.plainDecimal(range) }

    /// A decimal-floating-point (or signed-decimal-floating-point), reporting what is wrong with it and then
    /// reading it leniently (``LenientValue``).
    mutating func decimalFloat(_ range: Range<Int>, signed: Bool, tag: TagName, attribute: Range<Int>?) -> Double? {
        if let value = plainDecimal(range) { return value }
        let negative = !range.isEmpty && buffer[range.lowerBound] == UInt8(ascii: "-")
        if negative, let magnitude = plainDecimal(range.lowerBound + 1..<range.upperBound), signed { return -magnitude }
        let what = attribute.map { "\(string($0)) of \(tag.rawValue)" } ?? tag.rawValue
        let at = location(range.lowerBound)
        if negative, plainDecimal(range.lowerBound + 1..<range.upperBound) != nil {
            report(.error, .negativeFloat, "\(what) is negative", at: at, spec: SpecReference.attributeLists)
        } else {
            report(
                .error, .invalidFloat, "\(what) is \"\(string(range))\", not a decimal-floating-point", at: at,
                spec: SpecReference.attributeLists)
        }
        let value = buffer.lenientDecimal(range)
        noteLenient(range, tag: tag, attribute: attribute, value: value.map(LenientValue.Number.decimal))
        return value
    }

    /// Records a number read from text its grammar refuses (its error is reported by the caller).
    mutating func noteLenient(
        _ range: Range<Int>, tag: TagName, attribute: Range<Int>?, value: LenientValue.Number?
    ) {
        if stopped { return }
        info.lenientValues.append(
            LenientValue(
                location: location(range.lowerBound), tag: tag, attribute: attribute.map { string($0) },
                written: string(range), value: value, segmentIndex: tag.isMediaSegmentTag ? currentIndex : nil))
    }

    // MARK: - Byte ranges and dates

    /// `length[@offset]`.
    mutating func byteRange(_ range: Range<Int>, what: @autoclosure () -> String, at: SourceLocation) -> ByteRange? {
        if let value = buffer.byteRange(range) { return value }
        report(
            .error, .invalidByteRange, "\(what()) is \"\(string(range))\", not length[@offset]", at: at,
            spec: SpecReference.byteRange)
        return nil
    }

    /// ISO 8601 `YYYY-MM-DDThh:mm:ss[.f…](Z|±hh:mm|±hhmm|±hh)`; a missing zone is read as UTC (and reported).
    mutating func dateTime(_ range: Range<Int>, what: @autoclosure () -> String, at: SourceLocation) -> DateTime? {
        if let value = parseDateTime(range) { return value }
        report(
            .error, .invalidDateTime, "\(what()) is \"\(string(range))\", not an ISO 8601 date-time", at: at,
            spec: SpecReference.programDateTime)
        return nil
    }

    @inline(__always) func parseDateTime(_ range: Range<Int>) -> DateTime? { buffer.parseDateTime(range) }
}
