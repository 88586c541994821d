import Testing

@testable import StreamAudit

/// The bitstream readers on values no encoder writes but a file can hold: each is refused (the box not
/// listed, the parameter set unread), never a trap.
struct HostileBitstreamTests {
    /// A box header: 32-bit size (or 1 and a 64-bit `largesize`), then the type.
    static func box(_ type: String, size: UInt32, largesize: UInt64? = nil) -> [UInt8] {
        var bytes = (0..<4).map { UInt8(truncatingIfNeeded: size >> (8 * (3 - $0))) } + Array(type.utf8)
        if let largesize { bytes += (0..<8).map { UInt8(truncatingIfNeeded: largesize >> (8 * (7 - $0))) } }
        return bytes
    }

    @Test(arguments: [UInt64(1) << 63 - 16, UInt64(1) << 63 - 1, UInt64(1) << 63, UInt64.max])
    func aBoxWhose64BitSizeRunsPastTheFileEndsTheWalk(largesize: UInt64) {
        let styp = Self.box("styp", size: 16) + Array("msdhmsdh".utf8)
        let bytes = styp + Self.box("moof", size: 1, largesize: largesize) + [UInt8](repeating: 0, count: 32)
        #expect(MP4BoxWalker.boxes(bytes, in: 0..<bytes.count).map(\.0) == ["styp"])
        #expect(MP4BoxWalker.fragmentTrackIDs(bytes) == [])
        #expect(MP4BoxWalker.initTracks(bytes) == [])
    }

    @Test func aBoxOfSizeZeroRunsToTheEndOfItsParent() {
        let tfhd = Self.box("tfhd", size: 16) + [0, 0, 0, 0, 0, 0, 0, 7]
        let moof = Self.box("moof", size: 0) + Self.box("traf", size: UInt32(8 + tfhd.count)) + tfhd
        #expect(MP4BoxWalker.fragmentTrackIDs(moof) == [7])
    }

    /// Bits written as text ("0110…"), most significant first, padded with zeros to whole bytes.
    static func bytes(_ bits: String) -> [UInt8] {
        let digits = Array(bits.filter { $0 == "0" || $0 == "1" })
        return stride(from: 0, to: digits.count, by: 8).map { start in
            (0..<8).reduce(UInt8(0)) { byte, offset in
                byte << 1 | (start + offset < digits.count && digits[start + offset] == "1" ? 1 : 0)
            }
        }
    }

    /// se(v) of a positive value: code number 2v − 1, as ue(v).
    static func signedExpGolomb(_ value: UInt64) -> String {
        let digits = String(2 * value, radix: 2)  // the code number plus one, after as many zeros as it has digits - 1
        return String(repeating: "0", count: digits.count - 1) + digits
    }

    /// A High-profile 16x16 SPS (4:2:0, 8-bit) whose first scaling list starts with `delta` and goes on with
    /// zeros (H.264 §7.3.2.1.1.1), the other seven lists absent.
    static func spsWithScalingDelta(_ delta: UInt64) -> [UInt8] {
        let header = "01100111" + "01100100" + "00000000" + "00011110"  // NAL type 7; profile 100; level 30
        let chroma = "1" + "010" + "1" + "1" + "0"  // sps id 0, chroma_format_idc 1, bit depths 0, no bypass
        let scaling = "1" + "1" + signedExpGolomb(delta) + String(repeating: "1", count: 15) + "0000000"
        // frame_num and POC sizes, POC type 0, one reference, no gaps, 1x1 macroblocks, frames only, no crop, no VUI
        let rest = "1" + "1" + "1" + "1" + "0" + "1" + "1" + "1" + "1" + "0" + "0"
        return bytes(header + chroma + scaling + rest + "1")
    }

    @Test(arguments: [UInt64(Int32.max), 128, 1 << 31])
    func anSPSScalingDeltaOutsideItsRangeIsRefused(delta: UInt64) {
        #expect(H264SequenceParameters.parse(Self.spsWithScalingDelta(delta)) == nil)
    }

    @Test func anSPSScalingDeltaInsideItsRangeIsRead() {
        // 127: the largest delta_scale there is; the rest of the made-up SPS reads as some picture size.
        #expect(H264SequenceParameters.parse(Self.spsWithScalingDelta(127)) != nil)
    }
}
