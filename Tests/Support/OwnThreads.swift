import Foundation

/// Blocking work (child processes, sockets, sleeps) on threads of its own: on Swift's cooperative threads
/// or dispatch workers it would starve, or be starved by, the other tests of a busy test process.
public enum OwnThreads {
    /// Runs `body` on every item, `width` at a time, each on a new thread; returns the results in order.
    public static func map<Item: Sendable, Result: Sendable>(
        _ items: [Item], width: Int, _ body: @escaping @Sendable (Item) -> Result
    ) -> [Result] {
        let slots = ResultSlots<Result>(items.count)
        let gate = DispatchSemaphore(value: width)
        let group = DispatchGroup()
        for (index, item) in items.enumerated() {
            gate.wait()
            group.enter()
            Thread.detachNewThread {
                let result = body(item)
                slots.lock.lock()
                slots.results[index] = result
                slots.lock.unlock()
                gate.signal()
                group.leave()
            }
        }
        group.wait()
        return slots.results.map { $0! }
    }
}

/// Results written by worker threads, one slot each, under a lock.
private final class ResultSlots<Result>: @unchecked Sendable {
    var results: [Result?]
    let lock = NSLock()
    init(_ count: Int) { results = Array(repeating: nil, count: count) }
}
