import Foundation

/// The clocks and the median the benchmarks share.
enum Measuring {
    /// CPU seconds of the calling thread: other processes on the cores do not count.
    static func threadCPUSeconds() -> Double { seconds(on: CLOCK_THREAD_CPUTIME_ID) }

    /// CPU seconds of this process, all its threads together.
    static func processCPUSeconds() -> Double { seconds(on: CLOCK_PROCESS_CPUTIME_ID) }

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
