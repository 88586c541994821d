/// Canonical serialisation of every tag; attribute lists are written through their ``AttributeSchema`` (spec order).
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
        /// Every field of `schema` that `element` has, with the other attributes at the schema's position.
        mutating func add<Model>(_ element: Model, _ schema: AttributeSchema<Model>) {
            for index in schema.fields.indices {
                if index == schema.othersPosition { others(element[keyPath: schema.others]) }
                schema.fields[index].write(element, &self)
            }
            if schema.othersPosition == schema.fields.count { others(element[keyPath: schema.others]) }
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
        if segment.mapPrecedesKeys, let map = segment.map { element(map, TagSchemas.map) }
        for key in segment.keys { element(key, TagSchemas.key) }
        if !segment.mapPrecedesKeys, let map = segment.map { element(map, TagSchemas.map) }
        if let date = segment.programDateTime { line("#EXT-X-PROGRAM-DATE-TIME:\(date)") }
        for range in segment.dateRanges { element(range, TagSchemas.dateRange) }
        if segment.gap { line("#EXT-X-GAP") }
        if let bitrate = segment.bitrateKilobitsPerSecond { line("#EXT-X-BITRATE:\(bitrate)") }
        for part in segment.parts { element(part, TagSchemas.part) }
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

    /// `element` copied through from the parsed input (see ``copy(_:from:bytes:)``), or else written through `schema`.
    mutating func copyOrWrite<Model: SourcedElement>(
        _ element: Model, from originals: [Model]?, bytes input: [UInt8], _ schema: AttributeSchema<Model>,
        tag: TagName? = nil
    ) {
        if !copy(element, from: originals, bytes: input) { self.element(element, schema, tag: tag) }
    }

    /// A tag whose value is `element`'s attribute list, written through `schema` (`tag` overrides the schema's).
    mutating func element<Model>(_ element: Model, _ schema: AttributeSchema<Model>, tag: TagName? = nil) {
        var a = Attributes()
        a.add(element, schema)
        self.tag(tag ?? schema.tag, a)
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

    mutating func variant(_ variant: Variant) {
        element(variant, TagSchemas.variant)
        for verbatim in variant.verbatimLines { line(verbatim.text) }
        line(variant.uri)
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
