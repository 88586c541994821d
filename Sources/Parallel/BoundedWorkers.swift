import Dispatch
import Synchronization

/// Runs `count` blocking jobs on at most `concurrency` threads of their own (loads wait on the network, and
/// blocked Dispatch workers would starve the queues the host process answers on), and returns the results in
/// job order. `progress` is called on the calling thread with the number done, at most every
/// `progressInterval` seconds and once at the end.
///
///     let sizes = BoundedWorkers.run(count: urls.count, concurrency: 8) { index in fetchSize(urls[index]) }
public enum BoundedWorkers {
    public static func run<Result: Sendable>(
        count: Int, concurrency: Int, progressInterval: Double = 0.2, progress: (Int) -> Void = { _ in },
        _ job: @escaping @Sendable (Int) -> Result
    ) -> [Result] {
        guard count > 0 else { return [] }
        let queue = JobQueue(count: count)
        let results = ResultSlots<Result>(count: count)
        let done = DispatchSemaphore(value: 0)
        let work: @Sendable () -> Void = {
            while let index = queue.next() {
                results.set(index, job(index))
                queue.finish()
            }
        }
        var workers = 0
        for _ in 0..<max(1, min(concurrency, count)) {
            guard
                ThreadStarter.detach({
                    work()
                    done.signal()
                })
            else { break }
            workers += 1
        }
        // No thread at all could be started: the jobs run here, one after another.
        if workers == 0 { work() }
        var finishedWorkers = 0
        while finishedWorkers < workers {
            if done.wait(timeout: .now() + progressInterval) == .success {
                finishedWorkers += 1
            }
            progress(queue.doneCount)
        }
        return results.values
    }
}

/// The next job index and the number of jobs done.
private final class JobQueue: Sendable {
    private let state: Mutex<(next: Int, done: Int)> = Mutex((0, 0))
    private let count: Int

    init(count: Int) { self.count = count }

    func next() -> Int? {
        state.withLock { state in
            guard state.next < count else { return nil }
            defer { state.next += 1 }
            return state.next
        }
    }

    func finish() { state.withLock { $0.done += 1 } }

    var doneCount: Int { state.withLock { $0.done } }
}
