import Testing

@testable import StreamAudit

/// `MP4BoxWalker.fragmentSamples` on fragments built byte by byte: `tfdt` versions, `tfhd` defaults, and the
/// composition offsets of `trun` version 0 (unsigned) and version 1 (signed, CMAF's negative offsets).
struct FragmentSampleTests {
    static func box(_ type: String, _ payload: [UInt8]) -> [UInt8] {
        uint32(UInt32(8 + payload.count)) + Array(type.utf8) + payload
    }

    static func uint32(_ value: UInt32) -> [UInt8] { (0..<4).map { UInt8(truncatingIfNeeded: value >> (24 - 8 * $0)) } }

    /// moof(traf(tfhd, tfdt v1, trun with durations and composition offsets)) for one track.
    static func fragment(
        track: UInt32, decodeTime: UInt64, trunVersion: UInt8, durations: [UInt32], offsets: [Int32]
    ) -> [UInt8] {
        let tfhd = box("tfhd", uint32(0x02_0000) + uint32(track))
        let tfdt = box(
            "tfdt", [1, 0, 0, 0] + uint32(UInt32(decodeTime >> 32)) + uint32(UInt32(decodeTime & 0xFFFF_FFFF)))
        let entries = zip(durations, offsets).flatMap { uint32($0) + uint32(UInt32(bitPattern: $1)) }
        let trun = box("trun", [trunVersion, 0x00, 0x09, 0x00] + uint32(UInt32(durations.count)) + entries)
        return box("moof", box("mfhd", uint32(0) + uint32(1)) + box("traf", tfhd + tfdt + trun))
    }

    @Test func versionOneOffsetsAreSignedSoTheKeyframeIsPresentedAtTheDecodeTime() {
        // x264's order I P B b at 3000 ticks a frame, decode times moved later by the delay of 2 frames.
        let bytes = Self.fragment(
            track: 1, decodeTime: 906_000, trunVersion: 1, durations: [3000, 3000, 3000, 3000],
            offsets: [0, 6000, -3000, -3000])
        let samples = MP4BoxWalker.fragmentSamples(bytes)
        #expect(samples.map(\.decodingTime) == [906_000, 909_000, 912_000, 915_000])
        #expect(samples.map(\.presentationTime) == [906_000, 915_000, 909_000, 912_000])
        #expect(samples.map(\.presentationTime).min() == samples.first?.decodingTime)
    }

    @Test func versionZeroOffsetsAreUnsigned() {
        let bytes = Self.fragment(
            track: 1, decodeTime: 900_000, trunVersion: 0, durations: [3000, 3000], offsets: [6000, -3000])
        #expect(MP4BoxWalker.fragmentSamples(bytes).map(\.compositionOffset) == [6000, 4_294_964_296])
    }

    @Test func aFragmentWithoutTfdtContinuesItsTrackAndTracksStaySeparate() {
        let first = Self.fragment(
            track: 2, decodeTime: 1000, trunVersion: 0, durations: [1024, 1024], offsets: [0, 0])
        let other = Self.fragment(track: 1, decodeTime: 50, trunVersion: 0, durations: [10], offsets: [0])
        var second = Self.fragment(track: 2, decodeTime: 0, trunVersion: 0, durations: [1024], offsets: [0])
        // Rename the second fragment's tfdt so that it is skipped as an unknown box.
        let tfdt = Array("tfdt".utf8)
        if let at = (0..<(second.count - 4)).first(where: { Array(second[$0..<($0 + 4)]) == tfdt }) {
            second.replaceSubrange(at..<(at + 4), with: Array("free".utf8))
        }
        let samples = MP4BoxWalker.fragmentSamples(first + other + second)
        #expect(samples.map(\.trackID) == [2, 2, 1, 2])
        #expect(samples.map(\.decodingTime) == [1000, 2024, 50, 3048])
    }

    @Test func aSampleCountPastTheBoxIsBoundedByTheBox() throws {
        var bytes = Self.fragment(track: 1, decodeTime: 0, trunVersion: 1, durations: [1, 2], offsets: [0, 0])
        let trun = Array("trun".utf8)
        let at = try #require((0..<(bytes.count - 4)).first { Array(bytes[$0..<($0 + 4)]) == trun })
        bytes.replaceSubrange((at + 8)..<(at + 12), with: Self.uint32(0xFFFF_FFFF))  // sample_count
        #expect(MP4BoxWalker.fragmentSamples(bytes).count == 2)
        #expect(MP4BoxWalker.fragmentSamples(Array(bytes.prefix(20))).isEmpty)
        // No per-sample fields: at most one sample per byte of the segment.
        let bare = Self.box(
            "moof",
            Self.box(
                "traf",
                Self.box("tfhd", Self.uint32(0) + Self.uint32(1))
                    + Self.box("trun", Self.uint32(0) + Self.uint32(0xFFFF_FFFF))))
        #expect(MP4BoxWalker.fragmentSamples(bare).count == bare.count)
    }
}
