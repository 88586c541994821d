import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// Ctrl-C for long recordings: SIGINT/SIGTERM are counted instead of killing the process, so the
/// recording can finish its segment and finalise its playlists. A second signal asks to stop at once.
public enum StopSignal {
    private static let count = Atomic<Int>(0)

    /// How many stop signals arrived since `install()`.
    public static var received: Int { count.load(ordering: .relaxed) }

    /// Starts counting SIGINT and SIGTERM (replacing the default "terminate" action).
    public static func install() {
        count.store(0, ordering: .relaxed)
        signal(SIGINT, { _ in StopSignal.count.add(1, ordering: .relaxed) })
        signal(SIGTERM, { _ in StopSignal.count.add(1, ordering: .relaxed) })
        // A parent may have started us with these signals blocked (the mask is inherited).
        var set = sigset_t()
        sigemptyset(&set)
        sigaddset(&set, SIGINT)
        sigaddset(&set, SIGTERM)
        pthread_sigmask(SIG_UNBLOCK, &set, nil)
    }

    /// Restores the default actions.
    public static func uninstall() {
        signal(SIGINT, SIG_DFL)
        signal(SIGTERM, SIG_DFL)
    }
}
