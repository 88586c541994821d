import CCurl

/// One blocking HTTP(S) request through libcurl's easy interface, with its body bounded as it arrives.
///
/// libcurl hands over the body one buffer at a time and waits for each to be taken, so a body is never read
/// far past the limit, which bounds two counts: the bytes received (compressed, for a content-encoded body)
/// and the body after decoding, so that neither a gzip bomb nor an endless compressed stream that inflates to
/// nothing runs on. A declared `Content-Length` (which counts the bytes sent) over the limit is refused before
/// any of the body is read. The whole exchange, not only each wait, must end within the deadline.
/// Redirects are followed (at most 10, http and https only); any status is returned, not thrown.
public enum HTTPTransfer {
    /// The bytes sent and where to: the method, extra header lines, an optional byte range.
    public struct Request: Sendable {
        public enum Method: String, Sendable {
            case get = "GET"
            case head = "HEAD"
        }

        public var url: String
        public var method: Method
        /// Extra request headers (`Authorization: Bearer …`).
        public var headers: [(name: String, value: String)]
        /// Asks for `length` bytes from `offset` (an HTTP `Range` request); the server may ignore it.
        public var range: (offset: Int, length: Int)?
        /// The largest body accepted: as received, and again after decoding a `Content-Encoding`.
        public var maximumBodyBytes: Int
        /// How long the whole exchange may take.
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

    /// Runs `request` on the calling thread until it ends.
    public static func run(_ request: Request) throws(Failure) -> Response {
        _ = globalSetUp
        guard let handle = curl_easy_init() else { throw .failed("libcurl could not start a transfer") }
        defer { curl_easy_cleanup(handle) }
        let exchange = Exchange(request)
        let context = Unmanaged.passUnretained(exchange).toOpaque()
        let errorText = UnsafeMutablePointer<CChar>.allocate(capacity: Int(CURL_ERROR_SIZE))
        errorText.initialize(repeating: 0, count: Int(CURL_ERROR_SIZE))
        defer { errorText.deallocate() }
        var headerList: UnsafeMutablePointer<curl_slist>?
        for header in request.headers { headerList = curl_slist_append(headerList, "\(header.name): \(header.value)") }
        defer { curl_slist_free_all(headerList) }

        let code = withExtendedLifetime(exchange) { () -> CURLcode in
            _ = filterz_curl_set_string(handle, CURLOPT_URL, request.url)
            _ = filterz_curl_set_long(handle, CURLOPT_NOSIGNAL, 1)
            _ = filterz_curl_set_long(handle, CURLOPT_TIMEOUT_MS, max(1, Int(request.timeoutSeconds * 1000)))
            _ = filterz_curl_set_long(handle, CURLOPT_FOLLOWLOCATION, 1)
            _ = filterz_curl_set_long(handle, CURLOPT_MAXREDIRS, 10)
            _ = filterz_curl_set_string(handle, CURLOPT_PROTOCOLS_STR, "http,https")
            _ = filterz_curl_set_string(handle, CURLOPT_REDIR_PROTOCOLS_STR, "http,https")
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

        if let refusal = exchange.refusal { throw refusal }
        switch code {
        case CURLE_OK:
            return Response(status: exchange.status, headers: exchange.headers, body: exchange.body)
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

    /// `curl_global_init` once per process, before the first transfer (it is not safe to run concurrently).
    private static let globalSetUp: Void = { _ = curl_global_init(Int(CURL_GLOBAL_ALL)) }()
}

/// One transfer's state, filled by libcurl's callbacks on the thread that runs it.
private final class Exchange {
    let request: HTTPTransfer.Request
    var status = 0
    var headers: [String: String] = [:]
    var body: [UInt8] = []
    /// Set when a callback stopped the transfer; it then says why.
    var refusal: HTTPTransfer.Failure?

    init(_ request: HTTPTransfer.Request) { self.request = request }

    /// One header line of some response (each redirect and interim response has its own block, which starts
    /// with its status line). At the end of the final block a declared length over the limit stops the transfer.
    func receiveHeaderLine(_ bytes: UnsafeRawBufferPointer) -> Int {
        var end = bytes.count
        while end > 0 && (bytes[end - 1] == 0x0A || bytes[end - 1] == 0x0D) { end -= 1 }
        let line = Substring(String(decoding: bytes[..<end], as: UTF8.self))
        if line.hasPrefix("HTTP/") {
            status = line.split(separator: " ").dropFirst().first.flatMap { Int($0) } ?? 0
            headers = [:]
        } else if line.isEmpty {
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
