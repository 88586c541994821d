/// Reads bits, most significant first, from a NAL unit's payload with its emulation-prevention bytes removed
/// (H.264 §7.3.1, H.265 §7.3.1.1). Reading past the end yields zeros and sets `isExhausted`, so a truncated
/// parameter set gives a result that callers can refuse instead of a trap.
struct BitReader {
    private let bytes: [UInt8]
    private var bitOffset = 0
    private(set) var isExhausted = false

    /// `payload` is the NAL unit without its start code, emulation-prevention bytes still in place.
    init(nalUnit payload: some Collection<UInt8>) {
        var cleaned: [UInt8] = []
        cleaned.reserveCapacity(payload.count)
        var zeros = 0
        for byte in payload {
            if zeros >= 2 && byte == 3 {
                zeros = 0
                continue
            }
            zeros = byte == 0 ? zeros + 1 : 0
            cleaned.append(byte)
        }
        bytes = cleaned
    }

    mutating func bit() -> UInt32 {
        let index = bitOffset >> 3
        guard index < bytes.count else {
            isExhausted = true
            return 0
        }
        let value = (bytes[index] >> (7 - UInt8(bitOffset & 7))) & 1
        bitOffset += 1
        return UInt32(value)
    }

    /// `count` bits (at most 32) as an unsigned number.
    mutating func bits(_ count: Int) -> UInt32 {
        var value: UInt32 = 0
        for _ in 0..<count { value = (value << 1) | bit() }
        return value
    }

    mutating func skip(_ count: Int) { for _ in 0..<count { _ = bit() } }

    /// ue(v): unsigned Exp-Golomb.
    mutating func unsignedExpGolomb() -> UInt32 {
        var leadingZeros = 0
        while bit() == 0 {
            leadingZeros += 1
            if leadingZeros > 31 || isExhausted {
                isExhausted = true
                return 0
            }
        }
        if leadingZeros == 0 { return 0 }
        return (UInt32(1) << UInt32(leadingZeros)) - 1 + bits(leadingZeros)
    }

    /// se(v): signed Exp-Golomb.
    mutating func signedExpGolomb() -> Int32 {
        let code = unsignedExpGolomb()
        let magnitude = Int32(truncatingIfNeeded: (code + 1) >> 1)
        return code & 1 == 1 ? magnitude : -magnitude
    }
}
