#if canImport(Glibc)
import Glibc
#endif
import Synchronization
internal import CMicroHTTPD

/// The HTTP/1.1 server: libmicrohttpd listening on a host and port, one epoll loop per thread, answering every
/// request through a `RequestHandler` and sending files with sendfile.
///
///     var configuration = ServerConfiguration(root: "out")
///     configuration.port = 0
///     let server = try HTTPServer(configuration: configuration)
///     print("http://127.0.0.1:\(server.port)/")
///     …
///     server.stop()
///
/// Requests are answered on libmicrohttpd's second call of the access handler (answering on the first makes it
/// close keep-alive connections). The path reaches the handler with its percent-escapes intact.
public final class HTTPServer: @unchecked Sendable {
    public let handler: RequestHandler
    public let configuration: ServerConfiguration
    /// The port listened on (the one picked by the system when configured as 0).
    public private(set) var port: UInt16 = 0
    private let accessLog: (@Sendable (String) -> Void)?
    private let daemon = Mutex<DaemonHandle?>(nil)
    private let requestsInFlight = Atomic<Int>(0)
    /// False once `stop` has begun: connections accepted after that are closed at once.
    private let acceptsConnections = Atomic<Bool>(true)
    /// Whole-file answers for small files, ready to give again (nil when `reusesAnswers` is off).
    private let preparedAnswers: PreparedAnswers?

    /// Starts listening.
    /// - Parameter accessLog: receives one Common Log Format line per request (without newline); nil: no log.
    public init(configuration: ServerConfiguration, accessLog: (@Sendable (String) -> Void)? = nil) throws(ServerError) {
        self.configuration = configuration
        self.accessLog = accessLog
        handler = try RequestHandler(configuration: configuration)
        preparedAnswers = configuration.reusesAnswers ? PreparedAnswers() : nil
        try start()
    }

    deinit { stop(graceSeconds: 0) }

    /// `http://host:port` (IPv6 hosts in brackets).
    public var baseURL: String {
        let host = configuration.host.contains(":") ? "[\(configuration.host)]" : configuration.host
        return "http://\(host):\(port)"
    }

    /// Requests received and not yet completed.
    public var inFlightCount: Int { requestsInFlight.load(ordering: .relaxed) }

    /// Stops accepting connections, lets requests in flight finish (up to `graceSeconds`), then closes
    /// everything. Safe to call more than once.
    ///
    /// New connections are closed by the accept policy rather than by `MHD_quiesce_daemon`: with a thread pool,
    /// libmicrohttpd 0.9.75's quiesce races a worker taking the listening socket out of its epoll set, and the
    /// loser aborts the process ("Failed to remove listen FD from epoll set", daemon.c). The listening socket
    /// stays open until `MHD_stop_daemon`, so a client that connects meanwhile is closed, not left waiting.
    public func stop(graceSeconds: Double = 10) {
        guard let running = daemon.withLock({ current -> DaemonHandle? in
            defer { current = nil }
            return current
        })?.pointer else { return }
        acceptsConnections.store(false, ordering: .sequentiallyConsistent)
        var waited = 0.0
        while requestsInFlight.load(ordering: .acquiring) > 0 && waited < graceSeconds {
            usleep(5_000)
            waited += 0.005
        }
        MHD_stop_daemon(running)
    }

    /// False from the moment `stop` begins: new connections are then closed as soon as they are accepted.
    public var isAcceptingConnections: Bool { acceptsConnections.load(ordering: .sequentiallyConsistent) }

    private func start() throws(ServerError) {
        var address = try SocketAddress(host: configuration.host, port: configuration.port)
        let threads = configuration.threadCount > 0 ? configuration.threadCount : Int(sysconf(Int32(_SC_NPROCESSORS_ONLN)))
        var flags = MHD_USE_EPOLL_INTERNAL_THREAD.rawValue | MHD_USE_ITC.rawValue | MHD_USE_TURBO.rawValue
        if address.isIPv6 { flags |= MHD_USE_IPv6.rawValue }
        let context = Unmanaged.passUnretained(self).toOpaque()
        let started: OpaquePointer? = address.withPointer { socketAddress in
            let options: [MHD_OptionItem] = [
                filterz_mhd_option(.SOCK_ADDR, 0, UnsafeMutableRawPointer(mutating: socketAddress)),
                filterz_mhd_option(.THREAD_POOL_SIZE, max(1, threads), nil),
                filterz_mhd_option(.CONNECTION_LIMIT, configuration.connectionLimit, nil),
                filterz_mhd_option(.CONNECTION_TIMEOUT, configuration.idleTimeoutSeconds, nil),
                filterz_mhd_option(.CONNECTION_MEMORY_LIMIT, configuration.requestHeaderBytes, nil),
                filterz_mhd_option(.LISTEN_BACKLOG_SIZE, 4096, nil),
                // RFC 9112 strictness: e.g. an HTTP/1.1 request without Host gets 400.
                filterz_mhd_option(.STRICT_FOR_CLIENT, 1, nil),
                filterz_mhd_option_keep_escapes(),
                filterz_mhd_option_notify_completed(requestCompleted, context),
                filterz_mhd_option(.END, 0, nil),
            ]
            return options.withUnsafeBufferPointer { items in
                filterz_mhd_start_daemon(
                    flags, configuration.port, acceptPolicy, accessHandler, context, items.baseAddress)
            }
        }
        guard let started else {
            throw .cannotListen(host: configuration.host, port: configuration.port, reason: ServedFolder.lastError())
        }
        port = filterz_mhd_bound_port(started)
        daemon.withLock { $0 = DaemonHandle(pointer: started) }
    }

    /// Answers one complete request (called from libmicrohttpd's threads).
    fileprivate func answer(
        _ connection: OpaquePointer, path: String, method: String, version: String
    ) -> MHD_Result {
        var headers: [String: String] = [:]
        for name in HTTPRequest.headerNames {
            if let value = MHD_lookup_connection_value(connection, .HEADER_KIND, name) {
                headers[name] = String(cString: value)
            }
        }
        let query = Self.rawQuery(connection)
        let target = query.isEmpty ? path : path + "?" + query
        let request = HTTPRequest(method: method, rawPath: path, rawQuery: query, headers: headers)
        let now = Int64(time(nil))
        let result: MHD_Result
        let status: Int
        let bodyLength: Int64
        let reusable = preparedAnswers != nil && request.canReuseAnswer
        if reusable, let prepared = preparedAnswers?.answer(for: target), handler.stillHolds(prepared.version, now: now) {
            result = MHD_queue_response(connection, 200, prepared.response)
            (status, bodyLength) = (200, prepared.bodyLength)
        } else {
            let response = handler.respond(to: request, now: now)
            if reusable, let prepared = preparedAnswers?.prepare(response, for: target) {
                result = MHD_queue_response(connection, 200, prepared.response)
            } else {
                result = queue(response, on: connection)
            }
            (status, bodyLength) = (response.status, response.bodyLength)
        }
        if let accessLog {
            let sent: Int64? = method == "HEAD" || status == 304 || bodyLength == 0 ? nil : bodyLength
            accessLog(
                AccessLog.line(
                    client: Self.clientAddress(connection), secondsSinceEpoch: now,
                    requestLine: "\(method) \(target) \(version)", status: status, bytes: sent))
        }
        return result
    }

    private func queue(_ response: HTTPResponse, on connection: OpaquePointer) -> MHD_Result {
        let made: OpaquePointer?
        if case .file(let region) = response.body, region.length > 0 {
            // libmicrohttpd owns the descriptor from here on and closes it with the response.
            let descriptor = region.file.release()
            made = MHD_create_response_from_fd_at_offset64(UInt64(region.length), descriptor, UInt64(region.offset))
            if let made {
                for (name, value) in response.headers { _ = MHD_add_response_header(made, name, value) }
            } else {
                close(descriptor)
            }
        } else {
            made = Self.makeResponse(headers: response.headers, body: response.bodyBytes())
        }
        guard let made else { return .NO }
        defer { MHD_destroy_response(made) }
        return MHD_queue_response(connection, UInt32(response.status), made)
    }

    /// A libmicrohttpd response holding a copy of `body`, with `headers`; the caller destroys it.
    static func makeResponse(headers: [(String, String)], body: [UInt8]) -> OpaquePointer? {
        let made: OpaquePointer? =
            body.isEmpty
            ? MHD_create_response_from_buffer(0, nil, .RESPMEM_PERSISTENT)
            : body.withUnsafeBytes { buffer in
                MHD_create_response_from_buffer(buffer.count, UnsafeMutableRawPointer(mutating: buffer.baseAddress), .RESPMEM_MUST_COPY)
            }
        guard let made else { return nil }
        for (name, value) in headers { _ = MHD_add_response_header(made, name, value) }
        return made
    }

    /// The query string as sent (libmicrohttpd has split it into arguments; they are joined back in order).
    private static func rawQuery(_ connection: OpaquePointer) -> String {
        var query = ""
        _ = withUnsafeMutablePointer(to: &query) { pointer in
            MHD_get_connection_values(
                connection, .GET_ARGUMENT_KIND,
                { cls, _, key, value in
                    guard let cls, let key else { return .YES }
                    let query = cls.assumingMemoryBound(to: String.self)
                    if !query.pointee.isEmpty { query.pointee += "&" }
                    // libmicrohttpd turned `+` into spaces before our (no-op) unescaping.
                    query.pointee += String(cString: key).replacingSpaces()
                    if let value { query.pointee += "=" + String(cString: value).replacingSpaces() }
                    return .YES
                }, pointer)
        }
        return query
    }

    private static func clientAddress(_ connection: OpaquePointer) -> String {
        guard let address = filterz_mhd_client_address(connection) else { return "-" }
        var text = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN) + 1)
        switch Int32(address.pointee.sa_family) {
        case AF_INET:
            address.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { ipv4 in
                var raw = ipv4.pointee.sin_addr
                _ = inet_ntop(AF_INET, &raw, &text, socklen_t(text.count))
            }
        case AF_INET6:
            address.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { ipv6 in
                var raw = ipv6.pointee.sin6_addr
                _ = inet_ntop(AF_INET6, &raw, &text, socklen_t(text.count))
            }
        default:
            return "-"
        }
        return String(decoding: text.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    fileprivate func requestStarted() { requestsInFlight.add(1, ordering: .relaxed) }
    fileprivate func requestEnded() { requestsInFlight.subtract(1, ordering: .releasing) }
}

/// A running libmicrohttpd daemon (thread-safe: its API may be called from any thread).
private struct DaemonHandle: @unchecked Sendable {
    let pointer: OpaquePointer
}

/// Marks a request whose first access-handler call has been seen (any non-nil value would do).
private var requestStartedMarker: UnsafeMutableRawPointer? { UnsafeMutableRawPointer(bitPattern: 1) }

private let accessHandler: MHD_AccessHandlerCallback = {
    cls, connection, url, method, version, _, uploadDataSize, requestContext in
    guard let cls, let connection, let url, let method, let requestContext else { return .NO }
    let server = Unmanaged<HTTPServer>.fromOpaque(cls).takeUnretainedValue()
    if requestContext.pointee == nil {
        // First call: headers are in, the body (if any) is not. Answering now would close the connection.
        requestContext.pointee = requestStartedMarker
        server.requestStarted()
        return .YES
    }
    if let uploadDataSize, uploadDataSize.pointee > 0 {
        uploadDataSize.pointee = 0  // request bodies are read and ignored
        return .YES
    }
    return server.answer(
        connection, path: String(cString: url), method: String(cString: method),
        version: version.map { String(cString: $0) } ?? "HTTP/1.0")
}

private let acceptPolicy: MHD_AcceptPolicyCallback = { cls, _, _ in
    guard let cls else { return .NO }
    return Unmanaged<HTTPServer>.fromOpaque(cls).takeUnretainedValue().isAcceptingConnections ? .YES : .NO
}

private let requestCompleted: MHD_RequestCompletedCallback = { cls, _, requestContext, _ in
    guard let cls, let requestContext, requestContext.pointee != nil else { return }
    requestContext.pointee = nil
    Unmanaged<HTTPServer>.fromOpaque(cls).takeUnretainedValue().requestEnded()
}

extension String {
    fileprivate func replacingSpaces() -> String {
        contains(" ") ? String(map { $0 == " " ? "+" : $0 }) : self
    }
}
