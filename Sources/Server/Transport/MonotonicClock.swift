#if canImport(Glibc)
    import Glibc
#endif

/// Milliseconds of the system's monotonic clock (deadlines never jump with the wall clock).
enum MonotonicClock {
    static func milliseconds() -> Int64 {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        return Int64(now.tv_sec) * 1000 + Int64(now.tv_nsec) / 1_000_000
    }
}
