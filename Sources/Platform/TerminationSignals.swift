#if canImport(Glibc)
    import Glibc
#endif

/// SIGINT and SIGTERM as events to wait for: `block()` before any thread starts (threads inherit the mask, so
/// the signals stay pending instead of killing the process), then `wait()` on the main thread.
public enum TerminationSignals {
    private static func set() -> sigset_t {
        var signals = sigset_t()
        sigemptyset(&signals)
        sigaddset(&signals, SIGINT)
        sigaddset(&signals, SIGTERM)
        return signals
    }

    /// Blocks SIGINT and SIGTERM in the calling thread (and every thread it starts afterwards).
    public static func block() {
        var signals = set()
        pthread_sigmask(SIG_BLOCK, &signals, nil)
    }

    /// Waits for SIGINT or SIGTERM and returns its number.
    public static func wait() -> Int32 {
        var signals = set()
        var received: Int32 = 0
        while sigwait(&signals, &received) != 0 {}
        return received
    }
}
