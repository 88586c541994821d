import FilterKit

/// The tests' one seeded random number generator: FilterKit's `SplitMix64` (Steele, Lea & Flood 2014), so every
/// random case can be replayed from its seed. The same seed gives the same sequence on every platform and every run.
public struct SeededGenerator: RandomNumberGenerator, Sendable {
    private var source: SplitMix64

    public init(seed: UInt64) { source = SplitMix64(seed: seed) }

    public mutating func next() -> UInt64 { source.next() }

    /// A uniform `Double` in [0, 1): the top 53 bits of `next()`.
    public mutating func nextUnit() -> Double { source.nextUnit() }

    /// An integer of `range`, each (near enough) equally likely: `nextUnit()` scaled to the range's count.
    public mutating func nextInt(in range: ClosedRange<Int>) -> Int {
        range.lowerBound + min(Int(nextUnit() * Double(range.count)), range.count - 1)
    }

    /// `count` bytes, each the low byte of one `next()`.
    public mutating func bytes(_ count: Int) -> [UInt8] { (0..<count).map { _ in UInt8(truncatingIfNeeded: next()) } }
}
