import CLIKit
import Foundation

/// Runs `count` blocking jobs on at most `concurrency` threads of their own (loads wait on the network;
/// Dispatch's pool would starve the queues URLSession answers on), and returns the results in job order.
/// `progress` is called on the calling thread with the number done, at most every `progressInterval` seconds.
enum BoundedWorkers {
    static func run<Result: Sendable>(
        count: Int, concurrency: Int, progressInterval: Double = 0.2, progress: (Int) -> Void = { _ in },
        _ job: @escaping @Sendable (Int) -> Result
    ) -> [Result] {
        guard count > 0 else { return [] }
        let state = SharedQueue<Result>(count: count)
        let done = DispatchSemaphore(value: 0)
        let workers = max(1, min(concurrency, count))
        for _ in 0..<workers {
            Thread.detachNewThread {
                while let index = state.next() { state.finish(index, job(index)) }
                done.signal()
            }
        }
        var finishedWorkers = 0
        while finishedWorkers < workers {
            if done.wait(timeout: .now() + progressInterval) == .success {
                finishedWorkers += 1
            }
            progress(state.doneCount)
        }
        return state.results
    }
}

/// The next job index and the results, under one lock.
private final class SharedQueue<Result: Sendable>: @unchecked Sendable {
    private let lock = NSLock()
    private var nextIndex = 0
    private var finished = 0
    private var slots: [Result?]

    init(count: Int) { slots = Array(repeating: nil, count: count) }

    func next() -> Int? {
        lock.withLock {
            guard nextIndex < slots.count else { return nil }
            defer { nextIndex += 1 }
            return nextIndex
        }
    }

    func finish(_ index: Int, _ result: Result) {
        lock.withLock {
            slots[index] = result
            finished += 1
        }
    }

    var doneCount: Int { lock.withLock { finished } }
    var results: [Result] { lock.withLock { slots.compactMap { $0 } } }
}
