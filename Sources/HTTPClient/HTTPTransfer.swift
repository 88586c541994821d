import CCurl
import Synchronization

/// One blocking HTTP(S) request through libcurl's easy interface, with its body bounded as it arrives.
///
/// libcurl hands over the body one buffer at a time and waits for each to be taken, so a body is never read
/// far past the limit, which bounds two counts: the bytes received (compressed, for a content-encoded body)
/// and the body after decoding, so that neither a gzip bomb nor an endless compressed stream that inflates to
/// nothing runs on. A declared `Content-Length` (which counts the bytes sent) over the limit is refused before
/// any of the body is read. The whole exchange, redirects included, must end within the deadline.
///
/// Redirects are followed here, not by libcurl (at most 10, http and https only), so that the request's extra
/// headers go only to the origin of the URL asked for: libcurl would carry them to any host a redirect names.
/// Any status is returned, not thrown.
public enum HTTPTransfer {
    /// Redirects followed before a request fails.
    public static let maximumRedirects = 10

    /// The bytes sent and where to: the method, extra header lines, an optional byte range.
    public struct Request: Sendable {
        public enum Method: String, Sendable {
            case get = "GET"
            case head = "HEAD"
        }

        public var url: String
        public var method: Method
        /// Extra request headers (`Authorization: Bearer …`), sent only while the request stays on the origin
        /// (scheme, host, port) of `url`: a redirect to another origin is followed without them.
        public var headers: [(name: String, value: String)]
        /// Asks for `length` bytes from `offset` (an HTTP `Range` request); the server may ignore it.
        public var range: (offset: Int, length: Int)?
        /// The largest body accepted: as received, and again after decoding a `Content-Encoding`.
        public var maximumBodyBytes: Int
        /// How long the whole exchange may take, redirects included.
        public var timeoutSeconds: Double

        public init(
            url: String, method: Method = .get, headers: [(name: String, value: String)] = [],
            range: (offset: Int, length: Int)? = nil, maximumBodyBytes: Int, timeoutSeconds: Double
        ) {
            self.url = url
            self.method = method
            self.headers = headers
            self.range = range
            self.maximumBodyBytes = maximumBodyBytes
            self.timeoutSeconds = timeoutSeconds
        }
    }

    /// The final response (after redirects): status, header fields with lowercased names, the decoded body.
    public struct Response: Sendable {
        public var status: Int
        public var headers: [String: String]
        public var body: [UInt8]
    }

    /// Which count of a body passed the limit.
    public enum BodyMeasure: Sendable, Equatable {
        /// The bytes received; `contentEncoding` names the coding they were in (nil: none, the body itself).
        case received(contentEncoding: String?)
        /// The body after decoding `contentEncoding` (a small compressed body that inflates past the limit).
        case decoded(contentEncoding: String)
    }

    /// Why a transfer gave no response.
    public enum Failure: Error, Equatable {
        /// `Content-Length` is over the limit; nothing of the body was read.
        case declaredLengthTooLarge(Int64)
        /// The body passed the limit by `BodyMeasure`; the transfer was stopped there.
        case bodyTooLarge(BodyMeasure)
        /// The deadline passed before a response's status line arrived.
        case noResponse
        /// The deadline passed during the response: `receivedBytes` of its body had arrived, `decodedBytes`
        /// once decoded from `contentEncoding` (the same number when that is nil).
        case incomplete(receivedBytes: Int64, decodedBytes: Int, contentEncoding: String?)
        /// Anything else (bad URL, refused connection, TLS, protocol error), in libcurl's words.
        case failed(String)
    }

    /// Runs `request` on the calling thread until it ends, on a handle of `connections` when given (so that it
    /// can reuse a connection an earlier request to the same origin left open).
    public static func run(_ request: Request, connections: HTTPConnections? = nil) throws(Failure) -> Response {
        _ = globalSetUp
        let pool = connections ?? HTTPConnections()
        guard let handle = pool.take() else { throw .failed("libcurl could not start a transfer") }
        defer { pool.giveBack(handle) }
        let clock = ContinuousClock()
        let deadline = clock.now + .milliseconds(max(1, Int(min(request.timeoutSeconds, 1e9) * 1000)))
        let origin = origin(of: request.url)
        var url = request.url
        for _ in 0...maximumRedirects {
            let remaining = clock.now.duration(to: deadline)
            guard remaining > .zero else { throw .noResponse }
            let sameOrigin = origin != nil && Self.origin(of: url) == origin
            let hop = try exchange(
                handle.pointer, request, url: url, headers: sameOrigin ? request.headers : [],
                timeoutMilliseconds: max(1, Int(remaining / .milliseconds(1))))
            switch hop {
            case .response(let response):
                return response
            case .redirect(let location):
                guard let next = resolve(location, against: url) else {
                    throw .failed("redirected to a location that is not a URL: \(location)")
                }
                url = next
            }
        }
        throw .failed("more than \(maximumRedirects) redirects")
    }

    /// What one request on the way answered: the final response, or a redirect to follow.
    private enum Hop {
        case response(Response)
        case redirect(String)
    }

    /// One request to `url` on `handle`, with `headers`; a redirect's body is not read.
    private static func exchange(
        _ handle: UnsafeMutableRawPointer, _ request: Request, url: String,
        headers: [(name: String, value: String)], timeoutMilliseconds: Int
    ) throws(Failure) -> Hop {
        // Options of an earlier request go; the handle's open connections stay.
        curl_easy_reset(handle)
        let exchange = Exchange(request)
        let context = Unmanaged.passUnretained(exchange).toOpaque()
        let errorText = UnsafeMutablePointer<CChar>.allocate(capacity: Int(CURL_ERROR_SIZE))
        errorText.initialize(repeating: 0, count: Int(CURL_ERROR_SIZE))
        defer { errorText.deallocate() }
        var headerList: UnsafeMutablePointer<curl_slist>?
        for header in headers { headerList = curl_slist_append(headerList, "\(header.name): \(header.value)") }
        defer { curl_slist_free_all(headerList) }

        let code = withExtendedLifetime(exchange) { () -> CURLcode in
            _ = filterz_curl_set_string(handle, CURLOPT_URL, url)
            _ = filterz_curl_set_long(handle, CURLOPT_NOSIGNAL, 1)
            _ = filterz_curl_set_long(handle, CURLOPT_TIMEOUT_MS, timeoutMilliseconds)
            _ = filterz_curl_set_string(handle, CURLOPT_PROTOCOLS_STR, "http,https")
            _ = filterz_curl_set_string(handle, CURLOPT_ACCEPT_ENCODING, "")  // every coding libcurl decodes
            _ = filterz_curl_set_string(handle, CURLOPT_USERAGENT, "filterz")
            _ = filterz_curl_set_pointer(handle, CURLOPT_ERRORBUFFER, errorText)
            if let headerList { _ = filterz_curl_set_pointer(handle, CURLOPT_HTTPHEADER, headerList) }
            if request.method == .head { _ = filterz_curl_set_long(handle, CURLOPT_NOBODY, 1) }
            if let range = request.range {
                _ = filterz_curl_set_string(handle, CURLOPT_RANGE, "\(range.offset)-\(range.offset + range.length - 1)")
            }
            _ = filterz_curl_set_pointer(handle, CURLOPT_HEADERDATA, context)
            _ = filterz_curl_set_receiver(handle, CURLOPT_HEADERFUNCTION) { data, size, count, context in
                Unmanaged<Exchange>.fromOpaque(context!).takeUnretainedValue()
                    .receiveHeaderLine(UnsafeRawBufferPointer(start: data, count: size * count))
            }
            _ = filterz_curl_set_pointer(handle, CURLOPT_WRITEDATA, context)
            _ = filterz_curl_set_receiver(handle, CURLOPT_WRITEFUNCTION) { data, size, count, context in
                Unmanaged<Exchange>.fromOpaque(context!).takeUnretainedValue()
                    .receiveBody(UnsafeRawBufferPointer(start: data, count: size * count))
            }
            // The bytes received, before any decoding, are only seen here.
            _ = filterz_curl_set_long(handle, CURLOPT_NOPROGRESS, 0)
            _ = filterz_curl_set_pointer(handle, CURLOPT_XFERINFODATA, context)
            _ = filterz_curl_set_progress(handle) { context, _, received, _, _ in
                Unmanaged<Exchange>.fromOpaque(context!).takeUnretainedValue().received(received)
            }
            return curl_easy_perform(handle)
        }

        if let location = exchange.redirect { return .redirect(location) }
        if let refusal = exchange.refusal { throw refusal }
        switch code {
        case CURLE_OK:
            return .response(Response(status: exchange.status, headers: exchange.headers, body: exchange.body))
        case CURLE_OPERATION_TIMEDOUT:
            guard exchange.status != 0 else { throw .noResponse }
            var received: curl_off_t = 0
            _ = filterz_curl_get_offset(handle, CURLINFO_SIZE_DOWNLOAD_T, &received)
            throw .incomplete(
                receivedBytes: Int64(received), decodedBytes: exchange.body.count,
                contentEncoding: exchange.contentEncoding)
        default:
            let detail = String(cString: errorText)
            throw .failed(detail.isEmpty ? String(cString: curl_easy_strerror(code)) : detail)
        }
    }

    /// `scheme://host:port` of `url` as libcurl reads it (scheme and host lowercased, the scheme's default port
    /// filled in), or nil when it is not a URL: what "the same origin" compares.
    public static func origin(of url: String) -> String? {
        guard let handle = curl_url() else { return nil }
        defer { curl_url_cleanup(handle) }
        guard curl_url_set(handle, CURLUPART_URL, url, 0) == CURLUE_OK,
            let scheme = part(handle, CURLUPART_SCHEME), let host = part(handle, CURLUPART_HOST),
            let port = part(handle, CURLUPART_PORT, flags: UInt32(CURLU_DEFAULT_PORT))
        else { return nil }
        return "\(scheme.lowercased())://\(host.lowercased()):\(port)"
    }

    /// `reference` (a `Location` value, absolute or relative) resolved against `base`, or nil when it is not a URL.
    static func resolve(_ reference: String, against base: String) -> String? {
        guard let handle = curl_url() else { return nil }
        defer { curl_url_cleanup(handle) }
        guard curl_url_set(handle, CURLUPART_URL, base, 0) == CURLUE_OK,
            curl_url_set(handle, CURLUPART_URL, reference, 0) == CURLUE_OK
        else { return nil }
        return part(handle, CURLUPART_URL)
    }

    private static func part(_ handle: OpaquePointer, _ which: CURLUPart, flags: UInt32 = 0) -> String? {
        var text: UnsafeMutablePointer<CChar>?
        guard curl_url_get(handle, which, &text, flags) == CURLUE_OK, let text else { return nil }
        defer { curl_free(text) }
        return String(cString: text)
    }

    /// `curl_global_init` once per process, before the first transfer (it is not safe to run concurrently).
    private static let globalSetUp: Void = { _ = curl_global_init(Int(CURL_GLOBAL_ALL)) }()
}

/// libcurl easy handles kept between requests: libcurl leaves a handle's connections open after its transfer,
/// so requests made on the same handle to the same origin reuse one connection instead of opening one each.
/// Threads share it: each request takes a handle (a new one when none is idle) and gives it back when done.
public final class HTTPConnections: Sendable {
    /// Handles kept idle at most; more are closed when given back.
    static let maximumIdle = 16

    struct Handle: @unchecked Sendable {
        let pointer: UnsafeMutableRawPointer
    }

    private let idle = Mutex<[Handle]>([])

    public init() {}

    deinit {
        idle.withLock { handles in
            for handle in handles { curl_easy_cleanup(handle.pointer) }
        }
    }

    func take() -> Handle? {
        if let handle = idle.withLock({ $0.popLast() }) { return handle }
        return curl_easy_init().map(Handle.init)
    }

    func giveBack(_ handle: Handle) {
        let kept = idle.withLock { handles in
            guard handles.count < Self.maximumIdle else { return false }
            handles.append(handle)
            return true
        }
        if !kept { curl_easy_cleanup(handle.pointer) }
    }
}

/// One request's state, filled by libcurl's callbacks on the thread that runs it.
private final class Exchange {
    let request: HTTPTransfer.Request
    var status = 0
    var headers: [String: String] = [:]
    var body: [UInt8] = []
    /// Set when a callback stopped the transfer; it then says why.
    var refusal: HTTPTransfer.Failure?
    /// The `Location` of a redirect, set when its headers stopped the transfer (its body is not wanted).
    var redirect: String?

    init(_ request: HTTPTransfer.Request) { self.request = request }

    /// One header line of some response (an interim response has its own block; each block starts with its
    /// status line). At the end of a block a redirect, or a declared length over the limit, stops the transfer.
    func receiveHeaderLine(_ bytes: UnsafeRawBufferPointer) -> Int {
        var end = bytes.count
        while end > 0 && (bytes[end - 1] == 0x0A || bytes[end - 1] == 0x0D) { end -= 1 }
        let line = Substring(String(decoding: bytes[..<end], as: UTF8.self))
        if line.hasPrefix("HTTP/") {
            status = line.split(separator: " ").dropFirst().first.flatMap { Int($0) } ?? 0
            headers = [:]
        } else if line.isEmpty {
            if (300..<400).contains(status), status != 304, let location = headers["location"] {
                redirect = location
                return 0
            }
            if request.method != .head, !(300..<400).contains(status),
                let declared = headers["content-length"].flatMap({ Int64($0) }), declared > request.maximumBodyBytes
            {
                refusal = .declaredLengthTooLarge(declared)
                return 0
            }
        } else if let colon = line.firstIndex(of: ":") {
            let name = line[..<colon].trimmingSpaces.lowercased()
            let value = String(line[line.index(after: colon)...].trimmingSpaces)
            headers[name] = headers[name].map { "\($0), \(value)" } ?? value
        }
        return bytes.count
    }

    /// The coding the final response's body is in (`gzip`), nil when none.
    var contentEncoding: String? {
        headers["content-encoding"].flatMap { $0.lowercased() == "identity" ? nil : $0 }
    }

    /// One buffer of the decoded body: kept, or the transfer stopped when it would pass the limit.
    func receiveBody(_ bytes: UnsafeRawBufferPointer) -> Int {
        guard body.count + bytes.count <= request.maximumBodyBytes else {
            refusal = .bodyTooLarge(
                contentEncoding.map { .decoded(contentEncoding: $0) } ?? .received(contentEncoding: nil))
            return 0
        }
        body.append(contentsOf: bytes)
        return bytes.count
    }

    /// The count of body bytes received so far, as sent (libcurl's progress): 0 to go on, 1 to stop the transfer
    /// when it is over the limit.
    func received(_ count: curl_off_t) -> Int32 {
        guard count > request.maximumBodyBytes else { return 0 }
        refusal = .bodyTooLarge(.received(contentEncoding: contentEncoding))
        return 1
    }
}

extension Substring {
    fileprivate var trimmingSpaces: Substring {
        var text = self
        while let first = text.first, first == " " || first == "\t" { text.removeFirst() }
        while let last = text.last, last == " " || last == "\t" { text.removeLast() }
        return text
    }
}
