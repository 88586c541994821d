/// The tests' one seeded random number generator: SplitMix64 (Steele, Lea & Flood 2014), so every random case
/// can be replayed from its seed. The same seed gives the same sequence on every platform and every run; it is
/// the sequence of FilterKit's `SplitMix64`.
public struct SeededGenerator: RandomNumberGenerator, Sendable {
    private var state: UInt64

    public init(seed: UInt64) { state = seed }

    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A uniform `Double` in [0, 1): the top 53 bits of `next()`.
    public mutating func nextUnit() -> Double { Double(next() >> 11) * 0x1p-53 }

    /// An integer of `range`, each (near enough) equally likely: `nextUnit()` scaled to the range's count.
    public mutating func nextInt(in range: ClosedRange<Int>) -> Int {
        range.lowerBound + min(Int(nextUnit() * Double(range.count)), range.count - 1)
    }

    /// `count` bytes, each the low byte of one `next()`.
    public mutating func bytes(_ count: Int) -> [UInt8] { (0..<count).map { _ in UInt8(truncatingIfNeeded: next()) } }
}
