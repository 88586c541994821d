import CLIKit
import Foundation
import JSON

/// The clocks and the median the benchmarks share.
enum Measuring {
    /// CPU seconds of the calling thread: other processes on the cores do not count.
    static func threadCPUSeconds() -> Double { seconds(on: CLOCK_THREAD_CPUTIME_ID) }

    /// CPU seconds of this process, all its threads together.
    static func processCPUSeconds() -> Double { seconds(on: CLOCK_PROCESS_CPUTIME_ID) }

    /// User + system CPU seconds of this process's finished (waited-for) children.
    static func childrenCPUSeconds() -> Double {
        var usage = rusage()
        getrusage(RUSAGE_CHILDREN.rawValue, &usage)
        func seconds(_ time: timeval) -> Double { Double(time.tv_sec) + Double(time.tv_usec) / 1_000_000 }
        return seconds(usage.ru_utime) + seconds(usage.ru_stime)
    }

    private static func seconds(on clock: clockid_t) -> Double {
        var time = timespec()
        clock_gettime(clock, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
    }

    /// The median of `values`: the middle one, or the mean of the middle two for an even count (0 when empty).
    static func median(_ values: [Double]) -> Double {
        let sorted = values.sorted()
        guard !sorted.isEmpty else { return 0 }
        let middle = sorted.count / 2
        return sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
    }
}

/// The last line every benchmark prints: one JSON object, `{"bench":NAME,…}`, written with the project's JSON
/// type.
enum ResultLine {
    /// `value` rounded to `places` decimals, or null when it was not measured.
    static func number(_ value: Double?, places: Int = 2) -> JSONValue {
        guard let value, value.isFinite else { return .null }
        if places == 0, abs(value) < 1e15 { return .integer(Int(value.rounded())) }
        let scale = (0..<places).reduce(1.0) { factor, _ in factor * 10 }
        return .number((value * scale).rounded() / scale)
    }

    static func print(_ bench: String, _ fields: [(String, JSONValue)]) {
        Swift.print(JSONValue.object([("bench", .string(bench))] + fields).rendered(indent: nil))
    }
}

extension JSONValue {
    /// The value as a number, integral or not (a child's JSON output read back), or nil.
    var doubleValue: Double? {
        switch self {
        case .integer(let value): Double(value)
        case .number(let value): value
        default: nil
        }
    }
}
