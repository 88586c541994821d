import Notation

/// A tag's attribute list described as data: each attribute's wire name, value type, whether the tag requires
/// it and which model field holds it. The parser reads attribute lists through it and the writer writes them
/// back through it, so the two cannot disagree about a name, a type or the order attributes are written in.
///
/// ```swift
/// static let map = AttributeSchema<Map>(.map, required: ["URI"], others: \.otherAttributes, [
///     .quoted("URI", \.uri),
///     .byteRange("BYTERANGE", \.byteRange),
/// ])
/// ```
/// Not described here: EXT-X-DEFINE (exactly one of three names decides what the others mean) and the tags
/// whose value is not an attribute list.
struct AttributeSchema<Model>: Sendable {
    let tag: TagName
    /// The named attributes, in the order the writer writes them (the spec's order).
    let fields: [AttributeField<Model>]
    /// The indices in `fields` of the attributes the tag requires, in the order their absence is reported.
    let required: [Int]
    /// Where attributes without a field are kept (in written order) so they round-trip.
    let others: WritableKeyPath<Model, [Attribute]> & Sendable
    /// The writer writes the other attributes before `fields[othersPosition]` (after all fields by default).
    let othersPosition: Int
    /// True when `X-` names are client attributes (EXT-X-DATERANGE): kept without a note.
    let acceptsClientAttributes: Bool

    init(
        _ tag: TagName, required: [String] = [], others: WritableKeyPath<Model, [Attribute]> & Sendable,
        othersPosition: Int? = nil, acceptsClientAttributes: Bool = false, _ fields: [AttributeField<Model>]
    ) {
        precondition(fields.count <= 64, "a schema tracks which fields it saw in one 64-bit word")
        self.tag = tag
        self.fields = fields
        self.required = required.map { name in
            guard let index = fields.firstIndex(where: { $0.name == name }) else {
                preconditionFailure("\(name) is required but not a field of \(tag.rawValue)")
            }
            return index
        }
        self.others = others
        self.othersPosition = othersPosition ?? fields.count
        self.acceptsClientAttributes = acceptsClientAttributes
    }

    /// The index of the field named `bytes[range]`, or nil; compares bytes, builds no String.
    func fieldIndex(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> Int? {
        for index in fields.indices where fields[index].nameBytes.count == range.count {
            let matches = fields[index].nameBytes.withUnsafeBufferPointer { name in
                var k = 0
                while k < name.count && name[k] == bytes[range.lowerBound &+ k] { k &+= 1 }
                return k == name.count
            }
            if matches { return index }
        }
        return nil
    }
}

/// One attribute of an ``AttributeSchema``: how the parser reads it into the model and how the writer writes it.
///
/// Built with the factories below, one per attribute value type of RFC 8216bis §4.2. An optional model field is
/// left nil when the attribute is absent and is not written when nil; a non-optional one keeps the blank
/// model's value when the attribute is absent (or invalid) and is always written.
struct AttributeField<Model>: Sendable {
    let name: String
    let nameBytes: [UInt8]
    let read: @Sendable (inout PlaylistParser, AttributeSlot, TagName, inout Model) -> Void
    let write: @Sendable (Model, inout TextOutput.Attributes) -> Void

    init(
        _ name: String,
        read: @escaping @Sendable (inout PlaylistParser, AttributeSlot, TagName, inout Model) -> Void,
        write: @escaping @Sendable (Model, inout TextOutput.Attributes) -> Void
    ) {
        self.name = name
        self.nameBytes = Array(name.utf8)
        self.read = read
        self.write = write
    }

    typealias Path<Value> = WritableKeyPath<Model, Value> & Sendable

    // MARK: - quoted-string

    static func quoted(_ name: String, _ field: Path<String>) -> Self {
        Self(
            name, read: { p, slot, tag, m in m[keyPath: field] = p.quotedString(slot, tag) },
            write: { m, a in a.quoted(name, m[keyPath: field]) })
    }

    static func quoted(_ name: String, _ field: Path<String?>) -> Self {
        Self(
            name, read: { p, slot, tag, m in m[keyPath: field] = p.quotedString(slot, tag) },
            write: { m, a in a.quoted(name, m[keyPath: field]) })
    }

    /// A quoted `length[@offset]`.
    static func byteRange(_ name: String, _ field: Path<ByteRange?>) -> Self {
        Self(
            name, read: { p, slot, tag, m in m[keyPath: field] = p.quotedByteRange(slot, tag) },
            write: { m, a in a.quoted(name, m[keyPath: field]?.description) })
    }

    /// A quoted ISO 8601 date-time (variables substituted before it is read).
    static func dateTime(_ name: String, _ field: Path<DateTime?>) -> Self {
        Self(
            name,
            read: { p, slot, tag, m in
                let text = p.quotedString(slot, tag)
                m[keyPath: field] = p.dateTime(text, what: "\(name) of \(tag.rawValue)", at: p.valueLocation(slot))
            },
            write: { m, a in a.quoted(name, m[keyPath: field]?.description) })
    }

    // MARK: - Numbers

    static func integer(_ name: String, _ field: Path<Int>) -> Self {
        Self(
            name, read: { p, slot, tag, m in m[keyPath: field] = p.decimalInteger(slot, tag) ?? 0 },
            write: { m, a in a.integer(name, m[keyPath: field]) })
    }

    static func integer(_ name: String, _ field: Path<Int?>) -> Self {
        Self(
            name, read: { p, slot, tag, m in m[keyPath: field] = p.decimalInteger(slot, tag) },
            write: { m, a in a.integer(name, m[keyPath: field]) })
    }

    /// A decimal-floating-point, or a signed-decimal-floating-point when `signed`.
    static func decimal(_ name: String, _ field: Path<Double>, signed: Bool = false) -> Self {
        Self(
            name,
            read: { p, slot, tag, m in m[keyPath: field] = p.decimalFloat(slot, tag, signed: signed) ?? 0 },
            write: { m, a in a.decimal(name, m[keyPath: field]) })
    }

    static func decimal(_ name: String, _ field: Path<Double?>) -> Self {
        Self(
            name, read: { p, slot, tag, m in m[keyPath: field] = p.decimalFloat(slot, tag) },
            write: { m, a in a.decimal(name, m[keyPath: field]) })
    }

    static func resolution(_ name: String, _ field: Path<Resolution?>) -> Self {
        Self(
            name, read: { p, slot, tag, m in m[keyPath: field] = p.resolution(slot, tag) },
            write: { m, a in a.enumerated(name, m[keyPath: field]?.description) })
    }

    static func hexadecimal(_ name: String, _ field: Path<HexadecimalSequence?>) -> Self {
        Self(
            name, read: { p, slot, tag, m in m[keyPath: field] = p.hexadecimal(slot, tag) },
            write: { m, a in a.hex(name, m[keyPath: field]) })
    }

    // MARK: - enumerated-string

    static func enumerated<Value: EnumeratedString>(_ name: String, _ field: Path<Value>) -> Self {
        Self(
            name, read: { p, slot, tag, m in m[keyPath: field] = p.enumerated(slot, tag) },
            write: { m, a in a.enumerated(name, m[keyPath: field].rawValue) })
    }

    static func enumerated<Value: EnumeratedString>(_ name: String, _ field: Path<Value?>) -> Self {
        Self(
            name, read: { p, slot, tag, m in m[keyPath: field] = p.enumerated(slot, tag) as Value },
            write: { m, a in a.enumerated(name, m[keyPath: field]?.rawValue) })
    }

    /// `YES` or `NO` (or only `YES` when `onlyYes`) as a Bool; written only when true.
    static func flag(_ name: String, _ field: Path<Bool>, onlyYes: Bool = false) -> Self {
        Self(
            name,
            read: { p, slot, tag, m in m[keyPath: field] = p.yesNo(slot, tag, onlyYes: onlyYes) },
            write: { m, a in a.yes(name, m[keyPath: field]) })
    }
}

/// An enumerated-string attribute value type with the values the spec defines (``MediaType``, ``VideoRange``…).
protocol EnumeratedString: Sendable {
    var rawValue: String { get }
    init(rawValue: String)
    static var known: [Self] { get }
}

extension MediaType: EnumeratedString {}
extension EncryptionMethod: EnumeratedString {}
extension HDCPLevel: EnumeratedString {}
extension VideoRange: EnumeratedString {}
extension PlaylistType: EnumeratedString {}
extension SessionDataFormat: EnumeratedString {}
extension PreloadHintType: EnumeratedString {}
