import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// A small HTTP/1.1 client for tests that talk to servers on 127.0.0.1 (our server, chromedriver): one
/// request per connection (`Connection: close`), the status and the whole body, with a time limit on every
/// socket operation. Any status is returned, not thrown, so a test can check it. Plain sockets, each
/// request on its own thread, so many clients can wait at once without holding Swift's cooperative threads.
public struct LoopbackHTTP: Sendable {
    public struct Response: Sendable {
        public var status: Int
        public var body: Data
        public var text: String { String(decoding: body, as: UTF8.self) }
    }

    public struct Failure: Error, CustomStringConvertible {
        public var description: String
    }

    private let timeoutSeconds: Int

    public init(timeoutSeconds: Int = 30) {
        self.timeoutSeconds = timeoutSeconds
    }

    public func get(_ url: String) async throws -> Response {
        try await send("GET", url)
    }

    /// `json`: a JSON body (sent with `Content-Type: application/json`).
    public func send(_ method: String, _ url: String, json: Data? = nil) async throws -> Response {
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
    public func sendBlocking(_ method: String, _ url: String, json: Data? = nil) throws -> Response {
        try Self.exchange(method, url, json: json, timeoutSeconds: timeoutSeconds)
    }

    private static func exchange(_ method: String, _ url: String, json: Data?, timeoutSeconds: Int) throws -> Response {
        guard let components = URLComponents(string: url), components.scheme == "http", let port = components.port,
            components.host == "127.0.0.1"
        else { throw Failure(description: "\(url): only http://127.0.0.1:PORT/… URLs") }
        let target =
            components.percentEncodedPath.isEmpty
            ? "/"
            : components.percentEncodedPath
                + (components.percentEncodedQuery.map { "?" + $0 } ?? "")
        var head = "\(method) \(target) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nConnection: close\r\n"
        if let json { head += "Content-Type: application/json\r\nContent-Length: \(json.count)\r\n" }
        var request = Array((head + "\r\n").utf8)
        if let json { request += json }

        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { throw Failure(description: "\(url): socket: \(String(cString: strerror(errno)))") }
        defer { close(descriptor) }
        var timeout = timeval(tv_sec: timeoutSeconds, tv_usec: 0)
        setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        setsockopt(descriptor, SOL_SOCKET, SO_SNDTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = UInt16(port).bigEndian
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard connected == 0 else { throw Failure(description: "\(url): connect: \(String(cString: strerror(errno)))") }

        var sent = 0
        while sent < request.count {
            let count = request[sent...].withUnsafeBytes {
                Glibc.send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL))
            }
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { throw Failure(description: "\(url): send: \(String(cString: strerror(errno)))") }
            sent += count
        }
        // Reads until the response is complete (some servers keep the connection open despite `close`).
        var received: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65536)
        while true {
            let count = chunk.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
            if count < 0 && errno == EINTR { continue }
            guard count >= 0 else { throw Failure(description: "\(url): receive: \(String(cString: strerror(errno)))") }
            if count == 0 { break }
            received += chunk[..<count]
            if let response = try? parse(received, url: url, complete: false) { return response }
        }
        return try parse(received, url: url, complete: true)
    }

    /// Status line, headers, and the body as framed by Content-Length, chunked encoding or the connection's end.
    /// `complete: false` while bytes still arrive: throws unless the framing says the response is whole.
    private static func parse(_ bytes: [UInt8], url: String, complete: Bool) throws -> Response {
        guard bytes.count >= 4,
            let end = (0...(bytes.count - 4)).first(where: {
                bytes[$0] == 13 && bytes[$0 + 1] == 10 && bytes[$0 + 2] == 13 && bytes[$0 + 3] == 10
            })
        else { throw Failure(description: "\(url): incomplete response (\(bytes.count) bytes)") }
        let lines = String(decoding: bytes[..<end], as: UTF8.self).components(separatedBy: "\r\n")
        let statusFields = lines[0].split(separator: " ")
        guard statusFields.count >= 2, let status = Int(statusFields[1]) else {
            throw Failure(description: "\(url): bad status line \(lines[0])")
        }
        var headers: [String: String] = [:]
        for line in lines.dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { continue }
            headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(
                in: .whitespaces)
        }
        var body = Array(bytes[(end + 4)...])
        if headers["transfer-encoding"]?.lowercased() == "chunked" {
            body = try dechunk(body, url: url)
        } else if let length = headers["content-length"].flatMap({ Int($0) }) {
            guard body.count >= length else {
                throw Failure(description: "\(url): body cut at \(body.count) of \(length) bytes")
            }
            body = Array(body.prefix(length))
        } else if !complete {
            throw Failure(description: "\(url): body ends with the connection")
        }
        return Response(status: status, body: Data(body))
    }

    private static func dechunk(_ bytes: [UInt8], url: String) throws -> [UInt8] {
        var out: [UInt8] = [], index = 0
        while true {
            guard
                let lineEnd = (index..<max(index, bytes.count - 1)).first(where: {
                    bytes[$0] == 13 && bytes[$0 + 1] == 10
                }),
                let size = Int(
                    String(decoding: bytes[index..<lineEnd], as: UTF8.self).split(separator: ";")[0], radix: 16)
            else { throw Failure(description: "\(url): bad chunked body") }
            if size == 0 { return out }
            let start = lineEnd + 2
            guard start + size <= bytes.count else { throw Failure(description: "\(url): chunk cut short") }
            out += bytes[start..<start + size]
            index = start + size + 2
        }
    }
}
