import Foundation

/// A thread that handles a mailbox's events as soon as they are posted, instead of when the thread feeding the
/// encoders next looks (which may be blocked handing a picture to a full queue). Low-latency recording uses it
/// so that a part is listed within moments of its file being renamed into place.
final class EventPump: Sendable {
    private let stopped = Mailbox<Bool>()
    private let done = Mailbox<Bool>()

    /// Starts the thread: `handle()` runs whenever `mailbox` has something, and at least every 50 ms.
    init<Element: Sendable>(_ mailbox: Mailbox<Element>, handle: @escaping @Sendable () -> Void) {
        let stopped = self.stopped, done = self.done
        let thread = Thread {
            while stopped.isEmpty {
                mailbox.waitUntilNotEmpty(timeoutSeconds: 0.05)
                handle()
            }
            done.post(true)
        }
        thread.name = "publisher"
        thread.start()
    }

    /// Stops the thread and waits for it (idempotent after the first call returns).
    func stop() {
        guard stopped.isEmpty else { return }
        stopped.post(true)
        _ = done.waitAndTakeAll()
    }
}

/// A weak reference that may cross to another thread; the object it names does its own locking.
final class WeakReference<Object: AnyObject>: @unchecked Sendable {
    weak var object: Object?
    init(_ object: Object) { self.object = object }
}
