import Dispatch

/// Splits `0..<count` rows into contiguous bands and runs `body` on each, on up to `threads` cores:
/// `bandsPerThread` bands per core (several, so a core that finishes early, or was descheduled less, takes
/// another band; fewer where each band recomputes rows at its edges).
///
/// Dispatch's `concurrentPerform` is used (pure computation, no I/O); with `threads == 1` the bands run
/// in order on the calling thread, which the single-threaded benchmark relies on.
enum RowBands {
    static func run(count: Int, threads: Int, bandsPerThread: Int = 4, _ body: (Range<Int>) -> Void) {
        let bands = ranges(count: count, threads: threads, bandsPerThread: bandsPerThread)
        jobs(bands.count, threads: threads) { body(bands[$0]) }
    }

    /// The bands `run` hands out, in order (none when `count` is 0).
    static func ranges(count: Int, threads: Int, bandsPerThread: Int = 4) -> [Range<Int>] {
        guard count > 0 else { return [] }
        let bandCount = threads <= 1 ? 1 : min(count, threads * bandsPerThread)
        return (0..<bandCount).map { count * $0 / bandCount..<count * ($0 + 1) / bandCount }.filter { !$0.isEmpty }
    }

    /// Runs `body(job)` for every job in `0..<count` on up to `threads` cores. Jobs are taken in increasing order
    /// (each core takes the next one when it finishes its own), so a job may wait for work that earlier jobs
    /// do: every earlier job has been taken by a running core by then. One thread runs them in order.
    static func jobs(_ count: Int, threads: Int, _ body: (Int) -> Void) {
        if threads <= 1 || count <= 1 {
            for job in 0..<count { body(job) }
            return
        }
        // The jobs write disjoint parts of buffers the caller owns for the duration of this call.
        nonisolated(unsafe) let body = body
        DispatchQueue.concurrentPerform(iterations: count) { body($0) }
    }
}
