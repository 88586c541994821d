/// The byte order of a TIFF structure: `II` (Intel, little-endian) or `MM` (Motorola, big-endian), as its first two
/// bytes say. Every multi-byte number in the structure, and in its values, is in this order.
public enum ByteOrder: String, Sendable, Hashable {
    case littleEndian = "II"
    case bigEndian = "MM"

    /// The two marker bytes a TIFF header starts with.
    public var marker: [UInt8] { self == .littleEndian ? [0x49, 0x49] : [0x4D, 0x4D] }

    /// The 16-bit number at `offset`, or nil when it does not fit in `bytes`.
    @inlinable
    public func uint16(_ bytes: [UInt8], at offset: Int) -> UInt16? {
        guard offset >= 0, offset <= bytes.count - 2 else { return nil }
        let a = UInt16(bytes[offset]), b = UInt16(bytes[offset + 1])
        return self == .littleEndian ? a | b << 8 : a << 8 | b
    }

    /// The 32-bit number at `offset`, or nil when it does not fit in `bytes`.
    @inlinable
    public func uint32(_ bytes: [UInt8], at offset: Int) -> UInt32? {
        guard offset >= 0, offset <= bytes.count - 4 else { return nil }
        let a = UInt32(bytes[offset]), b = UInt32(bytes[offset + 1])
        let c = UInt32(bytes[offset + 2]), d = UInt32(bytes[offset + 3])
        return self == .littleEndian ? a | b << 8 | c << 16 | d << 24 : a << 24 | b << 16 | c << 8 | d
    }

    /// The 64-bit number at `offset`, or nil when it does not fit in `bytes`.
    public func uint64(_ bytes: [UInt8], at offset: Int) -> UInt64? {
        guard let first = uint32(bytes, at: offset), let second = uint32(bytes, at: offset + 4) else { return nil }
        return self == .littleEndian ? UInt64(first) | UInt64(second) << 32 : UInt64(first) << 32 | UInt64(second)
    }

    /// `value` as two bytes in this order.
    public func bytes(_ value: UInt16) -> [UInt8] {
        let low = UInt8(value & 0xFF), high = UInt8(value >> 8)
        return self == .littleEndian ? [low, high] : [high, low]
    }

    /// `value` as four bytes in this order.
    public func bytes(_ value: UInt32) -> [UInt8] {
        let b = [UInt8(value & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value >> 16 & 0xFF), UInt8(value >> 24)]
        return self == .littleEndian ? b : b.reversed()
    }
}
