/// The type of an IFD entry's values (TIFF 6.0 §2, plus the IFD type of TIFF Technical Note 1). Unknown types are
/// representable (a reader must skip them), but their size is unknown, so their values cannot be located.
public struct TIFFType: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
    public var rawValue: UInt16
    public init(rawValue: UInt16) { self.rawValue = rawValue }

    public static let byte = TIFFType(rawValue: 1)
    /// 7-bit ASCII, each string ended by a NUL.
    public static let ascii = TIFFType(rawValue: 2)
    public static let short = TIFFType(rawValue: 3)
    public static let long = TIFFType(rawValue: 4)
    /// Two LONGs: numerator, denominator.
    public static let rational = TIFFType(rawValue: 5)
    public static let sbyte = TIFFType(rawValue: 6)
    /// Bytes whose meaning the tag defines (e.g. `ExifVersion`, `MakerNote`).
    public static let undefined = TIFFType(rawValue: 7)
    public static let sshort = TIFFType(rawValue: 8)
    public static let slong = TIFFType(rawValue: 9)
    /// Two SLONGs: numerator, denominator.
    public static let srational = TIFFType(rawValue: 10)
    public static let float = TIFFType(rawValue: 11)
    public static let double = TIFFType(rawValue: 12)
    /// A LONG that is the offset of an IFD.
    public static let ifd = TIFFType(rawValue: 13)

    /// Bytes per value, or nil for a type this reader does not know (BigTIFF's 8-byte types included).
    public var elementSize: Int? {
        switch rawValue {
        case 1, 2, 6, 7: 1
        case 3, 8: 2
        case 4, 9, 11, 13: 4
        case 5, 10, 12: 8
        default: nil
        }
    }

    public var description: String {
        switch rawValue {
        case 1: "BYTE"
        case 2: "ASCII"
        case 3: "SHORT"
        case 4: "LONG"
        case 5: "RATIONAL"
        case 6: "SBYTE"
        case 7: "UNDEFINED"
        case 8: "SSHORT"
        case 9: "SLONG"
        case 10: "SRATIONAL"
        case 11: "FLOAT"
        case 12: "DOUBLE"
        case 13: "IFD"
        default: "type \(rawValue)"
        }
    }
}
