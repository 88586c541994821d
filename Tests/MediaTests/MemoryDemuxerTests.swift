import Testing

@testable import Media

#if canImport(Glibc)
    import Glibc
#endif

/// The in-memory reader libav demuxes segments through: a seek libav asks for with an offset taken from the
/// file (a box size near 2^63) lands in the bytes or is refused, never a trap.
struct MemoryDemuxerTests {
    @Test func seeksLandInsideTheBytesOrAreRefused() {
        #expect(MemoryDemuxer.seekTarget(40, whence: SEEK_CUR, position: 10, size: 100) == 50)
        #expect(MemoryDemuxer.seekTarget(-100, whence: SEEK_END, position: 10, size: 100) == 0)
        #expect(MemoryDemuxer.seekTarget(101, whence: SEEK_SET, position: 0, size: 100) == nil)
        #expect(MemoryDemuxer.seekTarget(.max - 8, whence: SEEK_CUR, position: 10, size: 100) == nil)
        #expect(MemoryDemuxer.seekTarget(.max, whence: SEEK_END, position: 0, size: 100) == nil)
        #expect(MemoryDemuxer.seekTarget(.min, whence: SEEK_CUR, position: -1, size: 100) == nil)
    }
}
