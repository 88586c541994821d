import Glibc

/// Starts POSIX threads running Swift closures, for work that must not sit in Dispatch's pool: event loops
/// that run for the life of a server, and blocking jobs (a network request), where a blocked pool worker could
/// starve the queues the host process answers on.
public enum ThreadStarter {
    private final class Box {
        let body: () -> Void
        init(_ body: @escaping () -> Void) { self.body = body }
    }

    /// A joinable thread running `body`: its handle for `pthread_join`, nil when it could not be started.
    public static func start(_ body: @escaping @Sendable () -> Void) -> pthread_t? {
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

    /// A detached thread running `body`; false when it could not be started (then `body` never runs).
    @discardableResult
    public static func detach(_ body: @escaping @Sendable () -> Void) -> Bool {
        guard let thread = start(body) else { return false }
        pthread_detach(thread)
        return true
    }
}
