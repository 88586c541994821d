import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// A parsed HTTP/1.1 response as received on the wire.
struct RawResponse: Sendable {
    var status: Int
    /// Lower-case names; the last value of each.
    var headers: [String: String]
    var body: [UInt8]
    var bodyText: String { String(decoding: body, as: UTF8.self) }

    func header(_ name: String) -> String? { headers[name.lowercased()] }
}

/// A TCP connection to 127.0.0.1 that sends bytes exactly as given (nothing normalised, unlike curl) and reads
/// HTTP/1.1 responses, with a receive timeout so a test can never hang.
final class RawConnection {
    let descriptor: Int32
    private var buffer: [UInt8] = []

    /// `source`: the local IPv4 address to connect from (any of 127.0.0.0/8 reaches the server), so that a test
    /// can stand for many clients.
    init(port: UInt16, source: String? = nil, timeoutSeconds: Int = 10) throws {
        descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { throw RawHTTPError.socket(errno) }
        if let source {
            var local = sockaddr_in()
            local.sin_family = sa_family_t(AF_INET)
            local.sin_addr.s_addr = inet_addr(source)
            let bound = withUnsafePointer(to: &local) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
                }
            }
            guard bound == 0 else {
                let code = errno
                close(descriptor)
                throw RawHTTPError.connect(code)
            }
        }
        var timeout = timeval(tv_sec: timeoutSeconds, tv_usec: 0)
        setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        setsockopt(descriptor, SOL_SOCKET, SO_SNDTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard connected == 0 else {
            let code = errno
            close(descriptor)
            throw RawHTTPError.connect(code)
        }
    }

    deinit { close(descriptor) }

    func send(_ text: String) throws { try send(Array(text.utf8)) }

    func send(_ bytes: [UInt8]) throws {
        var offset = 0
        while offset < bytes.count {
            let sent = bytes[offset...].withUnsafeBytes {
                Glibc.send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL))
            }
            if sent < 0 {
                if errno == EINTR { continue }
                throw RawHTTPError.send(errno)
            }
            offset += sent
        }
    }

    /// Reads one response; `bodyExpected: false` for HEAD.
    func readResponse(bodyExpected: Bool = true) throws -> RawResponse {
        var headerEnd: Int?
        while headerEnd == nil {
            if let range = find([13, 10, 13, 10]) {
                headerEnd = range
            } else {
                try fill()
            }
        }
        let head = String(decoding: buffer[..<headerEnd!], as: UTF8.self)
        buffer.removeFirst(headerEnd! + 4)
        let lines = head.components(separatedBy: "\r\n")
        let statusParts = lines[0].split(separator: " ")
        guard statusParts.count >= 2, let status = Int(statusParts[1]) else { throw RawHTTPError.malformed(lines[0]) }
        var headers: [String: String] = [:]
        for line in lines.dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { continue }
            headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(
                in: .whitespaces)
        }
        var length = 0
        if bodyExpected && status != 304 && status != 204 && !(100..<200).contains(status) {
            length = Int(headers["content-length"] ?? "0") ?? 0
        }
        while buffer.count < length { try fill() }
        let body = Array(buffer[..<length])
        buffer.removeFirst(length)
        return RawResponse(status: status, headers: headers, body: body)
    }

    /// Sends a request and reads its response.
    func request(_ method: String, _ target: String, headers: [String: String] = [:]) throws -> RawResponse {
        var text = "\(method) \(target) HTTP/1.1\r\nHost: 127.0.0.1\r\n"
        for (name, value) in headers.sorted(by: { $0.key < $1.key }) { text += "\(name): \(value)\r\n" }
        try send(text + "\r\n")
        return try readResponse(bodyExpected: method != "HEAD")
    }

    /// Every byte until the peer closes the connection or the receive timeout passes (what is left of a
    /// response already read, and everything after it), and whether it was the peer that ended it.
    func readToEnd() -> (bytes: [UInt8], closedByPeer: Bool) {
        var received = buffer
        buffer = []
        var chunk = [UInt8](repeating: 0, count: 65536)
        while true {
            let got = chunk.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
            if got < 0 && errno == EINTR { continue }
            if got == 0 || (got < 0 && errno == ECONNRESET) { return (received, true) }
            if got < 0 { return (received, false) }
            received += chunk[..<got]
        }
    }

    /// True when the peer has closed the connection (reads EOF within `timeoutSeconds`).
    func isClosedByPeer() -> Bool {
        var byte: UInt8 = 0
        let got = recv(descriptor, &byte, 1, 0)
        return got == 0 || (got < 0 && errno == ECONNRESET)
    }

    private func fill() throws {
        var chunk = [UInt8](repeating: 0, count: 65536)
        let got = chunk.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
        if got < 0 {
            if errno == EINTR { return }
            throw RawHTTPError.receive(errno)
        }
        if got == 0 { throw RawHTTPError.closed(received: buffer.count) }
        buffer.append(contentsOf: chunk[..<got])
    }

    private func find(_ pattern: [UInt8]) -> Int? {
        guard buffer.count >= pattern.count else { return nil }
        for index in 0...(buffer.count - pattern.count) where buffer[index] == pattern[0] {
            if Array(buffer[index..<(index + pattern.count)]) == pattern { return index }
        }
        return nil
    }
}

enum RawHTTPError: Error {
    case socket(Int32)
    case connect(Int32)
    case send(Int32)
    case receive(Int32)
    case closed(received: Int)
    case malformed(String)
}

/// One request on a fresh connection.
func fetch(_ port: UInt16, _ method: String = "GET", _ target: String, headers: [String: String] = [:]) throws
    -> RawResponse
{
    try RawConnection(port: port).request(method, target, headers: headers)
}
