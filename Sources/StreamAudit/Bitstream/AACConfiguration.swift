/// The MPEG-4 audio object type (the `x` of `mp4a.40.x`) from an AAC stream's own headers.
public enum AACConfiguration {
    /// From an ADTS frame header (MPEG-TS carries AAC as ADTS): profile + 1.
    public static func objectType(adtsFrame bytes: UnsafeRawBufferPointer) -> Int? {
        guard bytes.count >= 7, bytes[0] == 0xFF, bytes[1] & 0xF0 == 0xF0 else { return nil }
        return Int(bytes[2] >> 6) + 1
    }

    /// From an AudioSpecificConfig (MP4's esds, libav's extradata): the first five bits, 31 escaping to 32 + six.
    public static func objectType(audioSpecificConfig bytes: [UInt8]) -> Int? {
        guard let first = bytes.first else { return nil }
        let type = Int(first >> 3)
        if type == 31, bytes.count > 1 { return 32 + Int((first & 7) << 3 | bytes[1] >> 5) }
        return type
    }
}
