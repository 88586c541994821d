/// One entry of an IFD: a tag, the type and count of its values, and the value bytes exactly as the source wrote
/// them (in the structure's byte order), so an untouched entry is written back byte for byte.
public struct IFDEntry: Sendable, Hashable {
    public var tag: UInt16
    public var type: TIFFType
    public var count: UInt32
    /// `count × type.elementSize` bytes, in the structure's byte order.
    public var bytes: [UInt8]
    /// Where the value bytes were in the source structure, when they were stored out of line (more than four
    /// bytes); offsets count from the TIFF header.
    public var sourceOffset: Int?

    public init(tag: UInt16, type: TIFFType, count: UInt32, bytes: [UInt8], sourceOffset: Int? = nil) {
        self.tag = tag
        self.type = type
        self.count = count
        self.bytes = bytes
        self.sourceOffset = sourceOffset
    }

    /// A SHORT entry holding `value`.
    public static func short(_ tag: UInt16, _ value: UInt16, order: ByteOrder) -> IFDEntry {
        IFDEntry(tag: tag, type: .short, count: 1, bytes: order.bytes(value))
    }

    /// A LONG entry holding `value`.
    public static func long(_ tag: UInt16, _ value: UInt32, order: ByteOrder) -> IFDEntry {
        IFDEntry(tag: tag, type: .long, count: 1, bytes: order.bytes(value))
    }

    /// An entry holding one whole number: SHORT when it fits (or `preferring` is SHORT-sized), else LONG.
    public static func integer(_ tag: UInt16, _ value: UInt32, preferring type: TIFFType, order: ByteOrder) -> IFDEntry
    {
        type == .short && value <= UInt32(UInt16.max)
            ? short(tag, UInt16(value), order: order) : long(tag, value, order: order)
    }

    /// The values decoded in `order`, or nil when the type is unknown or the bytes do not match the count.
    public func value(_ order: ByteOrder) -> TIFFValue? {
        guard let size = type.elementSize, bytes.count == Int(count) * size else { return nil }
        let n = Int(count)
        func map<T>(_ element: (Int) -> T?) -> [T] { (0..<n).compactMap { element($0 * size) } }
        switch type.rawValue {
        case 1: return .bytes(bytes)
        case 2: return .ascii(Self.strings(bytes))
        case 3: return .shorts(map { order.uint16(bytes, at: $0) })
        case 4: return .longs(map { order.uint32(bytes, at: $0) })
        case 5:
            return .rationals(
                map { o in
                    guard let a = order.uint32(bytes, at: o), let b = order.uint32(bytes, at: o + 4) else { return nil }
                    return Rational(a, b)
                })
        case 6: return .signedBytes(bytes.map { Int8(bitPattern: $0) })
        case 7: return .undefined(bytes)
        case 8: return .signedShorts(map { order.uint16(bytes, at: $0).map { Int16(bitPattern: $0) } })
        case 9: return .signedLongs(map { order.uint32(bytes, at: $0).map { Int32(bitPattern: $0) } })
        case 10:
            return .signedRationals(
                map { o in
                    guard let a = order.uint32(bytes, at: o), let b = order.uint32(bytes, at: o + 4) else { return nil }
                    return SignedRational(Int32(bitPattern: a), Int32(bitPattern: b))
                })
        case 11: return .floats(map { order.uint32(bytes, at: $0).map { Float(bitPattern: $0) } })
        case 12: return .doubles(map { order.uint64(bytes, at: $0).map { Double(bitPattern: $0) } })
        case 13: return .ifdOffsets(map { order.uint32(bytes, at: $0) })
        default: return nil
        }
    }

    /// The NUL-separated strings of ASCII bytes.
    static func strings(_ bytes: [UInt8]) -> [String] {
        var parts = bytes.split(separator: 0, omittingEmptySubsequences: false).map {
            String(decoding: $0, as: UTF8.self)
        }
        if bytes.last == 0 { parts.removeLast() }
        return parts
    }
}
