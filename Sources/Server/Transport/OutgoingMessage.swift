internal import CLinux

#if canImport(Glibc)
    import Glibc
#endif

/// A response on its way out of one connection: the serialised head, then the body from memory or from a file
/// region (sent with sendfile, never copied through Swift). Tracks how much has been sent.
struct OutgoingMessage {
    enum Progress: Equatable {
        /// Everything was sent.
        case finished
        /// The socket's buffer is full: wait until it is writable.
        case blocked
        /// The peer is gone, or the file ended before the length the head promised (truncated while being sent):
        /// the connection must be closed now, since the client cannot tell where this answer ends.
        case failed
    }

    private let head: [UInt8]
    private let body: HTTPResponse.Body
    private var headSent = 0
    private var bodySent: Int64 = 0

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

    /// The bytes of head and body sent so far.
    var sentBytes: Int64 { Int64(headSent) + bodySent }

    /// Sends as much as the socket takes now.
    mutating func send(on descriptor: Int32) -> Progress {
        while true {
            let step: Int
            if headSent < head.count {
                step = sendHead(on: descriptor)
            } else if bodySent < bodyLength {
                step = sendBody(on: descriptor)
            } else {
                return .finished
            }
            if step > 0 { continue }
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
    private mutating func sendHead(on descriptor: Int32) -> Int {
        let flags = Int32(MSG_NOSIGNAL)
        switch body {
        case .bytes(let bytes) where !bytes.isEmpty:
            let sent = head.withUnsafeBytes { headBuffer in
                bytes.withUnsafeBytes { bodyBuffer in
                    var vectors = [
                        iovec(
                            iov_base: UnsafeMutableRawPointer(mutating: headBuffer.baseAddress! + headSent),
                            iov_len: head.count - headSent),
                        iovec(
                            iov_base: UnsafeMutableRawPointer(mutating: bodyBuffer.baseAddress!), iov_len: bytes.count),
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
                let forHead = min(sent, head.count - headSent)
                headSent += forHead
                bodySent += Int64(sent - forHead)
            }
            return sent
        case .file(let region) where region.length > 0:
            // MSG_MORE: the head waits for the file's first bytes, so both leave in the same packets.
            let sent = head.withUnsafeBytes {
                Glibc.send(descriptor, $0.baseAddress! + headSent, head.count - headSent, flags | Int32(MSG_MORE))
            }
            if sent > 0 { headSent += sent }
            return sent
        default:
            let sent = head.withUnsafeBytes {
                Glibc.send(descriptor, $0.baseAddress! + headSent, head.count - headSent, flags)
            }
            if sent > 0 { headSent += sent }
            return sent
        }
    }

    private mutating func sendBody(on descriptor: Int32) -> Int {
        switch body {
        case .empty:
            return 0
        case .bytes(let bytes):
            let start = Int(bodySent)
            let sent = bytes.withUnsafeBytes {
                Glibc.send(descriptor, $0.baseAddress! + start, bytes.count - start, Int32(MSG_NOSIGNAL))
            }
            if sent > 0 { bodySent += Int64(sent) }
            return sent
        case .file(let region):
            var offset = off_t(region.offset + bodySent)
            let remaining = region.length - bodySent
            let sent = sendfile(descriptor, region.file.fileDescriptor, &offset, Int(min(remaining, 1 << 30)))
            if sent > 0 { bodySent += Int64(sent) }
            // sendfile answers 0 at the end of the file: it is shorter than when the head was written.
            return sent
        }
    }
}
