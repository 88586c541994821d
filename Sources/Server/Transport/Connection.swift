internal import CLinux

#if canImport(Glibc)
    import Glibc
#endif

/// One accepted TCP connection, owned by the event loop that accepted it (never touched by another thread):
/// the bytes received and not yet used, what it is doing, and when it must be closed if nothing happens.
final class Connection {
    enum Phase {
        /// Reading the next request head; `input` holds what has arrived of it (nothing while idle).
        case awaitingHead
        /// The handler works on the request in the background (a playlist to parse, the catalogue).
        case answering
        /// Sending an answer.
        case sending(OutgoingMessage)
        /// Waiting for a file to change before the request can be answered (LL-HLS).
        case held(HeldRequest)
    }

    /// A request parked until its watched file changes, or until `deadline` (monotonic milliseconds).
    struct HeldRequest {
        var request: HTTPRequest
        var hold: Hold
        var deadline: Int64
    }

    let descriptor: Int32
    let peer: PeerAddress
    /// Tells this connection apart from a later one that gets the same descriptor.
    let serial: UInt64
    var phase: Phase = .awaitingHead
    var input: [UInt8] = []
    /// The client has shut down its side (read returned 0): answer what is complete, then close.
    var peerClosed = false
    /// The client's FIN was signalled (EPOLLRDHUP), maybe with the last bytes: reads go on until one returns 0,
    /// though a short read would otherwise mean that the socket holds nothing more for now.
    var finSignalled = false
    /// A read returned less than asked, so the socket had nothing more: the next read waits for an event.
    var inputDrained = false
    /// The input changed since the last parse attempt in a way that could finish or refuse the head.
    var inputNeedsParse = false
    /// Close once the answer being sent is out (refusals, `Connection: close`, HTTP/1.0).
    var closesAfterAnswer = false
    /// When the current wait began (monotonic milliseconds): the oldest waiting connection is evicted first when
    /// every slot is taken.
    var waitingSince: Int64
    /// When this connection is closed if nothing moves it on (monotonic milliseconds).
    var deadline: Int64
    /// When the answer being sent must be out, however it trickles (`ConnectionTimeouts.answerDeadline`).
    var answerDeadline: Int64 = .max
    /// When the client last took bytes of the answer being sent (monotonic milliseconds).
    var lastProgress: Int64 = 0
    /// The bytes that were in the socket's send queue when the answer last blocked: fewer later means that the
    /// client has taken some since (`clientTookBytes`).
    var queuedWhenBlocked: Int = 0
    /// At least one byte of the current request head has arrived.
    var headStarted = false
    /// The request being answered, for the access log and HEAD.
    var current: CurrentRequest?

    struct CurrentRequest {
        var method: String
        var target: String
        var version: HTTPVersion
    }

    init(descriptor: Int32, peer: PeerAddress, serial: UInt64, now: Int64, headDeadline: Int64) {
        self.descriptor = descriptor
        self.peer = peer
        self.serial = serial
        waitingSince = now
        deadline = headDeadline
    }

    var isAwaitingHead: Bool {
        if case .awaitingHead = phase { return true }
        return false
    }

    /// Where this connection stands when a newcomer needs its slot (nil: it keeps it): waiting for a request, or
    /// sending an answer its client has taken nothing of for `stallMilliseconds`. Held requests and answers being
    /// made keep their slots.
    func reclaimRank(now: Int64, stallMilliseconds: Int64) -> ReclaimRank? {
        switch phase {
        case .awaitingHead: return ReclaimRank(since: waitingSince, .waiting)
        case .sending: return now - lastProgress >= stallMilliseconds ? ReclaimRank(since: lastProgress, .stalled) : nil
        case .answering, .held: return nil
        }
    }

    /// Notes that the answer blocked with the socket's send queue full.
    func answerBlocked() {
        queuedWhenBlocked = Int(filterz_send_queue_bytes(descriptor))
    }

    /// Whether the client took bytes out of the send queue since the answer blocked or the last look (the server
    /// sends nothing meanwhile, so the queue shrinks only as the client's side takes them); if so, that is
    /// progress as of `now`. Asked on every sweep of a blocked answer, so progress is known to within a sweep.
    func clientTookBytes(now: Int64) -> Bool {
        let queued = Int(filterz_send_queue_bytes(descriptor))
        guard queued >= 0, queued < queuedWhenBlocked else { return false }
        queuedWhenBlocked = queued
        lastProgress = now
        return true
    }

    /// Reads what the socket holds, up to `capacity` bytes of input in all. False when the connection failed.
    func readAvailable(capacity: Int, scratch: UnsafeMutableRawBufferPointer) -> Bool {
        while input.count < capacity && !peerClosed {
            let wanted = min(scratch.count, capacity - input.count)
            let got = recv(descriptor, scratch.baseAddress, wanted, 0)
            if got > 0 {
                let chunk = UnsafeRawBufferPointer(rebasing: scratch[..<got])
                input.append(contentsOf: chunk)
                if input.count >= capacity { inputNeedsParse = true }
                if RequestHeadParser.mayDecideBeforeLineEnd(chunk, receivedBefore: input.count - got) {
                    inputNeedsParse = true
                }
                if got < wanted && !finSignalled {
                    inputDrained = true
                    return true
                }
            } else if got == 0 {
                peerClosed = true
                inputNeedsParse = true
                return true
            } else {
                switch errno {
                case EINTR: continue
                case EAGAIN, EWOULDBLOCK:
                    inputDrained = true
                    return true
                default: return false
                }
            }
        }
        return true
    }
}
