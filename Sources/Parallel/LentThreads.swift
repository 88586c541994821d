import Dispatch
import Glibc

/// Threads a program lends to a pure module that starts none of its own (FilterKit's row bands, a batch of
/// simulations), as `ParallelPair` lends two to the playlist parser: `run(count) { job in … }` calls `job` once
/// for each of `0..<count`, several at once when the lender has threads, and returns when all have finished.
/// `width` is how many threads the lender offers, which the borrower cuts its work for. `callingThread` runs the
/// jobs one after another on the caller's thread: a module given nothing stays on it.
///
///     let threads = LentThreads.dispatch(width: 4)  // the CLI lends four
///     threads.run(bands.count) { render(bands[$0]) }
public struct LentThreads: Sendable {
    public let width: Int
    private let perform: @Sendable (_ count: Int, _ job: (Int) -> Void) -> Void

    public init(width: Int, perform: @escaping @Sendable (_ count: Int, _ job: (Int) -> Void) -> Void) {
        self.width = max(1, width)
        self.perform = perform
    }

    public static let callingThread = LentThreads(width: 1) { count, job in
        for index in 0..<count { job(index) }
    }

    /// Dispatch's worker threads (for computation only: a job that blocks would hold a worker the process's
    /// queues need; blocking jobs go to `BoundedWorkers`). Jobs are taken in increasing order.
    public static func dispatch(width: Int) -> LentThreads {
        guard width > 1 else { return .callingThread }
        return LentThreads(width: width) { count, job in
            // The jobs touch only what the caller owns for the duration of this call.
            nonisolated(unsafe) let job = job
            DispatchQueue.concurrentPerform(iterations: count) { job($0) }
        }
    }

    /// Dispatch's worker threads, as many as the machine has cores online.
    public static var allCores: LentThreads { dispatch(width: Int(sysconf(Int32(_SC_NPROCESSORS_ONLN)))) }

    /// Runs `job(index)` for every index of `0..<count` and returns when all have finished.
    public func run(_ count: Int, _ job: (Int) -> Void) {
        if width <= 1 || count <= 1 {
            for index in 0..<count { job(index) }
            return
        }
        perform(count, job)
    }
}
