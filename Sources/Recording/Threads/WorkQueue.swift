import Foundation

/// A bounded first-in first-out queue between threads: `push` waits while it is full (back-pressure on
/// the producer), `pop` waits while it is empty. Holds only `Sendable` values.
final class WorkQueue<Element: Sendable>: @unchecked Sendable {
    private let condition = NSCondition()
    /// Waiting elements from `head` on; taken slots are cleared at once, so the queue never keeps a
    /// popped element (a frame buffer) alive.
    private var items: [Element?] = []
    private var head = 0
    private let capacity: Int

    init(capacity: Int) { self.capacity = max(1, capacity) }

    func push(_ element: Element) {
        condition.lock()
        while items.count - head >= capacity { condition.wait() }
        items.append(element)
        condition.broadcast()
        condition.unlock()
    }

    func pop() -> Element {
        condition.lock()
        while items.count - head == 0 { condition.wait() }
        let element = items[head].take()!
        head += 1
        if head > 64 && head * 2 > items.count {
            items.removeFirst(head)
            head = 0
        }
        condition.broadcast()
        condition.unlock()
        return element
    }

    /// Drops everything waiting (unblocking a producer waiting in `push`).
    func removeAll() {
        condition.lock()
        items = []
        head = 0
        condition.broadcast()
        condition.unlock()
    }
}

/// An unbounded mailbox: workers post, the coordinating thread takes everything posted so far.
final class Mailbox<Element: Sendable>: @unchecked Sendable {
    private let condition = NSCondition()
    private var items: [Element] = []

    func post(_ element: Element) {
        condition.lock()
        items.append(element)
        condition.broadcast()
        condition.unlock()
    }

    /// Everything posted since the last call (possibly nothing); never waits.
    func takeAll() -> [Element] {
        condition.lock()
        defer { condition.unlock() }
        let taken = items
        items = []
        return taken
    }

    /// True when nothing is waiting to be taken.
    var isEmpty: Bool {
        condition.lock()
        defer { condition.unlock() }
        return items.isEmpty
    }

    /// Waits until something was posted (without taking it) or `timeoutSeconds` passed.
    func waitUntilNotEmpty(timeoutSeconds: Double) {
        condition.lock()
        defer { condition.unlock() }
        let deadline = Date().addingTimeInterval(timeoutSeconds)
        while items.isEmpty && condition.wait(until: deadline) {}
    }

    /// Waits until something was posted, then takes everything.
    func waitAndTakeAll() -> [Element] {
        condition.lock()
        defer { condition.unlock() }
        while items.isEmpty { condition.wait() }
        let taken = items
        items = []
        return taken
    }
}
