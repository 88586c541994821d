import Testing

@testable import Packaging

@Suite struct CodecStringTests {
    static func bytes(_ hex: String) -> [UInt8] {
        var result: [UInt8] = []
        var index = hex.startIndex
        while index < hex.endIndex {
            let next = hex.index(index, offsetBy: 2)
            result.append(UInt8(hex[index..<next], radix: 16)!)
            index = next
        }
        return result
    }

    /// The start of real libx264 Annex B output (ffmpeg 5.1, 320×180): SPS, PPS, SEI…
    static let highLevel31 = bytes(
        "000000016764001facd941419f9f0110000003001000000303c0f18319600000000168ebe3cb22c00000010605ffff")
    static let mainLevel40 = bytes(
        "00000001674d4028eca0a0cfcf8088000003000800000301e078c18cb00000000168ebe3cb200000010605ffff")
    static let constrainedBaseline30 = bytes(
        "000000016742c01ed901419f9f0110000003001000000303c0f162e4800000000168cb83cb200000010605ffff")

    @Test func readsProfileConstraintsAndLevelFromRealEncoderOutput() {
        #expect(CodecString.avc(parameterSets: Self.highLevel31) == "avc1.64001f")
        #expect(CodecString.avc(parameterSets: Self.mainLevel40) == "avc1.4d4028")
        #expect(CodecString.avc(parameterSets: Self.constrainedBaseline30) == "avc1.42c01e")
    }

    @Test func readsAnAvcCRecord() {
        // configurationVersion 1, profile/compat/level copied, lengthSize, 1 SPS of the high-profile stream.
        let sps = Array(Self.highLevel31[4..<25])
        let avcC: [UInt8] =
            [1, 0x64, 0x00, 0x1f, 0xff, 0xe1, 0, UInt8(sps.count)] + sps + [1, 0, 4, 0x68, 0xeb, 0xe3, 0xcb]
        #expect(CodecString.avc(parameterSets: avcC) == "avc1.64001f")
    }

    @Test func findsNoCodecWithoutAnSPS() {
        #expect(CodecString.avc(parameterSets: []) == nil)
        #expect(CodecString.avc(parameterSets: [0, 0, 1, 0x68, 0xeb, 0xe3]) == nil)
    }
}
