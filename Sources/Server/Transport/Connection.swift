internal import CLinux

#if canImport(Glibc)
    import Glibc
#endif

/// One accepted TCP connection, owned by the event loop that accepted it (never touched by another thread): its
/// `ConnectionMachine`, which decides what happens next, and the payload the machine does not hold — the bytes
/// received and not yet used, the request being answered and the answer on its way out.
final class Connection {
    let descriptor: Int32
    let peer: PeerAddress
    /// Tells this connection apart from a later one that gets the same descriptor.
    let serial: UInt64
    var machine: ConnectionMachine
    var input: [UInt8] = []
    /// The request being answered (nil for a refusal).
    var request: HTTPRequest?
    /// Why the request was refused before the handler (answered with this instead).
    var refusal: RequestRefusal?
    /// The wait of a held request: its timeout answer.
    var hold: Hold?
    /// The request line being answered, for the access log and HEAD.
    var current: CurrentRequest?
    /// The answer being sent.
    var outgoing: OutgoingMessage?
    /// A `--faults` cut or delay the answer being made meets (a status fault is the answer itself).
    var fault: FaultRule.Action?
    /// The shaped link its answers go through (`SharedLinks`; nil when the server is not shaped).
    var linkKey: String?
    /// On a shaped server, the access log line of the answer being sent, written when it ends with its timing.
    var pendingLog: PendingLog?

    struct PendingLog {
        var requestLine: String
        var status: Int
        var bytes: Int64?
        /// When the answer was ready, and when its first byte left (monotonic ms).
        var readyAt: Int64
        var firstByteAt: Int64?
    }
    /// The bytes that were in the socket's send queue when the answer last blocked: fewer later means that the
    /// client has taken some since (`clientTookBytes`).
    private var queuedWhenBlocked: Int = 0

    struct CurrentRequest {
        var method: String
        var target: String
        var version: HTTPVersion
    }

    init(descriptor: Int32, peer: PeerAddress, serial: UInt64, machine: ConnectionMachine) {
        self.descriptor = descriptor
        self.peer = peer
        self.serial = serial
        self.machine = machine
    }

    /// Notes the socket's send queue when the answer blocked.
    func noteSendQueue() {
        queuedWhenBlocked = Int(filterz_send_queue_bytes(descriptor))
    }

    /// Whether the client took bytes out of the send queue since the answer blocked or the last look (the server
    /// sends nothing meanwhile, so the queue shrinks only as the client's side takes them). Asked on every sweep
    /// of a blocked answer, so progress is known to within a sweep.
    func clientTookBytes() -> Bool {
        let queued = Int(filterz_send_queue_bytes(descriptor))
        guard queued >= 0, queued < queuedWhenBlocked else { return false }
        queuedWhenBlocked = queued
        return true
    }

    /// Reads what the socket holds, up to the machine's input capacity. Nil when the connection failed.
    func readAvailable(scratch: UnsafeMutableRawBufferPointer) -> ConnectionMachine.Reading? {
        let capacity = machine.inputCapacity
        var reading = ConnectionMachine.Reading(
            buffered: input.count, drained: false, peerClosed: false, mayDecide: false)
        while input.count < capacity {
            let wanted = min(scratch.count, capacity - input.count)
            let got = recv(descriptor, scratch.baseAddress, wanted, 0)
            if got > 0 {
                let chunk = UnsafeRawBufferPointer(rebasing: scratch[..<got])
                input.append(contentsOf: chunk)
                reading.buffered = input.count
                if input.count >= capacity
                    || RequestHeadParser.mayDecideBeforeLineEnd(chunk, receivedBefore: input.count - got)
                {
                    reading.mayDecide = true
                }
                if got < wanted && !machine.finSignalled {
                    reading.drained = true
                    return reading
                }
            } else if got == 0 {
                reading.peerClosed = true
                return reading
            } else {
                switch errno {
                case EINTR: continue
                case EAGAIN, EWOULDBLOCK:
                    reading.drained = true
                    return reading
                default: return nil
                }
            }
        }
        return reading
    }
}
