import Glibc
import Parallel
import Synchronization
import Testing

@Suite struct LentThreadsTests {
    @Test(arguments: [1, 2, 4])
    func everyJobRunsExactlyOnceBeforeRunReturns(width: Int) {
        let counts = Mutex([Int](repeating: 0, count: 100))
        LentThreads.dispatch(width: width).run(100) { index in
            usleep(200)
            counts.withLock { $0[index] += 1 }
        }
        #expect(counts.withLock { $0 } == Array(repeating: 1, count: 100))
    }

    @Test func theCallingThreadRunsTheJobsInOrderOnItself() {
        let caller = pthread_self()
        var order: [Int] = []
        LentThreads.callingThread.run(5) { index in
            #expect(pthread_equal(pthread_self(), caller) != 0)
            order.append(index)
        }
        #expect(order == [0, 1, 2, 3, 4])
        #expect(LentThreads.dispatch(width: 1).width == 1)
    }

    @Test func lentThreadsRunJobsAtTheSameTime() {
        // Two jobs that each wait for the other to have started can only finish if they run at once.
        let started = Atomic<Int>(0)
        let bothRan = Atomic<Int>(0)
        LentThreads.dispatch(width: 2).run(2) { _ in
            started.add(1, ordering: .relaxed)
            for _ in 0..<2000 where started.load(ordering: .relaxed) < 2 { usleep(1000) }
            if started.load(ordering: .relaxed) == 2 { bothRan.add(1, ordering: .relaxed) }
        }
        #expect(bothRan.load(ordering: .relaxed) == 2)
    }
}
