#if canImport(Glibc)
    import Glibc
#endif

/// An IPv4 or IPv6 listening address built from a numeric host and a port.
struct SocketAddress {
    private var storage = sockaddr_storage()
    let isIPv6: Bool

    init(host: String, port: UInt16) throws(ServerError) {
        if host.contains(":") {
            var ipv6 = sockaddr_in6()
            ipv6.sin6_family = sa_family_t(AF_INET6)
            ipv6.sin6_port = port.bigEndian
            guard inet_pton(AF_INET6, host, &ipv6.sin6_addr) == 1 else { throw .badHost(host) }
            withUnsafeMutableBytes(of: &storage) { $0.storeBytes(of: ipv6, as: sockaddr_in6.self) }
            isIPv6 = true
        } else {
            var ipv4 = sockaddr_in()
            ipv4.sin_family = sa_family_t(AF_INET)
            ipv4.sin_port = port.bigEndian
            let name = host == "localhost" ? "127.0.0.1" : host
            guard inet_pton(AF_INET, name, &ipv4.sin_addr) == 1 else { throw .badHost(host) }
            withUnsafeMutableBytes(of: &storage) { $0.storeBytes(of: ipv4, as: sockaddr_in.self) }
            isIPv6 = false
        }
    }

    /// The size of the address structure in use.
    var length: socklen_t {
        socklen_t(isIPv6 ? MemoryLayout<sockaddr_in6>.size : MemoryLayout<sockaddr_in>.size)
    }

    /// Calls `body` with a `sockaddr` pointer valid for the duration of the call.
    mutating func withPointer<T>(_ body: (UnsafePointer<sockaddr>) -> T) -> T {
        withUnsafePointer(to: &storage) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1, body) }
    }
}

/// The address of a connected peer: its numeric text (for the access log) and the key its connections are
/// counted under (IPv4-mapped IPv6 addresses count as the IPv4 address).
struct PeerAddress: Sendable, Hashable {
    /// `127.0.0.1` or `::1`; `-` when unknown.
    var text: String
    var port: UInt16

    init(text: String, port: UInt16) {
        self.text = text
        self.port = port
    }

    init(_ storage: sockaddr_storage) {
        var copy = storage
        var buffer = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN) + 1)
        switch Int32(storage.ss_family) {
        case AF_INET:
            let ipv4 = withUnsafeBytes(of: &copy) { $0.load(as: sockaddr_in.self) }
            var raw = ipv4.sin_addr
            _ = inet_ntop(AF_INET, &raw, &buffer, socklen_t(buffer.count))
            port = UInt16(bigEndian: ipv4.sin_port)
        case AF_INET6:
            let ipv6 = withUnsafeBytes(of: &copy) { $0.load(as: sockaddr_in6.self) }
            var raw = ipv6.sin6_addr
            _ = inet_ntop(AF_INET6, &raw, &buffer, socklen_t(buffer.count))
            port = UInt16(bigEndian: ipv6.sin6_port)
        default:
            text = "-"
            port = 0
            return
        }
        let full = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        text = full.hasPrefix("::ffff:") && full.contains(".") ? String(full.dropFirst(7)) : full
    }
}
