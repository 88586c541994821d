import Testing

@testable import Media

@Suite struct MP4FragmentLayoutTests {
    static func box(_ type: String, _ payload: [UInt8]) -> [UInt8] {
        let size = UInt32(8 + payload.count)
        return [UInt8(size >> 24), UInt8(size >> 16 & 0xFF), UInt8(size >> 8 & 0xFF), UInt8(size & 0xFF)]
            + Array(type.utf8) + payload
    }

    static func uint32(_ value: UInt32) -> [UInt8] {
        [UInt8(value >> 24), UInt8(value >> 16 & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)]
    }

    /// moof(mfhd, traf(tfhd, trun with data offset and per-sample sizes)) + mdat.
    static func fragment(firstSampleSize: UInt32, sampleSizes rest: [UInt32]) -> [UInt8] {
        let sizes = [firstSampleSize] + rest
        let tfhd = box("tfhd", uint32(0x02_0000) + uint32(1))  // default-base-is-moof, track 1
        func trun(dataOffset: UInt32) -> [UInt8] {
            box("trun", uint32(0x000201) + uint32(UInt32(sizes.count)) + uint32(dataOffset) + sizes.flatMap(uint32))
        }
        let mfhd = box("mfhd", uint32(0) + uint32(1))
        let moofSize = 8 + mfhd.count + 8 + tfhd.count + trun(dataOffset: 0).count
        let moof = box("moof", mfhd + box("traf", tfhd + trun(dataOffset: UInt32(moofSize + 8))))
        let payload = sizes.flatMap { [UInt8](repeating: 0xAB, count: Int($0)) }
        return moof + box("mdat", payload)
    }

    @Test func firstSampleEndsAfterTheMoofTheMdatHeaderAndItsSize() throws {
        let bytes = Self.fragment(firstSampleSize: 500, sampleSizes: [40, 30])
        let moofSize = Int(bytes[3]) | Int(bytes[2]) << 8
        #expect(MP4FragmentLayout.endOfFirstSample(in: bytes) == moofSize + 8 + 500)
    }

    @Test func unreadableBoxesGiveNil() {
        #expect(MP4FragmentLayout.endOfFirstSample(in: []) == nil)
        #expect(MP4FragmentLayout.endOfFirstSample(in: Self.box("mdat", [1, 2, 3])) == nil)
        var broken = Self.fragment(firstSampleSize: 10, sampleSizes: [])
        broken[3] = 0xFF  // moof claims to be longer than the file
        #expect(MP4FragmentLayout.endOfFirstSample(in: broken) == nil)
    }
}
