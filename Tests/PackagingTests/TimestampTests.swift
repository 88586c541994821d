import Testing

@testable import Packaging

@Suite struct TimestampTests {
    @Test func equalFractionsAreEqualAndHashAlike() {
        let a = Timestamp(60, timescale: 30), b = Timestamp(2, timescale: 1)
        #expect(a == b)
        #expect(Set([a, b]).count == 1)
    }

    @Test func comparesAsFractionsWithoutFloatError() {
        // 1/3 s at 90 kHz vs 1/3 s in thirds: equal exactly, and one tick more is later.
        #expect(Timestamp(30000, timescale: 90000) == Timestamp(1, timescale: 3))
        #expect(Timestamp(30001, timescale: 90000) > Timestamp(1, timescale: 3))
        #expect(Timestamp(Int64.max / 2, timescale: 90000) > Timestamp(1, timescale: 1))
    }

    @Test func arithmeticUsesACommonTimescale() {
        let sum = Timestamp(1, timescale: 30) + Timestamp(1, timescale: 25)
        #expect(sum == Timestamp(11, timescale: 150))
        #expect(Timestamp(3, timescale: 1) - Timestamp(1, timescale: 2) == Timestamp(5, timescale: 2))
        #expect(Timestamp(1001, timescale: 30000) * 30 == Timestamp(1001, timescale: 1000))
    }

    @Test func conversionRoundsToTheNearestTick() {
        #expect(Timestamp(1, timescale: 3).converted(to: 1000).value == 333)
        #expect(Timestamp(2, timescale: 3).converted(to: 1000).value == 667)
        #expect(Timestamp(-2, timescale: 3).converted(to: 1000).value == -667)
        #expect(Timestamp(1, timescale: 30).converted(to: 90000).value == 3000)
    }
}
