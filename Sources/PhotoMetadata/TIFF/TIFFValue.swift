/// An unsigned fraction (TIFF RATIONAL), kept as written: `1/120` stays `1/120`, and `0/0` is representable.
public struct Rational: Sendable, Hashable, CustomStringConvertible {
    public var numerator: UInt32
    public var denominator: UInt32
    public init(_ numerator: UInt32, _ denominator: UInt32) {
        self.numerator = numerator
        self.denominator = denominator
    }

    /// The value, or nil when the denominator is 0.
    public var doubleValue: Double? { denominator == 0 ? nil : Double(numerator) / Double(denominator) }
    public var description: String { "\(numerator)/\(denominator)" }
}

/// A signed fraction (TIFF SRATIONAL), kept as written.
public struct SignedRational: Sendable, Hashable, CustomStringConvertible {
    public var numerator: Int32
    public var denominator: Int32
    public init(_ numerator: Int32, _ denominator: Int32) {
        self.numerator = numerator
        self.denominator = denominator
    }

    /// The value, or nil when the denominator is 0.
    public var doubleValue: Double? { denominator == 0 ? nil : Double(numerator) / Double(denominator) }
    public var description: String { "\(numerator)/\(denominator)" }
}

/// The decoded values of one IFD entry, one case per TIFF type.
public enum TIFFValue: Sendable, Hashable {
    case bytes([UInt8])
    /// The strings of an ASCII entry, split at NULs (the last NUL ends the last string; bytes after it without a
    /// NUL make one more string). Invalid UTF-8 is replaced, so use the entry's bytes when they must be exact.
    case ascii([String])
    case shorts([UInt16])
    case longs([UInt32])
    case rationals([Rational])
    case signedBytes([Int8])
    case undefined([UInt8])
    case signedShorts([Int16])
    case signedLongs([Int32])
    case signedRationals([SignedRational])
    case floats([Float])
    case doubles([Double])
    /// IFD offsets (type IFD).
    case ifdOffsets([UInt32])

    /// The first value as an unsigned integer (BYTE, SHORT, LONG, IFD), or nil.
    public var firstInteger: UInt32? {
        switch self {
        case .bytes(let v): v.first.map(UInt32.init)
        case .shorts(let v): v.first.map(UInt32.init)
        case .longs(let v), .ifdOffsets(let v): v.first
        default: nil
        }
    }

    /// The first value as a `Double` (any numeric type; nil for a zero denominator, text or bytes).
    public var firstNumber: Double? {
        switch self {
        case .bytes(let v): v.first.map(Double.init)
        case .shorts(let v): v.first.map(Double.init)
        case .longs(let v), .ifdOffsets(let v): v.first.map(Double.init)
        case .rationals(let v): v.first?.doubleValue
        case .signedBytes(let v): v.first.map(Double.init)
        case .signedShorts(let v): v.first.map(Double.init)
        case .signedLongs(let v): v.first.map(Double.init)
        case .signedRationals(let v): v.first?.doubleValue
        case .floats(let v): v.first.map(Double.init)
        case .doubles(let v): v.first
        case .ascii, .undefined: nil
        }
    }

    /// Every value as a `Double` where the type is numeric (rationals with a zero denominator are nil).
    public var numbers: [Double?] {
        switch self {
        case .bytes(let v): v.map { Double($0) }
        case .shorts(let v): v.map { Double($0) }
        case .longs(let v), .ifdOffsets(let v): v.map { Double($0) }
        case .rationals(let v): v.map(\.doubleValue)
        case .signedBytes(let v): v.map { Double($0) }
        case .signedShorts(let v): v.map { Double($0) }
        case .signedLongs(let v): v.map { Double($0) }
        case .signedRationals(let v): v.map(\.doubleValue)
        case .floats(let v): v.map { Double($0) }
        case .doubles(let v): v.map { $0 }
        case .ascii, .undefined: []
        }
    }

    /// The first string of an ASCII entry with trailing spaces removed, or nil (empty strings are nil too).
    public var text: String? {
        guard case .ascii(let strings) = self, var first = strings.first else { return nil }
        while first.last == " " { first.removeLast() }
        return first.isEmpty ? nil : first
    }
}
