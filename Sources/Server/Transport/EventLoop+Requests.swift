#if canImport(Glibc)
    import Glibc
#endif

/// How a loop moves one connection along: read, parse a head, answer (at once, from a prepared answer, or in
/// the background), send, and then the next request on the same connection.
extension EventLoop {
    /// Does everything the connection can do now without waiting.
    func drive(_ connection: Connection) {
        while true {
            switch connection.phase {
            case .answering:
                return
            case .held:
                // Only a client that leaves matters now (what else it sends waits in `input`). One that closed its
                // side with the request still waits for the answer.
                if !connection.peerClosed && !connection.inputDrained
                    && connection.input.count <= core.parser.limits.headBytes
                {
                    guard connection.readAvailable(capacity: core.parser.limits.headBytes + 1, scratch: scratchBuffer),
                        !connection.peerClosed
                    else {
                        close(connection)
                        return
                    }
                }
                return
            case .sending(var message):
                let sentBefore = message.sentBytes
                let progress = message.send(on: connection.descriptor)
                let now = MonotonicClock.milliseconds()
                if message.sentBytes > sentBefore { connection.lastProgress = now }
                switch progress {
                case .finished:
                    core.requestEnded()
                    connection.current = nil
                    if connection.closesAfterAnswer {
                        close(connection)
                        return
                    }
                    connection.phase = .awaitingHead
                    connection.waitingSince = now
                    connection.headStarted = !connection.input.isEmpty
                    connection.inputNeedsParse = !connection.input.isEmpty
                    connection.deadline =
                        now
                        + (connection.headStarted
                            ? core.timeouts.requestHeadMilliseconds : core.timeouts.idleMilliseconds)
                case .blocked:
                    connection.phase = .sending(message)
                    connection.answerBlocked()
                    connection.deadline = min(
                        connection.answerDeadline, connection.lastProgress + core.timeouts.idleMilliseconds)
                    return
                case .failed:
                    close(connection)
                    return
                }
            case .awaitingHead:
                guard readHead(connection) else { return }
            }
        }
    }

    /// Reads and parses; true when the connection moved on to answering or sending.
    private func readHead(_ connection: Connection) -> Bool {
        let capacity = core.parser.limits.headBytes + 1
        if !connection.inputDrained && connection.input.count < capacity {
            guard connection.readAvailable(capacity: capacity, scratch: scratchBuffer) else {
                close(connection)
                return false
            }
        }
        if connection.input.isEmpty {
            if connection.peerClosed { close(connection) }
            return false
        }
        if !connection.headStarted {
            connection.headStarted = true
            connection.deadline = MonotonicClock.milliseconds() + core.timeouts.requestHeadMilliseconds
        }
        guard connection.inputNeedsParse else { return false }
        connection.inputNeedsParse = false
        switch core.parser.parse(connection.input) {
        case .incomplete:
            if connection.peerClosed { close(connection) }
            return false
        case .refused(let refusal):
            connection.input.removeAll()
            core.requestStarted()
            connection.closesAfterAnswer = true
            connection.current = Connection.CurrentRequest(method: "-", target: "-", version: .http11)
            queue(refusalResponse(refusal), for: nil, on: connection)
            return true
        case .complete(let head, let length):
            connection.input.removeFirst(length)
            connection.inputNeedsParse = !connection.input.isEmpty
            start(head, on: connection)
            return true
        }
    }

    private func start(_ head: RequestHead, on connection: Connection) {
        core.requestStarted()
        connection.current = Connection.CurrentRequest(
            method: head.method, target: head.rawTarget, version: head.version)
        // A client that closed its side after this request hears that the connection ends with the answer (one
        // with more requests behind it in `input` has them answered first).
        connection.closesAfterAnswer = !head.keepsAlive || (connection.peerClosed && connection.input.isEmpty)
        if let refusal = RequestAdmission.refusal(for: head) {
            connection.closesAfterAnswer = true
            queue(refusalResponse(refusal), for: nil, on: connection)
            return
        }
        let request = head.request
        let now = Int64(time(nil))
        let reusable = core.preparedAnswers != nil && request.canReuseAnswer
        if reusable, let prepared = core.preparedAnswers?.answer(for: PreparedAnswers.key(head.rawTarget, request)),
            core.handler.stillHolds(prepared.version, now: now)
        {
            send(prepared, for: request, on: connection)
            return
        }
        evaluate(request, on: connection)
    }

    /// Asks the handler, on this loop when the answer is quick, else on a background worker.
    func evaluate(_ request: HTTPRequest, on connection: Connection) {
        let now = Int64(time(nil))
        if let answer = core.handler.quickAnswer(to: request, now: now) {
            apply(answer, for: request, on: connection)
            return
        }
        let held: Connection.HeldRequest?
        if case .held(let current) = connection.phase { held = current } else { held = nil }
        connection.phase = .answering
        connection.deadline = .max
        let descriptor = connection.descriptor, serial = connection.serial
        let handler = core.handler
        let asked = MonotonicClock.milliseconds()
        let submitted = core.workers(for: request).submit { [self] in
            let answer = handler.answer(to: request, now: now)
            post(
                Completion(
                    descriptor: descriptor, serial: serial, request: request, answer: answer, asked: asked, held: held))
        }
        if !submitted {
            queue(refusalResponse(RequestRefusal(503, "the server is busy")), for: nil, on: connection)
        }
    }

    /// Sends `answer`, or parks the connection until its watched file changes. `held`: the wait this request
    /// was already in (it keeps its first deadline).
    func apply(
        _ answer: HandlerAnswer, for request: HTTPRequest, on connection: Connection,
        held: Connection.HeldRequest? = nil
    ) {
        let previous: Connection.HeldRequest?
        if case .held(let current) = connection.phase { previous = current } else { previous = held }
        switch answer {
        case .response(let response):
            if previous != nil { unpark(connection, path: previous?.hold.watchedPath) }
            queue(response, for: request, on: connection)
        case .hold(let hold):
            let deadline = previous?.deadline ?? MonotonicClock.milliseconds() + hold.timeoutMilliseconds
            if let old = previous?.hold.watchedPath, old != hold.watchedPath { unpark(connection, path: old) }
            connection.phase = .held(Connection.HeldRequest(request: request, hold: hold, deadline: deadline))
            connection.deadline = deadline
            park(connection, path: hold.watchedPath)
        }
    }

    /// Puts `response` on the connection's way out (and keeps it as a prepared answer when it can be given again).
    func queue(_ response: HTTPResponse, for request: HTTPRequest?, on connection: Connection) {
        if let request, request.canReuseAnswer,
            let prepared = core.preparedAnswers?.prepare(
                response, for: PreparedAnswers.key(connection.current?.target ?? "", request))
        {
            send(prepared, for: request, on: connection)
            return
        }
        let fieldBlock = ResponseHead.fieldBlock(
            status: response.status, headers: response.headers, contentLength: response.bodyLength)
        let sendsBody = request?.method != "HEAD" && !HTTPStatus.hasNoContent(response.status)
        let head = ResponseHead.bytes(
            status: response.status, dateLine: dateLine(), fieldBlock: fieldBlock, closes: connection.closesAfterAnswer,
            version: connection.current?.version ?? .http11)
        let message = OutgoingMessage(head: head, body: sendsBody ? response.body : .empty)
        begin(message, status: response.status, bodyLength: sendsBody ? response.bodyLength : 0, on: connection)
    }

    private func send(_ prepared: PreparedAnswers.Answer, for request: HTTPRequest, on connection: Connection) {
        let head = ResponseHead.bytes(
            status: 200, dateLine: dateLine(), fieldBlock: prepared.fieldBlock, closes: connection.closesAfterAnswer,
            version: connection.current?.version ?? .http11)
        let sendsBody = request.method != "HEAD"
        let message = OutgoingMessage(head: head, body: sendsBody ? .bytes(prepared.body) : .empty)
        begin(message, status: 200, bodyLength: sendsBody ? Int64(prepared.body.count) : 0, on: connection)
    }

    private func begin(_ message: OutgoingMessage, status: Int, bodyLength: Int64, on connection: Connection) {
        connection.phase = .sending(message)
        let now = MonotonicClock.milliseconds()
        connection.answerDeadline = core.timeouts.answerDeadline(bytes: message.bodyLength, from: now)
        connection.deadline = now + core.timeouts.idleMilliseconds
        connection.lastProgress = now
        if let current = connection.current {
            let requestLine =
                current.method == "-" ? "-" : "\(current.method) \(current.target) \(current.version.rawValue)"
            log(connection, requestLine: requestLine, status: status, bytes: bodyLength > 0 ? bodyLength : nil)
        }
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
