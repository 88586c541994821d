/// A rational media timestamp, `value / timescale` seconds, as cameras and containers give them.
///
/// Kept rational until printed (no drift); `Packaging.Timestamp` converts from it one to one.
public struct CaptureTime: Sendable, Hashable, Comparable, CustomStringConvertible {
    public var value: Int64
    public var timescale: Int32

    public init(value: Int64, timescale: Int32) {
        precondition(timescale > 0, "timescale must be positive")
        self.value = value
        self.timescale = timescale
    }

    /// Seconds as a `Double`, for printing and plotting only.
    public var seconds: Double { Double(value) / Double(timescale) }

    public static func < (lhs: CaptureTime, rhs: CaptureTime) -> Bool {
        // Cross-multiplication is exact for the magnitudes used here (timescale ≤ 2^31, value ≤ 2^32).
        lhs.value.multipliedFullWidth(by: Int64(rhs.timescale))
            < rhs.value.multipliedFullWidth(by: Int64(lhs.timescale))
    }

    public var description: String { "\(value)/\(timescale)" }
}
