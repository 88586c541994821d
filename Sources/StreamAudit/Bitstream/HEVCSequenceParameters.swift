/// Parses an H.265 sequence parameter set (ITU-T H.265 §7.3.2.2) as far as the conformance window.
enum HEVCSequenceParameters {
    /// `nalUnit` starts at the two-byte NAL header (type 33). Nil when it is truncated or not an SPS.
    static func parse(_ nalUnit: some Collection<UInt8>) -> VideoParameters? {
        guard let header = nalUnit.first, (header >> 1) & 0x3F == 33, nalUnit.count > 3 else { return nil }
        var reader = BitReader(nalUnit: nalUnit.dropFirst(2))
        reader.skip(4)  // sps_video_parameter_set_id
        let subLayers = Int(reader.bits(3))
        reader.skip(1)  // sps_temporal_id_nesting_flag
        reader.skip(2)  // general_profile_space
        let highTier = reader.bit() == 1
        let profile = Int(reader.bits(5))
        let compatibility = reader.bits(32)
        reader.skip(48)  // progressive/interlaced/constraint flags
        let level = Int(reader.bits(8))
        var profilePresent: [Bool] = []
        var levelPresent: [Bool] = []
        for _ in 0..<subLayers {
            profilePresent.append(reader.bit() == 1)
            levelPresent.append(reader.bit() == 1)
        }
        if subLayers > 0 { reader.skip(2 * (8 - subLayers)) }
        for layer in 0..<subLayers {
            if profilePresent[layer] { reader.skip(88) }
            if levelPresent[layer] { reader.skip(8) }
        }
        _ = reader.unsignedExpGolomb()  // sps_seq_parameter_set_id
        let chromaFormat = reader.unsignedExpGolomb()
        if chromaFormat == 3 { reader.skip(1) }
        var width = Int(reader.unsignedExpGolomb())
        var height = Int(reader.unsignedExpGolomb())
        if reader.bit() == 1 {  // conformance_window_flag
            let unitX = chromaFormat == 1 || chromaFormat == 2 ? 2 : 1
            let unitY = chromaFormat == 1 ? 2 : 1
            let left = Int(reader.unsignedExpGolomb()), right = Int(reader.unsignedExpGolomb())
            let top = Int(reader.unsignedExpGolomb()), bottom = Int(reader.unsignedExpGolomb())
            width -= unitX * (left + right)
            height -= unitY * (top + bottom)
        }
        guard !reader.isExhausted, width > 0, height > 0 else { return nil }
        return VideoParameters(
            codec: .hevc, profile: profile, compatibility: compatibility, level: level, highTier: highTier,
            width: width, height: height)
    }
}
