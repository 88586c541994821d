#if canImport(Glibc)
    import Glibc
#endif

/// Starts a joinable POSIX thread running `body` (the server module does without Foundation's `Thread`).
struct ThreadStarter {
    private final class Box {
        let body: () -> Void
        init(_ body: @escaping () -> Void) { self.body = body }
    }

    /// The thread's handle for `pthread_join`, nil when it could not be started.
    static func start(_ body: @escaping @Sendable () -> Void) -> pthread_t? {
        let box = Unmanaged.passRetained(Box(body)).toOpaque()
        var thread = pthread_t()
        let started = pthread_create(
            &thread, nil,
            { context in
                let box = Unmanaged<Box>.fromOpaque(context!).takeRetainedValue()
                box.body()
                return nil
            }, box)
        guard started == 0 else {
            Unmanaged<Box>.fromOpaque(box).release()
            return nil
        }
        return thread
    }
}
