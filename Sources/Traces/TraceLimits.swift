import JSON

/// The ranges a network trace's values must lie in: wide enough for any real network (the traces in
/// `shared/traces` span 0.176 kbit/s to 1.86 Gbit/s, 5 ms to 7.5 min periods, 20–200 ms latency) and narrow
/// enough that every number derived from them stays finite; a period is at least 1 ms, so walking a trace over
/// any bounded time takes a bounded number of steps.
public enum TraceLimits {
    /// A constant link (`--bandwidth`, `--shape RATE,LATENCY`), bit/s: 1 kbit/s … 100 Gbit/s.
    public static let linkBitsPerSecond: ClosedRange<Double> = 1_000...100_000_000_000
    /// A period's bandwidth when not an outage (0), kbit/s: 1 bit/s … 100 Gbit/s.
    public static let periodKilobitsPerSecond: ClosedRange<Double> = 0.001...100_000_000
    /// A period's duration when not empty (0, ignored), ms: 1 ms … 24 h.
    public static let periodMilliseconds: ClosedRange<Double> = 1...86_400_000
    /// Request latency (periods, `--latency`), ms: 0 … 60 s.
    public static let latencyMilliseconds: ClosedRange<Double> = 0...60_000
    /// Periods in one trace.
    public static let maximumPeriods = 1_000_000

    /// `lower…upper` for messages, in the unit given.
    public static func text(_ range: ClosedRange<Double>, _ unit: String) -> String {
        "\(plainNumber(range.lowerBound))…\(plainNumber(range.upperBound)) \(unit)"
    }
}
