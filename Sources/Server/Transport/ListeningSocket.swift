internal import CLinux

#if canImport(Glibc)
    import Glibc
#endif

/// A non-blocking TCP socket listening on one address; closed in `deinit` (or earlier by `close()`).
final class ListeningSocket: @unchecked Sendable {
    let descriptor: Int32
    /// The port bound (the one the system picked when asked for 0).
    let port: UInt16
    private var isClosed = false

    init(host: String, port: UInt16, backlog: Int32 = 4096) throws(ServerError) {
        var address = try SocketAddress(host: host, port: port)
        let family = address.isIPv6 ? AF_INET6 : AF_INET
        let fd = socket(
            family, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw .cannotListen(host: host, port: port, reason: Self.lastError()) }
        var yes: Int32 = 1
        setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &yes, socklen_t(MemoryLayout<Int32>.size))
        if address.isIPv6 {
            setsockopt(fd, Int32(IPPROTO_IPV6), IPV6_V6ONLY, &yes, socklen_t(MemoryLayout<Int32>.size))
        }
        let addressLength = address.length
        let bound = address.withPointer { bind(fd, $0, addressLength) }
        guard bound == 0, listen(fd, backlog) == 0 else {
            let reason = Self.lastError()
            Glibc.close(fd)
            throw .cannotListen(host: host, port: port, reason: reason)
        }
        var storage = sockaddr_storage()
        var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
        _ = withUnsafeMutablePointer(to: &storage) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        descriptor = fd
        self.port = PeerAddress(storage).port
    }

    deinit { close() }

    /// Stops listening: connections not yet accepted are refused from now on.
    func close() {
        guard !isClosed else { return }
        isClosed = true
        Glibc.close(descriptor)
    }

    static func lastError() -> String { String(cString: strerror(errno)) }
}
