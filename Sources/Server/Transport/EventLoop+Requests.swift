#if canImport(Glibc)
    import Glibc
#endif

/// How a loop moves one connection along: it gives each event to the connection's `ConnectionMachine` and
/// performs the actions that come back — reads, parses, answers (at once, from a prepared answer, or in the
/// background), sends, parks — each of which may bring the next event.
extension EventLoop {
    /// Gives `event` to the connection's machine, and performs what it asks until it waits for something.
    func step(_ connection: Connection, _ event: ConnectionMachine.Event) {
        var next: ConnectionMachine.Event? = event
        while let event = next {
            next = nil
            for action in connection.machine.handle(event, now: MonotonicClock.milliseconds()) {
                if let follow = perform(action, on: connection) { next = follow }
            }
        }
    }

    private func perform(_ action: ConnectionMachine.Action, on connection: Connection) -> ConnectionMachine.Event? {
        switch action {
        case .read:
            return .didRead(connection.readAvailable(scratch: scratchBuffer))
        case .parse:
            return parse(connection)
        case .beginRequest:
            core.requestStarted()
        case .answer:
            return answer(connection)
        case .answerTimeout:
            guard let hold = connection.hold, let request = connection.request else { return nil }
            connection.hold = nil
            return queue(hold.timeoutResponse, for: request, on: connection)
        case .write:
            return write(connection)
        case .noteSendQueue:
            connection.noteSendQueue()
        case .wakeAt(let instant):
            wakeUps[ObjectIdentifier(connection)] = (instant, connection)
        case .park(let path):
            held[path, default: [:]][ObjectIdentifier(connection)] = connection
        case .unpark(let path):
            held[path]?[ObjectIdentifier(connection)] = nil
            if held[path]?.isEmpty == true { held[path] = nil }
        case .endRequest:
            core.requestEnded()
        case .refuseAtOnce(let refusal):
            sendAtOnce(connection.descriptor, refusal)
            log(connection, requestLine: "-", status: refusal.status, bytes: nil)
        case .close:
            closeSocket(connection)
        }
        return nil
    }

    private func parse(_ connection: Connection) -> ConnectionMachine.Event {
        switch core.parser.parse(connection.input) {
        case .incomplete:
            return .headIncomplete
        case .refused(let refusal):
            connection.input.removeAll()
            connection.refusal = refusal
            connection.current = Connection.CurrentRequest(method: "-", target: "-", version: .http11)
            return .requestParsed(keepsAlive: false, remaining: 0)
        case .complete(let head, let length):
            connection.input.removeFirst(length)
            connection.current = Connection.CurrentRequest(
                method: head.method, target: head.rawTarget, version: head.version)
            if let refusal = RequestAdmission.refusal(for: head) {
                connection.refusal = refusal
                return .requestParsed(keepsAlive: false, remaining: connection.input.count)
            }
            connection.request = head.request
            return .requestParsed(keepsAlive: head.keepsAlive, remaining: connection.input.count)
        }
    }

    /// The answer to the connection's request: its refusal, a prepared answer, the handler's quick answer (one
    /// for all held requests alike while `sharedAnswers` collects them), or nil while a background worker makes
    /// it (it comes back as a `Completion`).
    private func answer(_ connection: Connection) -> ConnectionMachine.Event? {
        if let refusal = connection.refusal {
            connection.refusal = nil
            return queue(refusalResponse(refusal), for: nil, on: connection)
        }
        guard let request = connection.request else { return nil }
        if let links = core.links, connection.linkKey == nil {
            let key = links.key(peer: connection.peer, connection: ObjectIdentifier(connection))
            links.open(key, now: MonotonicClock.milliseconds())
            connection.linkKey = key
        }
        // Once a request: not again when a held request is asked again.
        if case .answering(wait: nil) = connection.machine.state, let faults = core.faults,
            let hit = faults.fault(forPath: request.rawPath)
        {
            if case .status(let status) = hit.action {
                return queue(
                    refusalResponse(RequestRefusal(status, "a fault injected by --faults rule \(hit.rule + 1)")),
                    for: nil, on: connection)
            }
            connection.fault = hit.action
        }
        let now = Int64(time(nil))
        let target = connection.current?.target ?? ""
        if request.canReuseAnswer,
            let prepared = core.preparedAnswers?.answer(for: PreparedAnswers.key(target, request)),
            core.handler.stillHolds(prepared.version, now: now)
        {
            return send(prepared, for: request, on: connection)
        }
        let sharingKey = sharedAnswers != nil && request.isUnconditional ? PreparedAnswers.key(target, request) : nil
        if let sharingKey, let shared = sharedAnswers?[sharingKey] {
            return apply(shared, for: request, on: connection)
        }
        let slow: SlowAnswer
        switch core.handler.decide(request, now: now) {
        case .ready(let answer):
            if let sharingKey { sharedAnswers?[sharingKey] = answer }
            return apply(answer, for: request, on: connection)
        case .slow(let work):
            slow = work
        }
        let descriptor = connection.descriptor, serial = connection.serial
        let asked = MonotonicClock.milliseconds()
        let submitted = core.workers(for: request).submit { [self] in
            post(Completion(descriptor: descriptor, serial: serial, answer: slow.make(), asked: asked))
        }
        return submitted
            ? nil : queue(refusalResponse(RequestRefusal(503, "the server is busy")), for: nil, on: connection)
    }

    /// Sends `answer`, or has the connection wait for its watched file.
    func apply(_ answer: HandlerAnswer, for request: HTTPRequest, on connection: Connection) -> ConnectionMachine.Event
    {
        switch answer {
        case .response(let response):
            return queue(response, for: request, on: connection)
        case .hold(let hold):
            connection.hold = hold
            return .answerReady(.hold(path: hold.watchedPath, timeoutMilliseconds: hold.timeoutMilliseconds))
        }
    }

    /// Sends what the socket takes of the answer — on a shaped link, what the link lets go now.
    private func write(_ connection: Connection) -> ConnectionMachine.Event? {
        guard connection.outgoing != nil else { return nil }
        var limit = Int64.max
        let key = connection.linkKey
        if key != nil || connection.outgoing!.notBefore > 0 {
            let now = MonotonicClock.milliseconds()
            if connection.outgoing!.notBefore > now { return Self.paced(until: connection.outgoing!.notBefore) }
            if let key, let links = core.links {
                switch links.grant(key, wanting: connection.outgoing!.unsentBytes, now: now) {
                case .wait(let until): return Self.paced(until: until)
                case .send(let bytes): limit = Int64(bytes)
                }
            }
        }
        let sentBefore = connection.outgoing!.sentBytes
        let progress = connection.outgoing!.send(on: connection.descriptor, limit: limit)
        let sent = connection.outgoing!.sentBytes - sentBefore
        if let key, limit != .max, sent < limit { core.links?.refund(key, bytes: Int(limit - sent)) }
        if sent > 0, connection.pendingLog?.firstByteAt == nil {
            connection.pendingLog?.firstByteAt = MonotonicClock.milliseconds()
        }
        let outcome: ConnectionMachine.Writing.Outcome
        switch progress {
        case .finished:
            outcome = .finished
            if connection.pendingLog != nil { logShaped(connection, finishedAt: MonotonicClock.milliseconds()) }
            connection.outgoing = nil
            connection.request = nil
            connection.current = nil
            connection.hold = nil
        case .blocked: outcome = .blocked
        case .limited: outcome = .paced(until: MonotonicClock.milliseconds())
        case .failed: outcome = .failed
        }
        return .didWrite(ConnectionMachine.Writing(progressed: sent > 0, outcome: outcome))
    }

    private static func paced(until instant: Int64) -> ConnectionMachine.Event {
        .didWrite(ConnectionMachine.Writing(progressed: false, outcome: .paced(until: instant)))
    }

    /// Puts `response` on the connection's way out (and keeps it as a prepared answer when it can be given again).
    private func queue(_ response: HTTPResponse, for request: HTTPRequest?, on connection: Connection)
        -> ConnectionMachine.Event
    {
        if let request, request.canReuseAnswer,
            let prepared = core.preparedAnswers?.prepare(
                response, for: PreparedAnswers.key(connection.current?.target ?? "", request))
        {
            return send(prepared, for: request, on: connection)
        }
        let fieldBlock = ResponseHead.fieldBlock(
            status: response.status, headers: response.headers, contentLength: response.bodyLength)
        let sendsBody = request?.method != "HEAD" && !HTTPStatus.hasNoContent(response.status)
        let head = ResponseHead.bytes(
            status: response.status, dateLine: dateLine(), fieldBlock: fieldBlock,
            closes: connection.machine.closesAfterAnswer, version: connection.current?.version ?? .http11)
        let message = OutgoingMessage(head: head, body: sendsBody ? response.body : .empty)
        return begin(message, status: response.status, on: connection)
    }

    private func send(_ prepared: PreparedAnswers.Answer, for request: HTTPRequest, on connection: Connection)
        -> ConnectionMachine.Event
    {
        let head = ResponseHead.bytes(
            status: 200, dateLine: dateLine(), fieldBlock: prepared.fieldBlock,
            closes: connection.machine.closesAfterAnswer, version: connection.current?.version ?? .http11)
        let sendsBody = request.method != "HEAD"
        return begin(
            OutgoingMessage(head: head, body: sendsBody ? .bytes(prepared.body) : .empty), status: 200, on: connection)
    }

    private func begin(_ message: OutgoingMessage, status: Int, on connection: Connection) -> ConnectionMachine.Event {
        var message = message
        // The clock only for an answer a shaped link or a fault holds back: an unshaped one never reads it.
        let now = connection.linkKey != nil || connection.fault != nil ? MonotonicClock.milliseconds() : 0
        if let key = connection.linkKey, let links = core.links {
            message.notBefore = now + links.latencyMilliseconds(key, now: now)
        }
        switch connection.fault {
        case .cut(let bytes): message.cutAfterBodyBytes = bytes
        case .delay(let milliseconds): message.notBefore = max(message.notBefore, now) + milliseconds
        case .status, nil: break
        }
        connection.fault = nil
        connection.outgoing = message
        if let current = connection.current {
            let requestLine =
                current.method == "-" ? "-" : "\(current.method) \(current.target) \(current.version.rawValue)"
            let bytes = message.bodyLength > 0 ? message.bodyLength : nil
            if connection.linkKey != nil {
                // Written when the answer has left, with its timing on the link.
                connection.pendingLog = Connection.PendingLog(
                    requestLine: requestLine, status: status, bytes: bytes, readyAt: now)
            } else {
                log(connection, requestLine: requestLine, status: status, bytes: bytes)
            }
        }
        return .answerReady(.response(bodyBytes: message.bodyLength))
    }

    /// The access log line of an answer sent through a shaped link, with when it was ready, when its first and
    /// last bytes left (nil: it never finished) and the body bytes sent, in seconds of the link's trace.
    func logShaped(_ connection: Connection, finishedAt: Int64?) {
        guard let pending = connection.pendingLog else { return }
        connection.pendingLog = nil
        guard let accessLog = core.accessLog, let key = connection.linkKey, let origin = core.links?.origin(key)
        else { return }
        let timing = AccessLog.Timing(
            readyMilliseconds: pending.readyAt - origin, firstByteMilliseconds: pending.firstByteAt.map { $0 - origin },
            lastByteMilliseconds: finishedAt.map { $0 - origin },
            bodyBytesSent: connection.outgoing?.sentBodyBytes ?? 0)
        accessLog(
            AccessLog.line(
                client: connection.peer.text, secondsSinceEpoch: Int64(time(nil)), requestLine: pending.requestLine,
                status: pending.status, bytes: pending.bytes, timing: timing))
    }

    func log(_ connection: Connection, requestLine: String, status: Int, bytes: Int64?) {
        guard let accessLog = core.accessLog else { return }
        accessLog(
            AccessLog.line(
                client: connection.peer.text, secondsSinceEpoch: Int64(time(nil)), requestLine: requestLine,
                status: status, bytes: bytes))
    }

    /// The answer to a request refused before the handler: a short plain-text body naming the reason.
    func refusalResponse(_ refusal: RequestRefusal) -> HTTPResponse {
        HTTPResponse(
            status: refusal.status,
            headers: [("Content-Type", "text/plain; charset=utf-8"), ("Cache-Control", CachePolicy.dynamic)]
                + core.handler.corsHeaders,
            body: .bytes(Array("\(refusal.status) \(HTTPStatus.reason(refusal.status)): \(refusal.reason)\n".utf8)))
    }
}
