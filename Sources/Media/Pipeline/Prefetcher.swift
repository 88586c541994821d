import Foundation
import Synchronization

/// Makes the items of a sequence ahead of their use, on a worker thread: `next()` hands them over in
/// order while the worker already makes the following ones (at most `depth` waiting). For work that does
/// not depend on the consumer, e.g. drawing the next camera frame while this one is filtered, so the
/// single-threaded drawing overlaps the multi-threaded filter and the encoders.
///
///     let frames = Prefetcher(depth: 2) { index in index < count ? camera.frame(at: index) : nil }
///     while let frame = frames.next() { … }
///
/// The sequence ends at the first nil. Dropping the prefetcher stops the worker after the item it is
/// making. Confined to the consuming thread.
public final class Prefetcher<Item: Sendable> {
    private final class Shared: Sendable {
        let queue: WorkQueue<Item?>
        let cancelled = Atomic<Bool>(false)
        init(depth: Int) { queue = WorkQueue(capacity: depth) }
    }

    private let shared: Shared
    private var ended = false

    /// Starts the worker: it calls `make(0)`, `make(1)`, … until one returns nil.
    public init(depth: Int = 2, name: String = "prefetch", _ make: @escaping @Sendable (Int) -> Item?) {
        let shared = Shared(depth: depth)
        self.shared = shared
        let thread = Thread {
            var index = 0
            while !shared.cancelled.load(ordering: .relaxed) {
                let item = make(index)
                shared.queue.push(item)
                if item == nil { return }
                index += 1
            }
        }
        thread.name = name
        thread.start()
    }

    deinit {
        shared.cancelled.store(true, ordering: .relaxed)
        shared.queue.removeAll()
    }

    /// The next item (waiting for the worker if it is not ready), or nil at the end.
    public func next() -> Item? {
        guard !ended else { return nil }
        guard let item = shared.queue.pop() else {
            ended = true
            return nil
        }
        return item
    }
}
