import Dispatch

/// Splits `0..<count` rows into contiguous bands and runs `body` on each, on up to `threads` cores:
/// `bandsPerThread` bands per core (several, so a core that finishes early, or was descheduled less, takes
/// another band; fewer where each band recomputes rows at its edges).
///
/// Dispatch's `concurrentPerform` is used (pure computation, no I/O); with `threads == 1` the bands run
/// in order on the calling thread, which the single-threaded benchmark relies on.
enum RowBands {
    static func run(count: Int, threads: Int, bandsPerThread: Int = 4, _ body: (Range<Int>) -> Void) {
        guard count > 0 else { return }
        let bandCount = threads <= 1 ? 1 : min(count, threads * bandsPerThread)
        if bandCount == 1 {
            body(0..<count)
            return
        }
        // The bands write disjoint rows of buffers the caller owns for the duration of this call.
        nonisolated(unsafe) let body = body
        DispatchQueue.concurrentPerform(iterations: bandCount) { band in
            let start = count * band / bandCount, end = count * (band + 1) / bandCount
            if start < end { body(start..<end) }
        }
    }
}
