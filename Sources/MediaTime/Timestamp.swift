/// A point or span of media time as an exact fraction: `value / timescale` seconds.
///
/// Timestamps stay rational from the encoder to the playlist (libav's `AVRational` time bases, shaka's
/// timescale units); they become `Double` seconds only when printed, e.g. in `#EXTINF`.
///
///     let frame = Timestamp(1, timescale: 30)          // one frame at 30 fps
///     Timestamp(60, timescale: 30) == Timestamp(2, timescale: 1)   // true: compared as fractions
public struct Timestamp: Hashable, Comparable, Sendable, CustomStringConvertible {
    /// Count of `1/timescale` second ticks.
    public var value: Int64
    /// Ticks per second; always positive.
    public var timescale: Int32

    public init(_ value: Int64, timescale: Int32) {
        precondition(timescale > 0, "Timestamp timescale must be positive, got \(timescale)")
        self.value = value
        self.timescale = timescale
    }

    public static let zero = Timestamp(0, timescale: 1)

    /// Whole seconds.
    public static func seconds(_ seconds: Int64) -> Timestamp { Timestamp(seconds, timescale: 1) }

    /// The value in seconds, for printing.
    public var seconds: Double { Double(value) / Double(timescale) }

    /// The same instant in another timescale, rounded to the nearest tick (halves away from zero).
    public func converted(to newTimescale: Int32) -> Timestamp {
        if newTimescale == timescale { return self }
        let numerator = Int128(value) * Int128(newTimescale)
        let denominator = Int128(timescale)
        let half = denominator / 2
        let rounded = numerator >= 0 ? (numerator + half) / denominator : (numerator - half) / denominator
        return Timestamp(Int64(rounded), timescale: newTimescale)
    }

    public static func < (lhs: Timestamp, rhs: Timestamp) -> Bool {
        Int128(lhs.value) * Int128(rhs.timescale) < Int128(rhs.value) * Int128(lhs.timescale)
    }

    public static func == (lhs: Timestamp, rhs: Timestamp) -> Bool {
        Int128(lhs.value) * Int128(rhs.timescale) == Int128(rhs.value) * Int128(lhs.timescale)
    }

    public func hash(into hasher: inout Hasher) {
        // Equal fractions must hash equally: hash the reduced fraction.
        let divisor = Self.greatestCommonDivisor(Swift.abs(value), Int64(timescale))
        hasher.combine(value / max(divisor, 1))
        hasher.combine(Int64(timescale) / max(divisor, 1))
    }

    /// Sum in the finer of the two timescales (exact when one divides the other; otherwise in the product).
    public static func + (lhs: Timestamp, rhs: Timestamp) -> Timestamp {
        let scale = commonTimescale(lhs.timescale, rhs.timescale)
        return Timestamp(
            lhs.converted(to: scale).value + rhs.converted(to: scale).value, timescale: scale)
    }

    public static func - (lhs: Timestamp, rhs: Timestamp) -> Timestamp {
        let scale = commonTimescale(lhs.timescale, rhs.timescale)
        return Timestamp(
            lhs.converted(to: scale).value - rhs.converted(to: scale).value, timescale: scale)
    }

    /// The timestamp multiplied by a whole number.
    public static func * (lhs: Timestamp, rhs: Int64) -> Timestamp {
        Timestamp(lhs.value * rhs, timescale: lhs.timescale)
    }

    public var description: String { "\(value)/\(timescale)" }

    /// The least common multiple of two timescales (so both convert exactly), capped to `Int32`.
    private static func commonTimescale(_ a: Int32, _ b: Int32) -> Int32 {
        if a == b { return a }
        let gcd = greatestCommonDivisor(Int64(a), Int64(b))
        let lcm = Int64(a) / gcd * Int64(b)
        return lcm <= Int64(Int32.max) ? Int32(lcm) : max(a, b)
    }

    private static func greatestCommonDivisor(_ a: Int64, _ b: Int64) -> Int64 {
        var (x, y) = (a, b)
        while y != 0 { (x, y) = (y, x % y) }
        return x
    }
}
