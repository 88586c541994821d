import Foundation
import Synchronization

/// Makes the items of a sequence ahead of their use, on worker threads: `next()` hands them over in
/// order while the workers already make the following ones. For work that does not depend on the
/// consumer, e.g. drawing the next camera frames while this one is filtered, so single-threaded drawing
/// overlaps the multi-threaded filter and the encoders, and with several workers is no longer capped by
/// one core.
///
///     let frames = Prefetcher(workers: 2) { index in index < count ? camera.frame(at: index) : nil }
///     while let frame = frames.next() { … }
///
/// With `workers` = k, worker w makes items w, w + k, w + 2k, … (at most `depth` waiting each), so `make`
/// must not depend on the order of calls. The sequence ends at the first nil. Dropping the prefetcher
/// stops the workers after the item each is making. Confined to the consuming thread.
final class Prefetcher<Item: Sendable> {
    private final class Shared: Sendable {
        /// One queue per worker; item i is in queue i % workers.
        let queues: [WorkQueue<Item?>]
        let cancelled = Atomic<Bool>(false)
        init(workers: Int, depth: Int) { queues = (0..<workers).map { _ in WorkQueue(capacity: depth) } }
    }

    private let shared: Shared
    private var index = 0
    private var ended = false

    /// Starts the workers: together they call `make(0)`, `make(1)`, … until one returns nil.
    init(
        workers: Int = 1, depth: Int = 2, name: String = "prefetch", _ make: @escaping @Sendable (Int) -> Item?
    ) {
        let count = max(1, workers)
        let shared = Shared(workers: count, depth: depth)
        self.shared = shared
        for worker in 0..<count {
            let thread = Thread {
                var index = worker
                while !shared.cancelled.load(ordering: .relaxed) {
                    let item = make(index)
                    shared.queues[worker].push(item)
                    if item == nil { return }
                    index += count
                }
            }
            thread.name = "\(name)-\(worker)"
            thread.start()
        }
    }

    deinit {
        shared.cancelled.store(true, ordering: .relaxed)
        for queue in shared.queues { queue.removeAll() }
    }

    /// The next item (waiting for its worker if it is not ready), or nil at the end.
    func next() -> Item? {
        guard !ended else { return nil }
        guard let item = shared.queues[index % shared.queues.count].pop() else {
            ended = true
            return nil
        }
        index += 1
        return item
    }
}
