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

    /// Reads what the socket holds, up to `capacity` bytes of input in all. False when the connection failed.
    func readAvailable(capacity: Int, scratch: UnsafeMutableRawBufferPointer) -> Bool {
        while input.count < capacity && !peerClosed {
            let wanted = min(scratch.count, capacity - input.count)
            let got = recv(descriptor, scratch.baseAddress, wanted, 0)
            if got > 0 {
                let chunk = UnsafeRawBufferPointer(rebasing: scratch[..<got])
                input.append(contentsOf: chunk)
                if chunk.contains(UInt8(ascii: "\n")) || input.count >= capacity { inputNeedsParse = true }
                if got < wanted {
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
