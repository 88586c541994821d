import Testing

@testable import StreamAudit

/// The bitstream readers on parameter sets and access units as encoders write them.
struct BitstreamTests {
    /// The SPS libx264 writes for 320x180 High@1.3 (12 macroblock rows, 12 lines cropped), with a VUI clock.
    static let highProfileSPS: [UInt8] = [
        0x67, 0x64, 0x00, 0x0D, 0xAC, 0xD9, 0x41, 0x41, 0x9F, 0x9F, 0x01, 0x6A, 0x02, 0x02, 0x02, 0x80, 0x00, 0x00,
        0x03, 0x00, 0x80, 0x01, 0x5F, 0x90, 0x07, 0x8A, 0x14, 0xCB,
    ]

    /// The SPS libx265 writes for 320x180 Main@L2 (a conformance window crops 184 coded lines to 180).
    static let hevcSPS: [UInt8] = [
        0x42, 0x01, 0x01, 0x01, 0x60, 0x00, 0x00, 0x03, 0x00, 0x90, 0x00, 0x00, 0x03, 0x00, 0x00, 0x03, 0x00, 0x3C,
        0xA0, 0x0A, 0x08, 0x0B, 0x9F, 0x79, 0x65, 0x66, 0x92, 0x4C, 0xAF, 0x01, 0x68, 0x08, 0x00, 0x00, 0x03, 0x00,
        0x08, 0x00, 0x00, 0x03, 0x00, 0xF0, 0x40, 0x00,
    ]

    @Test func anHEVCSPSGivesProfileTierLevelAndTheCroppedSize() throws {
        let parameters = try #require(HEVCSequenceParameters.parse(Self.hevcSPS))
        #expect(parameters.codecString == "hvc1.1.6.L60")
        #expect(parameters.width == 320 && parameters.height == 180)
        #expect(DescriptionRules.matches("hvc1.1.6.L60.90", parameters.codecString))
        #expect(!DescriptionRules.matches("hvc1.2.4.L60.90", parameters.codecString))
    }

    @Test func anH264SPSGivesProfileLevelAndTheCroppedSize() throws {
        let parameters = try #require(H264SequenceParameters.parse(Self.highProfileSPS))
        #expect(parameters.codecString == "avc1.64000d")
        #expect(parameters.width == 320 && parameters.height == 180)
        #expect(parameters.framesPerSecond == nil, "a 1/180000 clock without fixed_frame_rate_flag is no frame rate")
    }

    @Test func aTruncatedSPSIsRefusedNotTrapped() {
        for length in 0..<10 { #expect(H264SequenceParameters.parse(Self.highProfileSPS.prefix(length)) == nil) }
    }

    @Test func annexBAccessUnitsAreSplitAtStartCodes() {
        let unit: [UInt8] = [0, 0, 0, 1, 0x09, 0xF0, 0, 0, 1] + Self.highProfileSPS + [0, 0, 1, 0x65, 0x88, 0x84]
        let summary = unit.withUnsafeBytes { NALUnitScanner.summary($0, framing: .annexB, codec: .h264) }
        #expect(summary.types == [9, 7, 5])
        #expect(summary.isIDR(.h264))
        #expect(summary.sequenceParameterSets == [Self.highProfileSPS])
    }

    @Test func aRecoveryPointFrameIsNotAnIDR() {
        let unit: [UInt8] = [0, 0, 0, 1, 0x06, 0x06, 0x01, 0x80, 0, 0, 1, 0x41, 0x9A]  // SEI + non-IDR slice
        let summary = unit.withUnsafeBytes { NALUnitScanner.summary($0, framing: .annexB, codec: .h264) }
        #expect(summary.types == [6, 1] && !summary.isIDR(.h264))
    }

    @Test func lengthPrefixedUnitsAreReadByTheirLengths() {
        let unit: [UInt8] = [0, 0, 0, 2, 0x65, 0x88, 0, 0, 0, 1, 0x06]
        let summary = unit.withUnsafeBytes {
            NALUnitScanner.summary($0, framing: .lengthPrefixed(bytes: 4), codec: .h264)
        }
        #expect(summary.types == [5, 6])
    }

    @Test func aacObjectTypeComesFromADTSAndFromTheAudioSpecificConfig() {
        let adts: [UInt8] = [0xFF, 0xF1, 0x4C, 0x80, 0x2E, 0x7F, 0xFC]
        #expect(adts.withUnsafeBytes { AACConfiguration.objectType(adtsFrame: $0) } == 2)
        #expect(AACConfiguration.objectType(audioSpecificConfig: [0x11, 0x90]) == 2)
        #expect(AACConfiguration.objectType(audioSpecificConfig: [0x2B, 0x92]) == 5)
    }
}
