/// Parses an H.264 sequence parameter set (ITU-T H.264 §7.3.2.1.1) as far as the VUI timing information.
enum H264SequenceParameters {
    /// `nalUnit` starts at the one-byte NAL header (type 7). Nil when it is truncated, not an SPS, or holds a value
    /// outside its range that the parse depends on.
    static func parse(_ nalUnit: some Collection<UInt8>) -> VideoParameters? {
        guard let header = nalUnit.first, header & 0x1F == 7 else { return nil }
        var reader = BitReader(nalUnit: nalUnit.dropFirst())
        let profile = Int(reader.bits(8))
        let constraints = reader.bits(8)
        let level = Int(reader.bits(8))
        _ = reader.unsignedExpGolomb()  // seq_parameter_set_id
        var chromaFormat: UInt32 = 1
        if [100, 110, 122, 244, 44, 83, 86, 118, 128, 138, 139, 134, 135].contains(profile) {
            chromaFormat = reader.unsignedExpGolomb()
            if chromaFormat == 3 { reader.skip(1) }  // separate_colour_plane_flag
            _ = reader.unsignedExpGolomb()  // bit_depth_luma_minus8
            _ = reader.unsignedExpGolomb()  // bit_depth_chroma_minus8
            reader.skip(1)  // qpprime_y_zero_transform_bypass_flag
            if reader.bit() == 1 {  // seq_scaling_matrix_present_flag
                for list in 0..<(chromaFormat == 3 ? 12 : 8) where reader.bit() == 1 {
                    guard skipScalingList(&reader, size: list < 6 ? 16 : 64) else { return nil }
                }
            }
        }
        _ = reader.unsignedExpGolomb()  // log2_max_frame_num_minus4
        let pictureOrderCountType = reader.unsignedExpGolomb()
        if pictureOrderCountType == 0 {
            _ = reader.unsignedExpGolomb()
        } else if pictureOrderCountType == 1 {
            reader.skip(1)
            _ = reader.signedExpGolomb()
            _ = reader.signedExpGolomb()
            let cycle = reader.unsignedExpGolomb()
            guard cycle < 256 else { return nil }
            for _ in 0..<cycle { _ = reader.signedExpGolomb() }
        }
        _ = reader.unsignedExpGolomb()  // max_num_ref_frames
        reader.skip(1)  // gaps_in_frame_num_value_allowed_flag
        let widthInMacroblocks = Int(reader.unsignedExpGolomb()) + 1
        let heightInMapUnits = Int(reader.unsignedExpGolomb()) + 1
        let frameMacroblocksOnly = Int(reader.bit())
        if frameMacroblocksOnly == 0 { reader.skip(1) }
        reader.skip(1)  // direct_8x8_inference_flag
        var crop = (left: 0, right: 0, top: 0, bottom: 0)
        if reader.bit() == 1 {
            crop = (
                Int(reader.unsignedExpGolomb()), Int(reader.unsignedExpGolomb()), Int(reader.unsignedExpGolomb()),
                Int(reader.unsignedExpGolomb())
            )
        }
        let cropUnitX = chromaFormat == 0 || chromaFormat == 3 ? 1 : 2
        let cropUnitY = (chromaFormat == 1 ? 2 : 1) * (2 - frameMacroblocksOnly)
        let width = widthInMacroblocks * 16 - cropUnitX * (crop.left + crop.right)
        let height = (2 - frameMacroblocksOnly) * heightInMapUnits * 16 - cropUnitY * (crop.top + crop.bottom)
        guard !reader.isExhausted, width > 0, height > 0 else { return nil }
        var framesPerSecond: Double?
        if reader.bit() == 1 { framesPerSecond = vuiFrameRate(&reader) }
        return VideoParameters(
            codec: .h264, profile: profile, compatibility: constraints, level: level, width: width, height: height,
            framesPerSecond: framesPerSecond)
    }

    /// Reads past one scaling list (§7.3.2.1.1.1). False when a delta_scale is outside its range, −128…127.
    private static func skipScalingList(_ reader: inout BitReader, size: Int) -> Bool {
        var last: Int32 = 8
        var next: Int32 = 8
        for _ in 0..<size {
            if next != 0 {
                let delta = reader.signedExpGolomb()
                guard (-128...127).contains(delta) else { return false }
                next = (last + delta + 256) % 256
            }
            last = next == 0 ? last : next
        }
        return true
    }

    /// The VUI up to `timing_info`: frames per second is time_scale / (2 × num_units_in_tick), when
    /// `fixed_frame_rate_flag` says the rate is constant (otherwise the values are only a clock).
    private static func vuiFrameRate(_ reader: inout BitReader) -> Double? {
        if reader.bit() == 1 {  // aspect_ratio_info_present_flag
            if reader.bits(8) == 255 { reader.skip(32) }
        }
        if reader.bit() == 1 { reader.skip(1) }  // overscan
        if reader.bit() == 1 {  // video_signal_type_present_flag
            reader.skip(4)
            if reader.bit() == 1 { reader.skip(24) }
        }
        if reader.bit() == 1 {  // chroma_loc_info_present_flag
            _ = reader.unsignedExpGolomb()
            _ = reader.unsignedExpGolomb()
        }
        guard reader.bit() == 1 else { return nil }
        let unitsInTick = reader.bits(32)
        let timeScale = reader.bits(32)
        let fixedFrameRate = reader.bit() == 1
        guard !reader.isExhausted, fixedFrameRate, unitsInTick > 0, timeScale > 0 else { return nil }
        return Double(timeScale) / Double(2 * UInt64(unitsInTick))
    }
}
