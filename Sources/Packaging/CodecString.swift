/// RFC 6381 `CODECS` strings for the master playlist.
public enum CodecString {
    /// AAC-LC audio (MPEG-4 audio object type 2).
    public static let aacLowComplexity = "mp4a.40.2"

    /// `avc1.PPCCLL` from H.264 parameter sets: profile_idc, the constraint-flag byte and level_idc
    /// of the first sequence parameter set, as six lowercase hex digits (e.g. `avc1.64001f`).
    ///
    /// Accepts an `avcC` record (ISO/IEC 14496-15, as libavcodec stores with a global header), an
    /// Annex B byte stream (start codes, as in MPEG-TS packets) or a bare SPS NAL unit. Returns nil
    /// when no SPS is found.
    public static func avc(parameterSets bytes: [UInt8]) -> String? {
        guard let found = sequenceParameterSet(in: bytes), found.count >= 4 else { return nil }
        let sps = Array(found)
        let hex = sps[1...3].map { byte in
            let digits = Array("0123456789abcdef")
            return String([digits[Int(byte >> 4)], digits[Int(byte & 0x0F)]])
        }
        return "avc1." + hex.joined()
    }

    /// The first SPS NAL unit (header byte included) in `bytes`.
    static func sequenceParameterSet(in bytes: [UInt8]) -> ArraySlice<UInt8>? {
        // avcC: configurationVersion 1, then profile, compatibility, level, lengthSize, numSPS, spsLength, SPS.
        if bytes.count >= 8, bytes[0] == 1, bytes[5] & 0x1F >= 1 {
            let length = Int(bytes[6]) << 8 | Int(bytes[7])
            if bytes.count >= 8 + length, length >= 4, bytes[8] & 0x1F == 7 { return bytes[8..<(8 + length)] }
        }
        // Annex B: 00 00 01 (or 00 00 00 01) before each NAL unit.
        var index = 0
        var found = false
        while index + 3 < bytes.count {
            if bytes[index] == 0, bytes[index + 1] == 0, bytes[index + 2] == 1 {
                found = true
                let start = index + 3
                if bytes[start] & 0x1F == 7 {
                    var end = start + 1
                    while end + 2 < bytes.count, !(bytes[end] == 0 && bytes[end + 1] == 0 && bytes[end + 2] <= 1) {
                        end += 1
                    }
                    if end + 2 >= bytes.count { end = bytes.count }
                    return bytes[start..<end]
                }
                index = start
            } else {
                index += 1
            }
        }
        // A bare NAL unit.
        if !found, let first = bytes.first, first & 0x1F == 7 { return bytes[...] }
        return nil
    }
}
