/// PNG chunks written here from the PNG standard's definitions, so that tests of the PNG reader and writer do
/// not check the code with itself: a chunk is the data's length (4 bytes, big-endian), the 4-letter type, the
/// data, and the CRC-32 of type and data.
public enum PNGTestChunk {
    /// `type` and `data` as a chunk; `crc` in place of the right checksum makes a damaged one.
    public static func chunk(_ type: String, _ data: [UInt8], crc: UInt32? = nil) -> [UInt8] {
        let body = Array(type.utf8) + data
        return bigEndian(UInt32(data.count)) + body + bigEndian(crc ?? checksum(body))
    }

    /// The CRC-32 of PNG chunks, bit by bit from its definition (polynomial 0xEDB88320 reflected, initial value
    /// and final XOR 0xFFFFFFFF).
    public static func checksum(_ bytes: [UInt8]) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes {
            crc ^= UInt32(byte)
            for _ in 0..<8 { crc = (crc >> 1) ^ (crc & 1 == 1 ? 0xEDB8_8320 : 0) }
        }
        return ~crc
    }

    /// A 4-byte big-endian field (PNG's byte order).
    public static func bigEndian(_ value: UInt32) -> [UInt8] {
        [
            UInt8(value >> 24), UInt8(truncatingIfNeeded: value >> 16), UInt8(truncatingIfNeeded: value >> 8),
            UInt8(truncatingIfNeeded: value),
        ]
    }
}
