import Glibc
import Parallel
import Synchronization
import Testing

@Suite struct BoundedWorkersTests {
    @Test func resultsComeBackInJobOrderWhateverOrderTheyFinishIn() {
        // Later jobs finish first: each sleeps less than the one before.
        let results = BoundedWorkers.run(count: 12, concurrency: 4) { index in
            usleep(UInt32((12 - index) * 500))
            return index * index
        }
        #expect(results == (0..<12).map { $0 * $0 })
    }

    @Test(arguments: [1, 3, 8])
    func neverMoreThanTheConcurrencyAskedForRunAtOnce(concurrency: Int) {
        let running = Mutex((now: 0, most: 0))
        _ = BoundedWorkers.run(count: 24, concurrency: concurrency) { _ in
            running.withLock {
                $0.now += 1
                $0.most = max($0.most, $0.now)
            }
            usleep(2_000)
            running.withLock { $0.now -= 1 }
        }
        let most = running.withLock { $0.most }
        #expect(most <= concurrency)
        #expect(most >= 1)
    }

    @Test func progressEndsAtTheNumberOfJobs() {
        var reports: [Int] = []
        let job: @Sendable (Int) -> Int = { index in
            usleep(3_000)
            return index
        }
        _ = BoundedWorkers.run(count: 5, concurrency: 2, progressInterval: 0.001, progress: { reports.append($0) }, job)
        #expect(reports.last == 5)
        #expect(reports == reports.sorted())
    }

    @Test func noJobsNoThreadsNoResults() {
        #expect(BoundedWorkers.run(count: 0, concurrency: 4) { $0 }.isEmpty)
    }
}

@Suite struct ResultSlotsTests {
    @Test func slotsFilledOutOfOrderReadBackByIndexAndUnsetSlotsAreLeftOut() {
        let slots = ResultSlots<String>(count: 4)
        slots.set(3, "d")
        slots.set(0, "a")
        slots.set(2, "c")
        #expect(slots.values == ["a", "c", "d"])
    }

    @Test func optionalValuesKeepTheirNils() {
        let slots = ResultSlots<Int?>(count: 2)
        slots.set(1, nil)
        slots.set(0, 7)
        #expect(slots.values == [7, nil])
    }
}
