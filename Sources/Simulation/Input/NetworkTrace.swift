import Foundation
import HLS
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

    /// A trace; fails when a value is outside `SimulationLimits` (duration 0 or 1 ms … 24 h, bandwidth 0 or
    /// 1 bit/s … 100 Gbit/s, latency 0 … 60 s, at most a million periods) or when it could never deliver a
    /// byte (no period with both time and bandwidth).
    public init(name: String, periods: [Period]) throws(SimulationError) {
        guard periods.count <= SimulationLimits.maximumPeriods else {
            throw .unusableTrace(
                name: name, reason: "\(periods.count) samples; a trace has at most \(SimulationLimits.maximumPeriods)")
        }
        for (index, period) in periods.enumerated() {
            try Self.check(
                period.durationMilliseconds, zeroOr: SimulationLimits.periodMilliseconds, unit: "ms",
                field: "samples[\(index)].duration_ms", trace: name)
            try Self.check(
                period.bandwidthKilobitsPerSecond, zeroOr: SimulationLimits.periodKilobitsPerSecond,
                unit: "kbit/s (0 is an outage)", field: "samples[\(index)].bandwidth_kbps", trace: name)
            let latency = period.latencyMilliseconds
            guard SimulationLimits.latencyMilliseconds.contains(latency) else {
                throw .outOfRange(
                    what: "trace \(name)", field: "samples[\(index)].latency_ms", value: latency,
                    allowed: SimulationLimits.text(SimulationLimits.latencyMilliseconds, "ms"))
            }
        }
        guard periods.contains(where: { $0.durationMilliseconds > 0 && $0.bandwidthKilobitsPerSecond > 0 }) else {
            throw .unusableTrace(name: name, reason: "no period with a positive duration and bandwidth")
        }
        self.name = name
        // Zero-length periods never hold time; dropping them changes nothing and keeps the walk simple.
        self.periods = periods.filter { $0.durationMilliseconds > 0 }
    }

    /// `value` must be 0 or lie in `range` (NaN and infinities never do).
    private static func check(
        _ value: Double, zeroOr range: ClosedRange<Double>, unit: String, field: String, trace: String
    ) throws(SimulationError) {
        guard value == 0 || range.contains(value) else {
            throw .outOfRange(
                what: "trace \(trace)", field: field, value: value,
                allowed: "0 or " + SimulationLimits.text(range, unit))
        }
    }

    /// A constant network: one period of `bandwidth` and `latency`, looped forever.
    public static func constant(bitsPerSecond: Double, latencySeconds: Double) throws(SimulationError) -> NetworkTrace {
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

extension NetworkTrace {
    /// Decodes a trace file: the normalised object (`{"name", "samples": [...]}`) or a bare Sabre sample list,
    /// each sample `{"duration_ms", "bandwidth_kbps", "latency_ms"}` (other keys are ignored). `fallbackName`
    /// names the trace when the file does not (e.g. the file name). Read with the strict `JSONValue` reader, so
    /// a fault names its line (`samples[3].bandwidth_kbps: 1e309 is out of the range of a number at line 5`).
    public init(json: [UInt8], fallbackName: String) throws(SimulationError) {
        let root: JSONValue
        do {
            root = try JSONValue(parsing: json)
        } catch {
            guard !error.isSyntaxError else {
                throw .invalidInput(what: fallbackName, reason: "not a trace: not valid JSON: \(error.description)")
            }
            // A bare Sabre list is the samples themselves: name its items as in the normalised object.
            let path = error.path.hasPrefix("[") ? "samples" + error.path : error.path
            throw .invalidInput(what: "trace \(fallbackName)", reason: "\(path): \(error.detail)")
        }
        let name: String
        let samples: [JSONValue]
        switch root {
        case .array(let list):
            name = fallbackName
            samples = list
        case .object:
            guard case .array(let list)? = root["samples"] else {
                throw .invalidInput(
                    what: fallbackName,
                    reason:
                        "not a trace: expected {\"samples\": [{\"duration_ms\", \"bandwidth_kbps\", \"latency_ms\"}…]}")
            }
            if case .string(let given)? = root["name"] { name = given } else { name = fallbackName }
            samples = list
        default:
            throw .invalidInput(
                what: fallbackName, reason: "not a trace: expected an object with \"samples\" or a list of samples")
        }
        guard samples.count <= SimulationLimits.maximumPeriods else {
            throw .unusableTrace(
                name: name, reason: "\(samples.count) samples; a trace has at most \(SimulationLimits.maximumPeriods)")
        }
        var periods: [Period] = []
        periods.reserveCapacity(samples.count)
        for (index, sample) in samples.enumerated() {
            func field(_ key: String) throws(SimulationError) -> Double {
                guard let value = sample[key] else {
                    throw .invalidInput(what: "trace \(name)", reason: "samples[\(index)] has no \(key)")
                }
                guard let number = value.simulationNumber else {
                    throw .invalidInput(what: "trace \(name)", reason: "samples[\(index)].\(key) is not a number")
                }
                return number
            }
            periods.append(
                Period(
                    durationMilliseconds: try field("duration_ms"),
                    bandwidthKilobitsPerSecond: try field("bandwidth_kbps"),
                    latencyMilliseconds: try field("latency_ms")))
        }
        try self.init(name: name, periods: periods)
    }

    public init(json: Data, fallbackName: String) throws(SimulationError) {
        try self.init(json: [UInt8](json), fallbackName: fallbackName)
    }
}

extension JSONValue {
    /// The value as a number (JSON does not tell integers from decimals), or nil.
    var simulationNumber: Double? {
        switch self {
        case .integer(let value): Double(value)
        case .number(let value): value
        default: nil
        }
    }
}
