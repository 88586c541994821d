internal import CLinux
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// One thread's share of the server: an epoll set with the listening socket (shared by all loops,
/// `EPOLLEXCLUSIVE`, so one loop wakes per new connection), its own connections (edge-triggered), and an eventfd
/// that background answers and `stop` use to wake it. Connections never move between loops (a client one loop
/// cannot make room for is passed to the next before it is admitted), so nothing here is locked but the
/// mailboxes: finished background answers, changed files and such clients.
final class EventLoop: @unchecked Sendable {
    /// An answer made by a background worker for a connection of this loop.
    struct Completion: @unchecked Sendable {
        var descriptor: Int32
        var serial: UInt64
        var answer: HandlerAnswer
        /// When the worker was asked (monotonic milliseconds): a change after it means the answer may be stale.
        var asked: Int64
    }

    /// A client accepted by another loop that could not make room for it (see `admit`).
    struct Newcomer: Sendable {
        var descriptor: Int32
        var peer: PeerAddress
        /// How many loops have tried to make room for it.
        var tries: Int
    }

    let core: ServerCore
    private let epoll: Int32
    private let wakeDescriptor: Int32
    private let listener: Int32
    private var listening = true
    /// The listener is out of this loop's set for a moment: descriptors ran out and nothing could be freed.
    private var listenerResting = false
    var connections: [Int32: Connection] = [:]
    private let completions = Mutex<[Completion]>([])
    private let newcomers = Mutex<[Newcomer]>([])
    /// The loop a newcomer is passed to when this one cannot make room (weak: the loops form a ring), and how
    /// many loops there are; set by `link` before the loops run.
    private weak var neighbour: EventLoop?
    private var loopCount = 1
    /// Files below the folder that changed, posted by the folder watcher.
    private let changes = Mutex<[String]>([])
    /// Held connections by the file they wait on (and ones being answered again after it changed).
    var held: [String: [ObjectIdentifier: Connection]] = [:]
    /// Paced answers (a shaped link, a delay) by connection: when each is to be written again.
    var wakeUps: [ObjectIdentifier: (at: Int64, connection: Connection)] = [:]
    /// While held requests are asked again, the quick answers given so far by request (`reconsider`).
    var sharedAnswers: [String: HandlerAnswer]?
    /// When each watched file last changed (monotonic milliseconds).
    private var lastChange: [String: Int64] = [:]
    private var nextSerial: UInt64 = 0
    private let scratch = UnsafeMutableRawBufferPointer.allocate(byteCount: 64 * 1024, alignment: 16)
    /// Kept open so that, when descriptors run out, one can be given up to accept and close a connection.
    private var reserveDescriptor: Int32
    private var cachedDateSecond: Int64 = -1
    private var cachedDateLine: [UInt8] = []
    /// The listener was taken out of this loop's set (`stop` waits for every loop to do so).
    let stoppedListening = Atomic<Bool>(false)

    private static let listenerToken: UInt64 = 0
    private static let wakeToken: UInt64 = 1
    /// How often deadlines are checked, in milliseconds.
    private static let sweepInterval: Int64 = 250

    init(core: ServerCore, listener: Int32) throws(ServerError) {
        self.core = core
        self.listener = listener
        epoll = epoll_create1(Int32(EPOLL_CLOEXEC))
        wakeDescriptor = filterz_eventfd()
        reserveDescriptor = open("/dev/null", O_RDONLY | O_CLOEXEC)
        guard epoll >= 0, wakeDescriptor >= 0 else {
            throw .cannotListen(host: "-", port: 0, reason: ListeningSocket.lastError())
        }
        var listenEvent = epoll_event(
            events: EPOLLIN.rawValue | EPOLLEXCLUSIVE.rawValue, data: epoll_data_t(u64: Self.listenerToken))
        var wakeEvent = epoll_event(events: EPOLLIN.rawValue, data: epoll_data_t(u64: Self.wakeToken))
        guard epoll_ctl(epoll, EPOLL_CTL_ADD, listener, &listenEvent) == 0,
            epoll_ctl(epoll, EPOLL_CTL_ADD, wakeDescriptor, &wakeEvent) == 0
        else { throw .cannotListen(host: "-", port: 0, reason: ListeningSocket.lastError()) }
    }

    /// Passes newcomers this loop cannot make room for to `next`, one of `loops` loops in a ring.
    func link(to next: EventLoop, loops: Int) {
        neighbour = next
        loopCount = loops
    }

    deinit {
        for newcomer in newcomers.takeAll() { Glibc.close(newcomer.descriptor) }
        Glibc.close(epoll)
        Glibc.close(wakeDescriptor)
        if reserveDescriptor >= 0 { Glibc.close(reserveDescriptor) }
        scratch.deallocate()
    }

    /// Wakes the loop (from any thread).
    func wake() {
        var one: UInt64 = 1
        _ = write(wakeDescriptor, &one, 8)
    }

    /// Hands a background answer to the loop (from a worker thread).
    func post(_ completion: Completion) {
        completions.withLock { $0.append(completion) }
        wake()
    }

    /// Hands the loop a client another loop accepted (from that loop's thread).
    func post(_ newcomer: Newcomer) {
        newcomers.withLock { $0.append(newcomer) }
        wake()
    }

    /// Tells the loop that files changed (from the folder watcher's thread).
    func post(changes paths: [String]) {
        changes.withLock { $0.append(contentsOf: paths) }
        wake()
    }

    /// Runs until the server terminates, then closes every connection of this loop.
    func run() {
        var events = [epoll_event](repeating: epoll_event(), count: 256)
        var nextSweep = MonotonicClock.milliseconds() + Self.sweepInterval
        while !core.isTerminating {
            let count = epoll_wait(epoll, &events, Int32(events.count), waitMilliseconds(nextSweep: nextSweep))
            if count < 0 && errno != EINTR { break }
            for index in 0..<max(0, Int(count)) {
                let token = events[index].data.u64
                let flags = events[index].events
                switch token {
                case Self.listenerToken: acceptConnections()
                case Self.wakeToken: takeWakeUps()
                default:
                    if let connection = connections[Int32(truncatingIfNeeded: token &- 2)] { handle(connection, flags) }
                }
            }
            let now = MonotonicClock.milliseconds()
            if !wakeUps.isEmpty { wakePacedAnswers(now) }
            if now >= nextSweep {
                sweep(now)
                nextSweep = now + Self.sweepInterval
            }
        }
        for connection in Array(connections.values) { step(connection, .shutdown) }
        for newcomer in newcomers.takeAll() { Glibc.close(newcomer.descriptor) }
    }

    // MARK: - Accepting

    private func acceptConnections() {
        for _ in 0..<64 {
            var storage = sockaddr_storage()
            var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
            let descriptor = withUnsafeMutablePointer(to: &storage) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    filterz_accept(listener, $0, &length)
                }
            }
            if descriptor < 0 {
                switch errno {
                case EINTR, ECONNABORTED: continue
                case EMFILE, ENFILE: shedOneConnection()
                default: break
                }
                return
            }
            admit(descriptor, peer: PeerAddress(storage))
        }
    }

    /// Gives the client a slot, making room when every slot is taken: first among this loop's connections, then
    /// (the connections of a loop are its own) by passing the client on to the next loop, until every loop has
    /// tried; only then is it refused.
    private func admit(_ descriptor: Int32, peer: PeerAddress, tries: Int = 1) {
        if core.isStopping {
            Glibc.close(descriptor)
            return
        }
        var admission = core.budget.admit(peer.text)
        if admission == .serverFull, makeRoom() {
            admission = core.budget.admit(peer.text)
        }
        if admission == .serverFull, tries < loopCount, let neighbour {
            neighbour.post(Newcomer(descriptor: descriptor, peer: peer, tries: tries + 1))
            return
        }
        guard admission == .admitted else {
            let reason = admission == .addressFull ? "too many connections from your address" : "the server is full"
            refuseAtOnce(descriptor, RequestRefusal(503, reason))
            return
        }
        var yes: Int32 = 1
        setsockopt(descriptor, Int32(IPPROTO_TCP), TCP_NODELAY, &yes, socklen_t(MemoryLayout<Int32>.size))
        nextSerial += 1
        let machine = ConnectionMachine(
            now: MonotonicClock.milliseconds(), timeouts: core.timeouts,
            inputCapacity: core.parser.limits.headBytes + 1)
        let connection = Connection(descriptor: descriptor, peer: peer, serial: nextSerial, machine: machine)
        var event = epoll_event(
            events: EPOLLIN.rawValue | EPOLLOUT.rawValue | EPOLLRDHUP.rawValue | EPOLLET.rawValue,
            data: epoll_data_t(u64: UInt64(UInt32(bitPattern: descriptor)) + 2))
        guard epoll_ctl(epoll, EPOLL_CTL_ADD, descriptor, &event) == 0 else {
            Glibc.close(descriptor)
            core.budget.release(peer.text)
            return
        }
        connections[descriptor] = connection
    }

    /// Every slot is taken: closes the connection of this loop that `ReclaimRank` puts first (the one waiting for
    /// a request, or sending an answer its client does not take, that has done nothing for longest), so that a
    /// new client is not locked out by ones that send or read nothing. False when no connection of this loop can
    /// give up its slot.
    private func makeRoom() -> Bool {
        let now = MonotonicClock.milliseconds()
        var victim: (connection: Connection, rank: ReclaimRank)?
        for connection in connections.values {
            guard let rank = connection.machine.reclaimRank(now: now) else { continue }
            if victim.map({ rank < $0.rank }) ?? true { victim = (connection, rank) }
        }
        guard let victim = victim?.connection else { return false }
        step(victim, .evicted)
        return true
    }

    /// Out of descriptors: frees one — the reserve kept for this or, when another thread took that slot, a
    /// connection of this loop that can give up its slot (`makeRoom`) — to accept one waiting client, tell it so and
    /// close it; then takes the reserve back. With nothing to free, the listener rests until the next sweep or
    /// until one of this loop's connections closes (level-triggered, it would otherwise wake the loop at once).
    private func shedOneConnection() {
        if reserveDescriptor < 0 { reserveDescriptor = open("/dev/null", O_RDONLY | O_CLOEXEC) }
        if reserveDescriptor >= 0 {
            Glibc.close(reserveDescriptor)
            reserveDescriptor = -1
        } else if !makeRoom() {
            restListener()
            return
        }
        let descriptor = filterz_accept(listener, nil, nil)
        if descriptor >= 0 { refuseAtOnce(descriptor, RequestRefusal(503, "the server is out of file descriptors")) }
        reserveDescriptor = open("/dev/null", O_RDONLY | O_CLOEXEC)
    }

    private func restListener() {
        guard listening, !listenerResting else { return }
        var unused = epoll_event()
        if epoll_ctl(epoll, EPOLL_CTL_DEL, listener, &unused) == 0 { listenerResting = true }
    }

    /// Puts a resting listener back in the set (not once the server is stopping).
    func wakeListener() {
        guard listenerResting, listening, !core.isStopping else { return }
        var event = epoll_event(
            events: EPOLLIN.rawValue | EPOLLEXCLUSIVE.rawValue, data: epoll_data_t(u64: Self.listenerToken))
        if epoll_ctl(epoll, EPOLL_CTL_ADD, listener, &event) == 0 { listenerResting = false }
    }

    /// Answers a connection that is not kept with one short status, and closes it.
    private func refuseAtOnce(_ descriptor: Int32, _ refusal: RequestRefusal) {
        // Read what has arrived first: closing with unread bytes resets the connection and can lose the answer.
        _ = recv(descriptor, scratch.baseAddress, scratch.count, Int32(MSG_DONTWAIT))
        sendAtOnce(descriptor, refusal)
        Glibc.close(descriptor)
    }

    /// One non-blocking send of a refusal (nothing more is tried: the connection is being closed).
    func sendAtOnce(_ descriptor: Int32, _ refusal: RequestRefusal) {
        let response = refusalResponse(refusal)
        let fieldBlock = ResponseHead.fieldBlock(
            status: refusal.status, headers: response.headers, contentLength: response.bodyLength)
        let bytes =
            ResponseHead.bytes(
                status: refusal.status, dateLine: dateLine(), fieldBlock: fieldBlock, closes: true, version: .http11)
            + response.bodyBytes()
        _ = bytes.withUnsafeBytes {
            Glibc.send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL | MSG_DONTWAIT))
        }
    }

    // MARK: - Events and deadlines

    private func handle(_ connection: Connection, _ flags: UInt32) {
        guard flags & EPOLLERR.rawValue == 0 else { return step(connection, .socketFailed) }
        let hangUp = flags & (EPOLLRDHUP.rawValue | EPOLLHUP.rawValue) != 0
        step(connection, .socketReady(input: hangUp || flags & EPOLLIN.rawValue != 0, hangUp: hangUp))
    }

    private func takeWakeUps() {
        var value: UInt64 = 0
        _ = read(wakeDescriptor, &value, 8)
        if core.isStopping && listening {
            listening = false
            var unused = epoll_event()
            epoll_ctl(epoll, EPOLL_CTL_DEL, listener, &unused)
            stoppedListening.store(true, ordering: .releasing)
        }
        for newcomer in newcomers.takeAll() {
            admit(newcomer.descriptor, peer: newcomer.peer, tries: newcomer.tries)
        }
        let changed = changes.takeAll()
        if !changed.isEmpty { reconsider(Set(changed)) }
        for completion in completions.takeAll() {
            guard let connection = connections[completion.descriptor], connection.serial == completion.serial,
                case .answering = connection.machine.state, let request = connection.request
            else { continue }
            step(connection, apply(completion.answer, for: request, on: connection))
            if case .hold(let hold) = completion.answer, let changedAt = lastChange[hold.watchedPath],
                changedAt >= completion.asked
            {
                // The file changed while the worker decided to wait: decide again on what is there now.
                step(connection, .fileChanged)
            }
        }
    }

    /// Asks again for every request held on a file of `paths`. Held requests with the same target and no
    /// conditions share one answer (a thousand viewers waiting for the same part cost one decision).
    private func reconsider(_ changed: Set<String>) {
        let now = MonotonicClock.milliseconds()
        // Events were lost: any held request's file may have changed.
        let paths = changed.contains(FolderWatcher.everything) ? changed.union(held.keys) : changed
        sharedAnswers = [:]
        defer { sharedAnswers = nil }
        for path in paths {
            lastChange[path] = now
            guard let waiting = held[path] else { continue }
            for connection in waiting.values { step(connection, .fileChanged) }
        }
    }

    /// Notes which blocked answers' clients took bytes since the last sweep, then fires the timers of the
    /// connections whose deadline has passed. Without a folder watcher, held requests are asked again on every
    /// sweep.
    private func sweep(_ now: Int64) {
        wakeListener()
        if !core.watchesFolder && !held.isEmpty { reconsider(Set(held.keys)) }
        var expired: [Connection] = []
        for connection in connections.values {
            // An answer in this state waits for room in the socket: the client may read meanwhile.
            if connection.machine.state == .sending, connection.clientTookBytes() { step(connection, .clientTookBytes) }
            if connection.machine.deadline <= now { expired.append(connection) }
        }
        for connection in expired { step(connection, .timerFired) }
    }

    /// How long `epoll_wait` may sleep: until the next sweep, or the next paced answer's slot.
    private func waitMilliseconds(nextSweep: Int64) -> Int32 {
        guard !wakeUps.isEmpty else { return Int32(Self.sweepInterval) }
        var until = nextSweep
        for wake in wakeUps.values where wake.at < until { until = wake.at }
        return Int32(clamping: max(0, min(Self.sweepInterval, until - MonotonicClock.milliseconds())))
    }

    /// Writes the paced answers whose slot has come.
    private func wakePacedAnswers(_ now: Int64) {
        let due = wakeUps.filter { $0.value.at <= now }
        for (key, wake) in due {
            wakeUps[key] = nil
            step(wake.connection, .timerFired)
        }
    }

    /// Closes the connection's socket and gives its slot back (the machine has ended its request and wait).
    func closeSocket(_ connection: Connection) {
        guard connections.removeValue(forKey: connection.descriptor) != nil else { return }
        wakeUps[ObjectIdentifier(connection)] = nil
        if let key = connection.linkKey {
            if connection.pendingLog != nil { logShaped(connection, finishedAt: nil) }
            core.links?.close(key)
        }
        Glibc.close(connection.descriptor)
        core.budget.release(connection.peer.text)
        wakeListener()
    }

    /// `Date: …\r\n` for the current second.
    func dateLine() -> [UInt8] {
        let second = Int64(time(nil))
        if second != cachedDateSecond {
            cachedDateSecond = second
            cachedDateLine = ResponseHead.dateLine(second)
        }
        return cachedDateLine
    }

    var scratchBuffer: UnsafeMutableRawBufferPointer { scratch }
}

extension Mutex {
    /// Empties a mailbox, returning what it held.
    fileprivate func takeAll<Element: Sendable>() -> [Element] where Value == [Element] {
        withLock { taken in
            defer { taken = [] }
            return taken
        }
    }
}
