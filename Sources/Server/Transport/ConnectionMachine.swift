/// What one connection does next, as a value: the event loop tells it what happened (bytes read, a head parsed,
/// an answer ready, the socket writable, a timer fired, a watched file changed, the peer gone) and performs the
/// actions it returns, in order (read, parse, answer, write, park, arm the deadline in `deadline`, close). It
/// reads no clock (`now` comes with every event), touches no socket and holds no payload: the bytes received, the
/// request and the answer being sent stay with the event loop's `Connection`. Shaped after the state machines
/// of swift-nio's HTTP server pipeline and async-http-client's HTTP/1 connection.
///
/// A connection waits for a request head (`awaitingHead`), is answered (`answering`: the handler decides, on the
/// loop or in the background), sends the answer (`sending`) or waits for a file to change (`held`, LL-HLS), and
/// then waits for its next request, until it is `closed`. Each action list holds at most one action that makes
/// the loop come back with an event (`read`, `parse`, `answer`, `answerTimeout`, `write`), and it comes last.
struct ConnectionMachine: Sendable {
    enum State: Hashable, Sendable {
        /// Reading the next request head; `started`: a byte of it has arrived.
        case awaitingHead(started: Bool)
        /// The handler decides the answer. `wait`: the hold the request was in (it stays parked on its file and
        /// keeps its deadline if the answer is to wait again).
        case answering(wait: Wait?)
        /// Sending an answer.
        case sending
        /// Parked until the file in `wait` changes or its deadline passes.
        case held(Wait)
        case closed
    }

    /// A request waiting for the file at `path` (below the served folder) until `deadline` (monotonic ms).
    struct Wait: Hashable, Sendable {
        var path: String
        var deadline: Int64
    }

    enum Event: Hashable, Sendable {
        /// epoll reported the socket: `input` (bytes or a hang-up may be waiting), `hangUp` (the peer's FIN).
        /// A writable socket alone is `input: false, hangUp: false`.
        case socketReady(input: Bool, hangUp: Bool)
        /// epoll reported an error on the socket.
        case socketFailed
        /// A `read` finished (nil: the socket failed).
        case didRead(Reading?)
        /// A `parse` found the head incomplete.
        case headIncomplete
        /// A `parse` found a request (or a refusal, `keepsAlive: false`); `remaining` bytes of input follow it.
        case requestParsed(keepsAlive: Bool, remaining: Int)
        /// The answer to the request: a response of `bodyBytes` to send, or a wait for a file.
        case answerReady(Answer)
        /// A `write` finished.
        case didWrite(Writing)
        /// The client took bytes of a blocked answer out of the socket's send queue.
        case clientTookBytes
        /// The sweep found `deadline` passed.
        case timerFired
        /// The file a held request waits on changed.
        case fileChanged
        /// Every slot is taken and this connection is the one to give its up (`reclaimRank`).
        case evicted
        /// The server is ending.
        case shutdown
    }

    /// What a `read` found: the input now buffered, whether the socket is drained (nothing more for now: wait
    /// for the next event; a short read counts only while no FIN was signalled), whether the peer closed its side (read returned 0), and whether the new bytes may decide a
    /// parse (`RequestHeadParser.mayDecideBeforeLineEnd`, or the input reached its capacity).
    struct Reading: Hashable, Sendable {
        var buffered: Int
        var drained: Bool
        var peerClosed: Bool
        var mayDecide: Bool
    }

    enum Answer: Hashable, Sendable {
        case response(bodyBytes: Int64)
        case hold(path: String, timeoutMilliseconds: Int64)
    }

    /// What a `write` did: whether bytes left, and where the answer stands.
    struct Writing: Hashable, Sendable {
        var progressed: Bool
        var outcome: Outcome

        enum Outcome: Hashable, Sendable {
            case finished
            /// The socket's send queue is full.
            case blocked
            /// A shaped link (`serve --shape`, or a delay fault) lets nothing more go before `until` (monotonic
            /// milliseconds): the answer waits for the link, not for the client.
            case paced(until: Int64)
            /// The peer is gone or the file shrank: the connection must close.
            case failed
        }
    }

    enum Action: Hashable, Sendable {
        /// Read what the socket holds (up to `inputCapacity` bytes of input), then `didRead`.
        case read
        /// Parse a head from the input, then `headIncomplete` or `requestParsed`.
        case parse
        /// Count a request in flight (`stop` waits for them).
        case beginRequest
        /// Ask the handler (or answer the refusal), then `answerReady` (at once or from a background worker).
        case answer
        /// Give the held request its timeout answer, then `answerReady`.
        case answerTimeout
        /// Send what the socket takes of the answer, then `didWrite`.
        case write
        /// The answer blocked: note the socket's send queue, to see later whether the client takes from it.
        case noteSendQueue
        /// Come back with `timerFired` at `until` (monotonic ms), to the millisecond: a paced answer's next slice.
        case wakeAt(Int64)
        case park(path: String)
        case unpark(path: String)
        /// The request in flight is over (answered, or its connection closed).
        case endRequest
        /// Send this refusal at once, without waiting (the connection closes next).
        case refuseAtOnce(RequestRefusal)
        case close
    }

    private(set) var state: State = .awaitingHead(started: false)
    /// When the loop must fire `timerFired` (monotonic milliseconds; `.max`: never).
    private(set) var deadline: Int64
    /// Since when the connection has waited for a request (kept for `reclaimRank`).
    private(set) var waitingSince: Int64
    /// When the client last took bytes of the answer being sent (or the link last held it).
    private(set) var lastProgress: Int64 = 0
    /// The answer being sent waits for its link until then (nil: it does not).
    private(set) var pacedUntil: Int64?
    /// The answer being sent ends the connection (refusals, `Connection: close`, HTTP/1.0, a peer that left).
    private(set) var closesAfterAnswer = false
    /// The peer closed its side: answer what is complete, then close.
    private(set) var peerClosed = false
    /// The peer's FIN was signalled: reads go on until one returns 0, though a short read would otherwise mean
    /// that the socket holds nothing more for now.
    private(set) var finSignalled = false
    private var inputDrained = false
    private var inputNeedsParse = false
    private var buffered = 0
    private var answerDeadline: Int64 = .max
    let timeouts: ConnectionTimeouts
    /// The most input a connection buffers (a head at its size limit, plus one byte to tell it is too long).
    let inputCapacity: Int

    /// A connection accepted at `now`: its first request head is due within `requestHeadSeconds`.
    init(now: Int64, timeouts: ConnectionTimeouts, inputCapacity: Int) {
        self.timeouts = timeouts
        self.inputCapacity = inputCapacity
        waitingSince = now
        deadline = now + timeouts.requestHeadMilliseconds
    }

    /// Where this connection stands when a newcomer needs its slot (nil: it keeps it): waiting for a request, or
    /// sending an answer its client has taken nothing of for `stallSeconds`. Held requests and answers being made
    /// keep their slots.
    func reclaimRank(now: Int64) -> ReclaimRank? {
        switch state {
        case .awaitingHead: return ReclaimRank(since: waitingSince, .waiting)
        case .sending:
            return now - lastProgress >= timeouts.stallMilliseconds ? ReclaimRank(since: lastProgress, .stalled) : nil
        case .answering, .held, .closed: return nil
        }
    }

    /// Takes `event` at `now` and returns what the loop must do, in order.
    mutating func handle(_ event: Event, now: Int64) -> [Action] {
        if state == .closed { return [] }
        switch event {
        case .socketReady(let input, let hangUp):
            if input || hangUp { inputDrained = false }
            if hangUp { finSignalled = true }
            return proceed(now: now)
        case .socketFailed, .shutdown:
            return close()
        case .didRead(let reading):
            guard let reading else { return close() }
            return didRead(reading, now: now)
        case .headIncomplete:
            guard case .awaitingHead = state else { return [] }
            return peerClosed ? close() : []
        case .requestParsed(let keepsAlive, let remaining):
            guard case .awaitingHead = state else { return [] }
            buffered = remaining
            inputNeedsParse = remaining > 0
            // A client that closed its side after this request hears that the connection ends with the answer
            // (one with more requests behind it has them answered first).
            closesAfterAnswer = !keepsAlive || (peerClosed && remaining == 0)
            state = .answering(wait: nil)
            deadline = .max
            return [.beginRequest, .answer]
        case .answerReady(let answer):
            guard case .answering(let wait) = state else { return [] }
            return answerReady(answer, wait: wait, now: now)
        case .didWrite(let writing):
            // While paced, no write is under way: a result now is stale.
            guard state == .sending, pacedUntil == nil else { return [] }
            return didWrite(writing, now: now)
        case .clientTookBytes:
            guard state == .sending, pacedUntil == nil else { return [] }
            lastProgress = now
            deadline = min(answerDeadline, now + timeouts.idleMilliseconds)
            return []
        case .timerFired:
            guard deadline <= now else { return [] }
            return timerFired(now: now)
        case .fileChanged:
            switch state {
            case .held(let wait):
                state = .answering(wait: wait)
                deadline = .max
                return [.answer]
            default: return []
            }
        case .evicted:
            if state == .awaitingHead(started: true) {
                return [.refuseAtOnce(RequestRefusal(503, "the server is full"))] + close()
            }
            return close()
        }
    }

    /// Does what the connection can do now without waiting for an event.
    private mutating func proceed(now: Int64) -> [Action] {
        switch state {
        case .awaitingHead:
            if !inputDrained && !peerClosed && buffered < inputCapacity { return [.read] }
            return inputArrived(now: now)
        case .held:
            // Only a client that leaves matters now (what else it sends waits in the input). One that closed its
            // side with the request still waits for the answer.
            return !peerClosed && !inputDrained && buffered < inputCapacity ? [.read] : []
        case .sending: return pacedUntil == nil ? [.write] : []
        case .answering, .closed: return []
        }
    }

    private mutating func didRead(_ reading: Reading, now: Int64) -> [Action] {
        buffered = reading.buffered
        if reading.drained { inputDrained = true }
        if reading.peerClosed { peerClosed = true }
        if reading.mayDecide || reading.peerClosed { inputNeedsParse = true }
        switch state {
        case .awaitingHead: return inputArrived(now: now)
        case .held: return peerClosed ? close() : []
        default: return []
        }
    }

    /// Waiting for a head, after a read (or with nothing more to read): starts the head's clock at its first
    /// byte, and parses when the new bytes may decide.
    private mutating func inputArrived(now: Int64) -> [Action] {
        if buffered == 0 { return peerClosed ? close() : [] }
        if state == .awaitingHead(started: false) {
            state = .awaitingHead(started: true)
            deadline = now + timeouts.requestHeadMilliseconds
        }
        guard inputNeedsParse else { return [] }
        inputNeedsParse = false
        return [.parse]
    }

    private mutating func answerReady(_ answer: Answer, wait: Wait?, now: Int64) -> [Action] {
        switch answer {
        case .response(let bodyBytes):
            state = .sending
            answerDeadline = timeouts.answerDeadline(bytes: bodyBytes, from: now)
            deadline = now + timeouts.idleMilliseconds
            lastProgress = now
            return (wait.map { [.unpark(path: $0.path)] } ?? []) + [.write]
        case .hold(let path, let timeout):
            // A request asked again keeps the deadline of its first wait.
            let held = Wait(path: path, deadline: wait?.deadline ?? now + timeout)
            state = .held(held)
            deadline = held.deadline
            guard let wait else { return [.park(path: path)] }
            return wait.path == path ? [] : [.unpark(path: wait.path), .park(path: path)]
        }
    }

    private mutating func didWrite(_ writing: Writing, now: Int64) -> [Action] {
        if writing.progressed { lastProgress = now }
        switch writing.outcome {
        case .finished:
            guard !closesAfterAnswer else { return close() }
            let started = buffered > 0
            state = .awaitingHead(started: started)
            waitingSince = now
            inputNeedsParse = started
            deadline = now + (started ? timeouts.requestHeadMilliseconds : timeouts.idleMilliseconds)
            return [.endRequest] + proceed(now: now)
        case .blocked:
            deadline = min(answerDeadline, lastProgress + timeouts.idleMilliseconds)
            return [.noteSendQueue]
        case .paced(let until):
            guard until > now else { return [.write] }
            // Time the link holds the answer is not the client's: its deadlines move on by as much.
            if answerDeadline < .max { answerDeadline += until - now }
            lastProgress = until
            pacedUntil = until
            deadline = until
            return [.wakeAt(until)]
        case .failed:
            return close()
        }
    }

    /// The deadline passed: a held request gets its timeout answer, a head not complete in time 408; anything
    /// else closes.
    private mutating func timerFired(now: Int64) -> [Action] {
        if state == .sending, let until = pacedUntil, until <= now {
            pacedUntil = nil
            deadline = min(answerDeadline, now + timeouts.idleMilliseconds)
            return [.write]
        }
        switch state {
        case .held(let wait):
            state = .answering(wait: nil)
            deadline = .max
            return [.unpark(path: wait.path), .answerTimeout]
        case .awaitingHead(started: true):
            return [.refuseAtOnce(RequestRefusal(408, "the request head took too long"))] + close()
        default:
            return close()
        }
    }

    /// Closes from any state: a parked request leaves its file's list, and a request in flight ends.
    private mutating func close() -> [Action] {
        var actions: [Action] = []
        switch state {
        case .held(let wait), .answering(wait: .some(let wait)):
            actions = [.unpark(path: wait.path), .endRequest]
        case .answering, .sending:
            actions = [.endRequest]
        case .awaitingHead, .closed:
            break
        }
        state = .closed
        deadline = .max
        pacedUntil = nil
        return actions + [.close]
    }
}
