import Foundation
import Testing

@testable import Recording

@Suite struct PrefetcherTests {
    @Test func handsOverEveryItemInOrderThenNil() {
        let squares = Prefetcher(depth: 2) { index in index < 50 ? index * index : nil }
        var seen: [Int] = []
        while let item = squares.next() { seen.append(item) }
        #expect(seen == (0..<50).map { $0 * $0 })
        #expect(squares.next() == nil, "stays ended")
    }

    @Test(arguments: [2, 3])
    func severalWorkersStillHandOverInOrder(_ workers: Int) {
        let squares = Prefetcher(workers: workers, depth: 1) { index in index < 50 ? index * index : nil }
        var seen: [Int] = []
        while let item = squares.next() { seen.append(item) }
        #expect(seen == (0..<50).map { $0 * $0 })
    }

    /// Without the stop, the worker would wait for ever on the full queue, holding its closure.
    @Test func droppingItEarlyStopsTheWorker() throws {
        final class Token: Sendable {}
        var token: Token? = Token()
        weak var watched = token
        do {
            let numbers = Prefetcher(workers: 2, depth: 2) { [token] index -> Int? in
                _ = token
                return index
            }
            token = nil
            #expect(numbers.next() == 0)
        }
        let deadline = ContinuousClock.now + .seconds(20)
        while watched != nil && ContinuousClock.now < deadline { Thread.sleep(forTimeInterval: 0.01) }
        #expect(watched == nil, "the worker thread still holds its closure")
    }
}

@Suite struct WorkQueueTests {
    final class Buffer: Sendable {}

    /// A frame buffer handed through the queue must be freed once the consumer drops it (so buffers can
    /// be reused without copy-on-write copies, and memory stays bounded by the capacity).
    @Test func keepsNoReferenceToWhatWasPopped() {
        let queue = WorkQueue<Buffer>(capacity: 3)
        weak var watched: Buffer?
        do {
            let buffer = Buffer()
            watched = buffer
            queue.push(buffer)
        }
        do { _ = queue.pop() }
        #expect(watched == nil)
    }

    @Test func keepsOrderAcrossCompaction() {
        let queue = WorkQueue<Int>(capacity: 4)
        var popped: [Int] = []
        for value in 0..<300 {
            queue.push(value)
            if value % 3 == 2 { for _ in 0..<3 { popped.append(queue.pop()) } }
        }
        #expect(popped == Array(0..<300))
    }
}
