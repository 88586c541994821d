import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// The tests' one HTTP/1.1 client over plain sockets to 127.0.0.1 (our server, chromedriver, test origins).
/// `RawConnection` sends bytes exactly as given (nothing normalised, unlike curl) and reads responses, with a
/// time limit on every socket operation so a test can never hang; `fetch` is one request on a fresh
/// connection; `LoopbackHTTP` is one request by URL (`Connection: close`, an optional JSON body), blocking or
/// on a thread of its own. Any status is returned, not thrown, so a test can check it.

/// A parsed HTTP/1.1 response as received on the wire.
public struct RawResponse: Sendable {
    public var status: Int
    /// Lower-case names; the last value of each.
    public var headers: [String: String]
    public var body: [UInt8]
    public var bodyText: String { String(decoding: body, as: UTF8.self) }

    public func header(_ name: String) -> String? { headers[name.lowercased()] }
}

extension RawResponse {
    /// A response made without a socket (a test site in process). `fields`: names in any case (kept in lower
    /// case); the last value of a name wins.
    public init(status: Int, fields: [(String, String)], body: [UInt8]) {
        var headers: [String: String] = [:]
        for (name, value) in fields { headers[name.lowercased()] = value }
        self.init(status: status, headers: headers, body: body)
    }
}

public enum RawHTTPError: Error, CustomStringConvertible {
    case socket(Int32)
    case connect(Int32)
    case send(Int32)
    case receive(Int32)
    case closed(received: Int)
    case malformed(String)

    public var description: String {
        func reason(_ code: Int32) -> String { String(cString: strerror(code)) }
        switch self {
        case .socket(let code): return "socket: \(reason(code))"
        case .connect(let code): return "connect: \(reason(code))"
        case .send(let code): return "send: \(reason(code))"
        case .receive(let code): return "receive: \(reason(code))"
        case .closed(let received): return "connection closed after \(received) bytes of a response"
        case .malformed(let what): return "malformed response: \(what)"
        }
    }
}

/// A TCP connection to 127.0.0.1 that sends bytes exactly as given and reads HTTP/1.1 responses, with a
/// receive and send timeout.
public final class RawConnection {
    public let descriptor: Int32
    private var buffer: [UInt8] = []

    /// `source`: the local IPv4 address to connect from (any of 127.0.0.0/8 reaches the server), so that a test
    /// can stand for many clients.
    public init(port: UInt16, source: String? = nil, timeoutSeconds: Int = 10) throws {
        let socketDescriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard socketDescriptor >= 0 else { throw RawHTTPError.socket(errno) }
        descriptor = socketDescriptor
        if let source, Self.withAddress(source, port: 0, { bind(socketDescriptor, $0, $1) }) != 0 {
            let code = errno
            close(descriptor)
            throw RawHTTPError.connect(code)
        }
        var timeout = timeval(tv_sec: timeoutSeconds, tv_usec: 0)
        setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        setsockopt(descriptor, SOL_SOCKET, SO_SNDTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        guard Self.withAddress("127.0.0.1", port: port, { connect(socketDescriptor, $0, $1) }) == 0 else {
            let code = errno
            close(descriptor)
            throw RawHTTPError.connect(code)
        }
    }

    deinit { close(descriptor) }

    /// Calls `body` (bind or connect) with the IPv4 address `host:port` as a `sockaddr` and its length.
    private static func withAddress(
        _ host: String, port: UInt16, _ body: (UnsafePointer<sockaddr>, socklen_t) -> Int32
    ) -> Int32 {
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        address.sin_addr.s_addr = inet_addr(host)
        return withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { body($0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
    }

    public func send(_ text: String) throws { try send(Array(text.utf8)) }

    public func send(_ bytes: [UInt8]) throws {
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

    /// Reads one response; `bodyExpected: false` for HEAD. The body is framed by chunked encoding or
    /// Content-Length; with neither it is empty, unless `bodyEndsWithConnection` (the request asked for
    /// `Connection: close`), when it runs to the connection's end.
    public func readResponse(bodyExpected: Bool = true, bodyEndsWithConnection: Bool = false) throws -> RawResponse {
        let headerEnd = try position(of: [13, 10, 13, 10])
        let head = String(decoding: buffer[..<headerEnd], as: UTF8.self)
        buffer.removeFirst(headerEnd + 4)
        let lines = head.components(separatedBy: "\r\n")
        let statusParts = lines[0].split(separator: " ")
        guard statusParts.count >= 2, let status = Int(statusParts[1]) else { throw RawHTTPError.malformed(lines[0]) }
        var headers: [String: String] = [:]
        for line in lines.dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { continue }
            headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(
                in: .whitespaces)
        }
        guard bodyExpected && status != 304 && status != 204 && !(100..<200).contains(status) else {
            return RawResponse(status: status, headers: headers, body: [])
        }
        if headers["transfer-encoding"]?.lowercased() == "chunked" {
            return RawResponse(status: status, headers: headers, body: try readChunkedBody())
        }
        let length: Int
        if let declared = headers["content-length"] {
            length = Int(declared) ?? 0
        } else if bodyEndsWithConnection {
            while try fillUnlessClosed() {}
            length = buffer.count
        } else {
            length = 0
        }
        while buffer.count < length { try fill() }
        let body = Array(buffer[..<length])
        buffer.removeFirst(length)
        return RawResponse(status: status, headers: headers, body: body)
    }

    /// Sends a request and reads its response.
    public func request(_ method: String, _ target: String, headers: [String: String] = [:]) throws -> RawResponse {
        var text = "\(method) \(target) HTTP/1.1\r\nHost: 127.0.0.1\r\n"
        for (name, value) in headers.sorted(by: { $0.key < $1.key }) { text += "\(name): \(value)\r\n" }
        try send(text + "\r\n")
        return try readResponse(bodyExpected: method != "HEAD")
    }

    /// Every byte until the peer closes the connection or the receive timeout passes (what is left of a
    /// response already read, and everything after it), and whether it was the peer that ended it.
    public func readToEnd() -> (bytes: [UInt8], closedByPeer: Bool) {
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
    public func isClosedByPeer() -> Bool {
        var byte: UInt8 = 0
        let got = recv(descriptor, &byte, 1, 0)
        return got == 0 || (got < 0 && errno == ECONNRESET)
    }

    /// A chunked body: each chunk's size line (hexadecimal, extensions ignored) and data, up to the last
    /// (empty) chunk and its trailer section.
    private func readChunkedBody() throws -> [UInt8] {
        var body: [UInt8] = []
        while true {
            let lineEnd = try position(of: [13, 10])
            let sizeField = String(decoding: buffer[..<lineEnd], as: UTF8.self).split(separator: ";").first ?? ""
            guard let size = Int(sizeField.trimmingCharacters(in: .whitespaces), radix: 16) else {
                throw RawHTTPError.malformed("chunk size '\(sizeField)'")
            }
            buffer.removeFirst(lineEnd + 2)
            if size == 0 { break }
            while buffer.count < size + 2 { try fill() }
            body += buffer[..<size]
            buffer.removeFirst(size + 2)
        }
        while true {
            let trailerEnd = try position(of: [13, 10])
            buffer.removeFirst(trailerEnd + 2)
            if trailerEnd == 0 { return body }
        }
    }

    /// Where `pattern` first starts in the buffer, reading more until it is there.
    private func position(of pattern: [UInt8]) throws -> Int {
        while true {
            if buffer.count >= pattern.count {
                for index in 0...(buffer.count - pattern.count) where buffer[index] == pattern[0] {
                    if Array(buffer[index..<(index + pattern.count)]) == pattern { return index }
                }
            }
            try fill()
        }
    }

    private func fill() throws {
        guard try fillUnlessClosed() else { throw RawHTTPError.closed(received: buffer.count) }
    }

    /// Reads what has arrived into the buffer; false when the peer has closed the connection.
    private func fillUnlessClosed() throws -> Bool {
        var chunk = [UInt8](repeating: 0, count: 65536)
        let got = chunk.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
        if got < 0 {
            if errno == EINTR { return true }
            throw RawHTTPError.receive(errno)
        }
        if got == 0 { return false }
        buffer.append(contentsOf: chunk[..<got])
        return true
    }
}

/// One request on a fresh connection.
public func fetch(_ port: UInt16, _ method: String = "GET", _ target: String, headers: [String: String] = [:]) throws
    -> RawResponse
{
    try RawConnection(port: port).request(method, target, headers: headers)
}

/// One request by URL (`http://127.0.0.1:PORT/…` only) on its own `Connection: close` connection, with a time
/// limit on every socket operation: for clients of servers on this machine (our server, chromedriver).
public struct LoopbackHTTP: Sendable {
    public struct Failure: Error, CustomStringConvertible {
        public var description: String
    }

    private let timeoutSeconds: Int

    public init(timeoutSeconds: Int = 30) {
        self.timeoutSeconds = timeoutSeconds
    }

    public func get(_ url: String) async throws -> RawResponse {
        try await send("GET", url)
    }

    /// `json`: a JSON body (sent with `Content-Type: application/json`).
    public func send(_ method: String, _ url: String, json: Data? = nil) async throws -> RawResponse {
        let timeout = timeoutSeconds
        return try await withCheckedThrowingContinuation { continuation in
            // A thread of its own: blocking on a dispatch worker can starve a busy test process.
            Thread.detachNewThread {
                continuation.resume(
                    with: Result { try Self.exchange(method, url, json: json, timeoutSeconds: timeout) })
            }
        }
    }

    /// The same request, blocking the calling thread (for clients running on threads of their own).
    public func sendBlocking(_ method: String, _ url: String, json: Data? = nil) throws -> RawResponse {
        try Self.exchange(method, url, json: json, timeoutSeconds: timeoutSeconds)
    }

    private static func exchange(_ method: String, _ url: String, json: Data?, timeoutSeconds: Int) throws
        -> RawResponse
    {
        guard let components = URLComponents(string: url), components.scheme == "http",
            let port = components.port.flatMap(UInt16.init(exactly:)), components.host == "127.0.0.1"
        else { throw Failure(description: "\(url): only http://127.0.0.1:PORT/… URLs") }
        let target =
            components.percentEncodedPath.isEmpty
            ? "/"
            : components.percentEncodedPath
                + (components.percentEncodedQuery.map { "?" + $0 } ?? "")
        var head = "\(method) \(target) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nConnection: close\r\n"
        if let json { head += "Content-Type: application/json\r\nContent-Length: \(json.count)\r\n" }
        do {
            let connection = try RawConnection(port: port, timeoutSeconds: timeoutSeconds)
            try connection.send(Array((head + "\r\n").utf8) + (json.map { [UInt8]($0) } ?? []))
            return try connection.readResponse(bodyExpected: method != "HEAD", bodyEndsWithConnection: true)
        } catch let error as RawHTTPError {
            throw Failure(description: "\(url): \(error)")
        }
    }
}
