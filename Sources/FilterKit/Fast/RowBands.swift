import Parallel

/// Splits `0..<count` rows into contiguous bands and runs `body` on each, on the threads the caller lent:
/// `bandsPerThread` bands per lent thread (several, so a thread that finishes early, or was descheduled less,
/// takes another band; fewer where each band recomputes rows at its edges). FilterKit starts no thread of its
/// own; with `LentThreads.callingThread` the bands run in order on the calling thread, which the
/// single-threaded benchmark relies on.
enum RowBands {
    static func run(count: Int, threads: LentThreads, bandsPerThread: Int = 4, _ body: (Range<Int>) -> Void) {
        let bands = ranges(count: count, threads: threads.width, bandsPerThread: bandsPerThread)
        jobs(bands.count, threads: threads) { body(bands[$0]) }
    }

    /// The bands `run` hands out, in order (none when `count` is 0).
    static func ranges(count: Int, threads: Int, bandsPerThread: Int = 4) -> [Range<Int>] {
        guard count > 0 else { return [] }
        let bandCount = threads <= 1 ? 1 : min(count, threads * bandsPerThread)
        return (0..<bandCount).map { count * $0 / bandCount..<count * ($0 + 1) / bandCount }.filter { !$0.isEmpty }
    }

    /// Runs `body(job)` for every job in `0..<count` on the lent threads. Jobs are taken in increasing order
    /// (each thread takes the next one when it finishes its own), so a job may wait for work that earlier jobs
    /// do: every earlier job has been taken by a running thread by then. One thread runs them in order.
    static func jobs(_ count: Int, threads: LentThreads, _ body: (Int) -> Void) {
        threads.run(count, body)
    }
}
