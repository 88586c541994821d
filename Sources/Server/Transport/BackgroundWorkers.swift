import Parallel

#if canImport(Glibc)
    import Glibc
#endif

/// A few threads that run the answers too slow for an event loop (parsing a large playlist, rewriting one for a
/// token, reading the catalogue), so that the loops go on answering everyone else meanwhile. The queue is
/// bounded: when it is full, `submit` says no and the request is answered 503 at once.
final class BackgroundWorkers: @unchecked Sendable {
    // Allocated, so that their addresses never move.
    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    private let condition = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)
    private var jobs: [@Sendable () -> Void] = []
    private var head = 0
    private var stopping = false
    private var threads: [pthread_t] = []
    private let capacity: Int

    init(threads count: Int, capacity: Int) {
        self.capacity = capacity
        pthread_mutex_init(mutex, nil)
        pthread_cond_init(condition, nil)
        for _ in 0..<max(1, count) {
            if let thread = ThreadStarter.start({ [unowned self] in self.work() }) { threads.append(thread) }
        }
    }

    deinit {
        pthread_cond_destroy(condition)
        pthread_mutex_destroy(mutex)
        condition.deallocate()
        mutex.deallocate()
    }

    /// Queues `job`; false when the queue is full or the workers are stopping.
    func submit(_ job: @escaping @Sendable () -> Void) -> Bool {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        guard !stopping, jobs.count - head < capacity else { return false }
        jobs.append(job)
        pthread_cond_signal(condition)
        return true
    }

    /// Lets queued jobs finish, then ends the threads and waits for them.
    func stop() {
        pthread_mutex_lock(mutex)
        stopping = true
        pthread_cond_broadcast(condition)
        pthread_mutex_unlock(mutex)
        for thread in threads { pthread_join(thread, nil) }
        threads = []
    }

    private func work() {
        while let job = next() { job() }
    }

    private func next() -> (@Sendable () -> Void)? {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        while head == jobs.count && !stopping { pthread_cond_wait(condition, mutex) }
        guard head < jobs.count else { return nil }
        let job = jobs[head]
        head += 1
        if head == jobs.count {
            jobs.removeAll(keepingCapacity: true)
            head = 0
        }
        return job
    }
}
