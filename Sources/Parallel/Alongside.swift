import Glibc

/// Two pieces of work at the same time: `second` on a thread of its own while `first` runs on the calling
/// thread; returns when both have finished. If no thread can be started, `second` runs after `first` here.
///
///     Alongside.run({ parseFirstHalf() }, { parseSecondHalf() })
public enum Alongside {
    public static func run(_ first: () -> Void, _ second: @escaping @Sendable () -> Void) {
        guard let thread = ThreadStarter.start(second) else {
            first()
            second()
            return
        }
        first()
        pthread_join(thread, nil)
    }
}
