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

    /// Calls `body` with a `sockaddr` pointer valid for the duration of the call.
    mutating func withPointer<T>(_ body: (UnsafePointer<sockaddr>) -> T) -> T {
        withUnsafePointer(to: &storage) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1, body) }
    }
}
