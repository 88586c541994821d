import Foundation
import JSON

extension NetworkTrace {
    /// Decodes a trace file: the normalised object (`{"name", "samples": [...]}`) or a bare Sabre sample list,
    /// each sample `{"duration_ms", "bandwidth_kbps", "latency_ms"}` (other keys are ignored). `fallbackName`
    /// names the trace when the file does not (e.g. the file name). Read with the strict `JSONValue` reader, so
    /// a fault names its line (`samples[3].bandwidth_kbps: 1e309 is out of the range of a number at line 5`).
    public init(json: [UInt8], fallbackName: String) throws(TraceError) {
        let root: JSONValue
        do {
            root = try JSONValue(parsing: json)
        } catch {
            guard !error.isSyntaxError else {
                throw .invalid(what: fallbackName, reason: "not a trace: not valid JSON: \(error.description)")
            }
            // A bare Sabre list is the samples themselves: name its items as in the normalised object.
            let path = error.path.hasPrefix("[") ? "samples" + error.path : error.path
            throw .invalid(what: "trace \(fallbackName)", reason: "\(path): \(error.detail)")
        }
        let name: String
        let samples: [JSONValue]
        switch root {
        case .array(let list):
            name = fallbackName
            samples = list
        case .object:
            guard case .array(let list)? = root["samples"] else {
                throw .invalid(
                    what: fallbackName,
                    reason:
                        "not a trace: expected {\"samples\": [{\"duration_ms\", \"bandwidth_kbps\", \"latency_ms\"}…]}")
            }
            if case .string(let given)? = root["name"] { name = given } else { name = fallbackName }
            samples = list
        default:
            throw .invalid(
                what: fallbackName, reason: "not a trace: expected an object with \"samples\" or a list of samples")
        }
        guard samples.count <= TraceLimits.maximumPeriods else {
            throw .unusable(
                name: name, reason: "\(samples.count) samples; a trace has at most \(TraceLimits.maximumPeriods)")
        }
        var periods: [Period] = []
        periods.reserveCapacity(samples.count)
        for (index, sample) in samples.enumerated() {
            func field(_ key: String) throws(TraceError) -> Double {
                guard let value = sample[key] else {
                    throw .invalid(what: "trace \(name)", reason: "samples[\(index)] has no \(key)")
                }
                guard let number = value.traceNumber else {
                    throw .invalid(what: "trace \(name)", reason: "samples[\(index)].\(key) is not a number")
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

    public init(json: Data, fallbackName: String) throws(TraceError) {
        try self.init(json: [UInt8](json), fallbackName: fallbackName)
    }
}

extension JSONValue {
    /// The value as a number (JSON does not tell integers from decimals), or nil.
    /// (Also read by the simulator's manifest reader.)
    public var traceNumber: Double? {
        switch self {
        case .integer(let value): Double(value)
        case .number(let value): value
        default: nil
        }
    }
}
