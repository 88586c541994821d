import Foundation

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

    /// A trace; fails when it could never deliver a byte (no period, or no period with both time and bandwidth).
    public init(name: String, periods: [Period]) throws(SimulationError) {
        guard periods.contains(where: { $0.durationMilliseconds > 0 && $0.bandwidthKilobitsPerSecond > 0 }) else {
            throw .unusableTrace(name: name, reason: "no period with a positive duration and bandwidth")
        }
        if let bad = periods.firstIndex(where: {
            !($0.durationMilliseconds >= 0) || !($0.bandwidthKilobitsPerSecond >= 0) || !($0.latencyMilliseconds >= 0)
                || !$0.durationMilliseconds.isFinite || !$0.bandwidthKilobitsPerSecond.isFinite
                || !$0.latencyMilliseconds.isFinite
        }) {
            throw .unusableTrace(name: name, reason: "sample \(bad) has a negative or non-finite value")
        }
        self.name = name
        // Zero-length periods never hold time; dropping them changes nothing and keeps the walk simple.
        self.periods = periods.filter { $0.durationMilliseconds > 0 }
    }

    /// A constant network: one period of `bandwidth` and `latency`, looped forever.
    public static func constant(bitsPerSecond: Double, latencySeconds: Double) throws(SimulationError) -> NetworkTrace {
        try NetworkTrace(
            name: "constant \(Int(bitsPerSecond / 1000)) kbps, \(Int((latencySeconds * 1000).rounded())) ms",
            periods: [Period(durationMilliseconds: 1_000_000, bandwidthKilobitsPerSecond: bitsPerSecond / 1000,
                             latencyMilliseconds: latencySeconds * 1000)])
    }

    /// Length of one pass over the trace, milliseconds.
    public var durationMilliseconds: Double { periods.reduce(0) { $0 + $1.durationMilliseconds } }

    /// Time-averaged bandwidth of one pass, kbit/s.
    public var meanBandwidthKilobitsPerSecond: Double {
        periods.reduce(0) { $0 + $1.durationMilliseconds * $1.bandwidthKilobitsPerSecond } / durationMilliseconds
    }
}

extension NetworkTrace {
    private struct File: Decodable {
        struct Sample: Decodable {
            var duration_ms: Double
            var bandwidth_kbps: Double
            var latency_ms: Double
        }
        var name: String?
        var samples: [Sample]
    }

    /// Decodes a trace file: the normalised object (`{"name", "samples": [...]}`) or a bare Sabre sample list.
    /// `fallbackName` names the trace when the file does not (e.g. the file name).
    public init(json: Data, fallbackName: String) throws(SimulationError) {
        let decoder = JSONDecoder()
        let name: String
        let samples: [File.Sample]
        if let file = try? decoder.decode(File.self, from: json) {
            name = file.name ?? fallbackName
            samples = file.samples
        } else if let list = try? decoder.decode([File.Sample].self, from: json) {
            name = fallbackName
            samples = list
        } else {
            throw .invalidInput(
                what: fallbackName,
                reason: "not a trace: expected {\"samples\": [{\"duration_ms\", \"bandwidth_kbps\", \"latency_ms\"}…]}")
        }
        try self.init(
            name: name,
            periods: samples.map {
                Period(durationMilliseconds: $0.duration_ms, bandwidthKilobitsPerSecond: $0.bandwidth_kbps,
                       latencyMilliseconds: $0.latency_ms)
            })
    }
}
