internal import CLinux

#if canImport(Glibc)
    import Glibc
#endif

/// A response on its way out of one connection: the serialised head, then the body from memory or from a file
/// region (sent with sendfile, never copied through Swift). Tracks how much has been sent. A shaped link sends
/// it a slice at a time (`limit`), from `notBefore` on; a fault may cut its body short.
struct OutgoingMessage {
    enum Progress: Equatable {
        /// Everything was sent.
        case finished
        /// The socket's buffer is full: wait until it is writable.
        case blocked
        /// As many bytes as the caller allowed were sent; more are left.
        case limited
        /// The peer is gone, or the file ended before the length the head promised (truncated while being sent):
        /// the connection must be closed now, since the client cannot tell where this answer ends.
        case failed
    }

    private let head: [UInt8]
    private let body: HTTPResponse.Body
    private var headSent = 0
    private var bodySent: Int64 = 0
    /// Not a byte leaves before this instant (monotonic ms): the link's latency, or a delay fault.
    var notBefore: Int64 = 0
    /// A fault cuts the body after this many bytes, and the connection closes there.
    var cutAfterBodyBytes: Int64?

    /// `body` is not sent at all for HEAD requests and statuses without content (the head states its length).
    init(head: [UInt8], body: HTTPResponse.Body) {
        self.head = head
        self.body = body
    }

    var bodyLength: Int64 {
        switch body {
        case .empty: 0
        case .bytes(let bytes): Int64(bytes.count)
        case .file(let region): region.length
        }
    }

    /// The bytes of head and body sent so far, and of the body alone.
    var sentBytes: Int64 { Int64(headSent) + bodySent }
    var sentBodyBytes: Int64 { bodySent }

    /// Where the body stops: its length, or where a fault cuts it.
    private var bodyEnd: Int64 { min(bodyLength, cutAfterBodyBytes ?? .max) }

    /// The bytes still to send (up to a cut).
    var unsentBytes: Int64 { Int64(head.count - headSent) + bodyEnd - bodySent }

    /// Sends as much as the socket takes now, at most `limit` bytes.
    mutating func send(on descriptor: Int32, limit: Int64 = .max) -> Progress {
        var allowance = limit
        while true {
            let step: Int
            if headSent < head.count || bodySent < bodyEnd {
                guard allowance > 0 else { return .limited }
            }
            if headSent < head.count {
                step = sendHead(on: descriptor, atMost: allowance)
            } else if bodySent < bodyEnd {
                step = sendBody(on: descriptor, atMost: allowance)
            } else {
                // A cut body ends the connection: the client cannot tell where this answer ends.
                return bodyEnd < bodyLength ? .failed : .finished
            }
            if step > 0 {
                allowance -= Int64(step)
                continue
            }
            if step == 0 { return .failed }
            switch errno {
            case EINTR: continue
            case EAGAIN, EWOULDBLOCK: return .blocked
            default: return .failed
            }
        }
    }

    /// The head (and a body from memory with it, in one system call); the number of bytes sent, 0 when nothing
    /// could be, -1 with errno.
    private mutating func sendHead(on descriptor: Int32, atMost allowance: Int64) -> Int {
        let flags = Int32(MSG_NOSIGNAL)
        let headCount = Int(min(Int64(head.count - headSent), allowance))
        let bodyCount = Int(min(bodyEnd, max(0, allowance - Int64(headCount))))
        switch body {
        case .bytes(let bytes) where bodyCount > 0:
            let sent = head.withUnsafeBytes { headBuffer in
                bytes.withUnsafeBytes { bodyBuffer in
                    var vectors = [
                        iovec(
                            iov_base: UnsafeMutableRawPointer(mutating: headBuffer.baseAddress! + headSent),
                            iov_len: headCount),
                        iovec(
                            iov_base: UnsafeMutableRawPointer(mutating: bodyBuffer.baseAddress!), iov_len: bodyCount),
                    ]
                    return vectors.withUnsafeMutableBufferPointer { vector in
                        var message = msghdr()
                        message.msg_iov = vector.baseAddress
                        message.msg_iovlen = 2
                        return sendmsg(descriptor, &message, flags)
                    }
                }
            }
            if sent > 0 {
                let forHead = min(sent, headCount)
                headSent += forHead
                bodySent += Int64(sent - forHead)
            }
            return sent
        case .file where bodyEnd > 0:
            // MSG_MORE: the head waits for the file's first bytes, so both leave in the same packets.
            let sent = head.withUnsafeBytes {
                Glibc.send(descriptor, $0.baseAddress! + headSent, headCount, flags | Int32(MSG_MORE))
            }
            if sent > 0 { headSent += sent }
            return sent
        default:
            let sent = head.withUnsafeBytes {
                Glibc.send(descriptor, $0.baseAddress! + headSent, headCount, flags)
            }
            if sent > 0 { headSent += sent }
            return sent
        }
    }

    private mutating func sendBody(on descriptor: Int32, atMost allowance: Int64) -> Int {
        let count = Int(min(bodyEnd - bodySent, allowance))
        switch body {
        case .empty:
            return 0
        case .bytes(let bytes):
            let start = Int(bodySent)
            let sent = bytes.withUnsafeBytes {
                Glibc.send(descriptor, $0.baseAddress! + start, count, Int32(MSG_NOSIGNAL))
            }
            if sent > 0 { bodySent += Int64(sent) }
            return sent
        case .file(let region):
            var offset = off_t(region.offset + bodySent)
            let sent = sendfile(descriptor, region.file.fileDescriptor, &offset, min(count, 1 << 30))
            if sent > 0 { bodySent += Int64(sent) }
            // sendfile answers 0 at the end of the file: it is shorter than when the head was written.
            return sent
        }
    }
}
