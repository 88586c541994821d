/// A small seeded random number generator (SplitMix64, Steele, Lea & Flood 2014): the same seed gives the
/// same sequence on every platform, which the camera, the microphone and the tests rely on.
public struct SplitMix64: RandomNumberGenerator, Sendable {
    private var state: UInt64

    public init(seed: UInt64) { state = seed }

    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        return Self.mix(state)
    }

    /// The SplitMix64 output function: a stateless hash of `value`, used for per-pixel noise.
    @inline(__always)
    public static func mix(_ value: UInt64) -> UInt64 {
        var z = value
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A uniform `Double` in [0, 1).
    public mutating func nextUnit() -> Double { Double(next() >> 11) * 0x1p-53 }
}
