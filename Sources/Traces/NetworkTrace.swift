import JSON

/// A network trace: consecutive periods of constant bandwidth and request latency, looped when exhausted
/// (the JSON format of `shared/traces/FORMAT.md`, which is Sabre's network-trace list).
public struct NetworkTrace: Sendable, Hashable {
    /// One period of the trace.
    public struct Period: Sendable, Hashable {
        public var durationMilliseconds: Double
        /// Throughput in kbit/s, which is bits per millisecond.
        public var bandwidthKilobitsPerSecond: Double
        public var latencyMilliseconds: Double

        public init(durationMilliseconds: Double, bandwidthKilobitsPerSecond: Double, latencyMilliseconds: Double) {
            self.durationMilliseconds = durationMilliseconds
            self.bandwidthKilobitsPerSecond = bandwidthKilobitsPerSecond
            self.latencyMilliseconds = latencyMilliseconds
        }
    }

    public var name: String
    public private(set) var periods: [Period]

    /// A trace; fails when a value is outside `TraceLimits` (duration 0 or 1 ms … 24 h, bandwidth 0 or
    /// 1 bit/s … 100 Gbit/s, latency 0 … 60 s, at most a million periods) or when it could never deliver a
    /// byte (no period with both time and bandwidth).
    public init(name: String, periods: [Period]) throws(TraceError) {
        guard periods.count <= TraceLimits.maximumPeriods else {
            throw .unusable(
                name: name, reason: "\(periods.count) samples; a trace has at most \(TraceLimits.maximumPeriods)")
        }
        for (index, period) in periods.enumerated() {
            try Self.check(
                period.durationMilliseconds, zeroOr: TraceLimits.periodMilliseconds, unit: "ms",
                field: "samples[\(index)].duration_ms", trace: name)
            try Self.check(
                period.bandwidthKilobitsPerSecond, zeroOr: TraceLimits.periodKilobitsPerSecond,
                unit: "kbit/s (0 is an outage)", field: "samples[\(index)].bandwidth_kbps", trace: name)
            let latency = period.latencyMilliseconds
            guard TraceLimits.latencyMilliseconds.contains(latency) else {
                throw .outOfRange(
                    what: "trace \(name)", field: "samples[\(index)].latency_ms", value: latency,
                    allowed: TraceLimits.text(TraceLimits.latencyMilliseconds, "ms"))
            }
        }
        guard periods.contains(where: { $0.durationMilliseconds > 0 && $0.bandwidthKilobitsPerSecond > 0 }) else {
            throw .unusable(name: name, reason: "no period with a positive duration and bandwidth")
        }
        self.name = name
        // Zero-length periods never hold time; dropping them changes nothing and keeps the walk simple.
        self.periods = periods.filter { $0.durationMilliseconds > 0 }
    }

    /// `value` must be 0 or lie in `range` (NaN and infinities never do).
    private static func check(
        _ value: Double, zeroOr range: ClosedRange<Double>, unit: String, field: String, trace: String
    ) throws(TraceError) {
        guard value == 0 || range.contains(value) else {
            throw .outOfRange(
                what: "trace \(trace)", field: field, value: value,
                allowed: "0 or " + TraceLimits.text(range, unit))
        }
    }

    /// A constant network: one period of `bandwidth` and `latency`, looped forever.
    public static func constant(bitsPerSecond: Double, latencySeconds: Double) throws(TraceError) -> NetworkTrace {
        try NetworkTrace(
            name: "constant \(Int(bitsPerSecond / 1000)) kbps, \(Int((latencySeconds * 1000).rounded())) ms",
            periods: [
                Period(
                    durationMilliseconds: 1_000_000, bandwidthKilobitsPerSecond: bitsPerSecond / 1000,
                    latencyMilliseconds: latencySeconds * 1000)
            ])
    }

    /// Length of one pass over the trace, milliseconds.
    public var durationMilliseconds: Double { periods.reduce(0) { $0 + $1.durationMilliseconds } }
}
