import CLIKit
import Foundation
import Inspect
import Parallel

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Loads a playlist (or any small resource) from a file path, an http(s) URL, or standard input (`-`).
///
/// This is the CLI's edge: the `HLS` module takes bytes, and this type gets them. Every failure is a
/// `CLIError.input` whose one-line message names the file or URL.
struct ResourceLoader: PlaylistLoading {
    /// Extra request headers for protected origins (`Authorization: Bearer …`), sent with every HTTP request.
    var headers: [(name: String, value: String)] = []
    /// How long one HTTP request may take, in seconds.
    var timeoutSeconds: Double = 20
    /// The largest body accepted, in bytes (playlists are text; this bounds memory on hostile input).
    var maximumBytes = 64 << 20

    /// Parses `Name: value` (the `--header` syntax).
    static func parseHeader(_ text: String) throws(CLIError) -> (name: String, value: String) {
        guard let colon = text.firstIndex(of: ":"), colon != text.startIndex else {
            throw .usage("--header expects 'Name: value', got '\(text)'")
        }
        let name = text[..<colon].trimmingCharacters(in: .whitespaces)
        let value = text[text.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        guard !name.isEmpty, !name.contains(" ") else { throw .usage("--header expects 'Name: value', got '\(text)'") }
        return (name, value)
    }

    /// The bytes at `location`; `readStandardInput` is used for `-`.
    func load(_ location: String, readStandardInput: () -> [UInt8]) throws(CLIError) -> [UInt8] {
        if location == "-" { return readStandardInput() }
        if PlaylistLocation.isHTTP(location) { return try get(location) }
        return try PlaylistFile.read(location, maximumBytes: maximumBytes)
    }

    /// The bytes of `location` (a file path or an http(s) URL), only `range` of them when given (an HTTP
    /// `Range` request; a seek in a file). A response shorter than the range is an error.
    func load(_ location: String, range: (offset: Int, length: Int)?) throws(CLIError) -> [UInt8] {
        guard let range else { return try load(location, readStandardInput: { [] }) }
        guard range.length <= maximumBytes else {
            throw .input(
                "\(location): byte range of \(range.length) bytes is larger than the limit of \(maximumBytes) bytes")
        }
        let bytes: [UInt8]
        if PlaylistLocation.isHTTP(location) {
            let body = try request(location, method: "GET", range: range).body
            // A server that ignores Range answers the whole resource.
            bytes = body.count > range.length ? Array(body.dropFirst(range.offset).prefix(range.length)) : body
        } else {
            guard let handle = FileHandle(forReadingAtPath: location) else { throw .input("\(location): no such file") }
            defer { try? handle.close() }
            do {
                try handle.seek(toOffset: UInt64(range.offset))
                bytes = [UInt8](try handle.read(upToCount: range.length) ?? Data())
            } catch {
                throw .input("\(location): cannot be read (\(error.localizedDescription))")
            }
        }
        guard bytes.count == range.length else {
            throw .input(
                "\(location): byte range \(range.length)@\(range.offset) ends past the resource (\(bytes.count) bytes read)"
            )
        }
        return bytes
    }

    /// A blocking HTTP GET: follows redirects, fails on any status other than 2xx.
    private func get(_ location: String) throws(CLIError) -> [UInt8] {
        try request(location, method: "GET").body
    }

    /// The `Content-Length` a HEAD request to `location` answers, or nil when the request fails or the length is
    /// not given.
    func contentLength(_ location: String) -> Int? {
        guard let (_, headers) = try? request(location, method: "HEAD") else { return nil }
        return headers["content-length"].flatMap { Int($0) }
    }

    /// The `Content-Length` of each location (nil where unknown), asked with at most `concurrency` HEAD
    /// requests at a time; in the order given.
    func contentLengths(_ locations: [String], concurrency: Int = 8) -> [Int?] {
        BoundedWorkers.run(count: locations.count, concurrency: concurrency) { contentLength(locations[$0]) }
    }

    /// One blocking request with the configured headers: the body is counted as it arrives (after any
    /// decompression) and the transfer stopped as soon as it passes `maximumBytes`; the whole exchange, not only
    /// each wait, must end within `timeoutSeconds`. Any status other than 2xx is an error.
    private func request(
        _ location: String, method: String, range: (offset: Int, length: Int)? = nil
    ) throws(CLIError) -> (body: [UInt8], headers: [String: String]) {
        guard let url = URL(string: location), url.host != nil else { throw .input("\(location): not a valid URL") }
        var request = URLRequest(url: url, cachePolicy: .reloadIgnoringLocalCacheData, timeoutInterval: timeoutSeconds)
        request.httpMethod = method
        for header in headers { request.setValue(header.value, forHTTPHeaderField: header.name) }
        if let range {
            request.setValue("bytes=\(range.offset)-\(range.offset + range.length - 1)", forHTTPHeaderField: "Range")
        }
        let download = BoundedDownload(maximumBytes: maximumBytes)
        let session = URLSession(configuration: .ephemeral, delegate: download, delegateQueue: nil)
        defer { session.invalidateAndCancel() }
        let task = session.dataTask(with: request)
        task.resume()
        let outcome = download.wait(seconds: timeoutSeconds)
        switch outcome {
        case .timedOut(let received, let responded):
            task.cancel()
            if !responded { throw .input("\(location): no response within \(Self.seconds(timeoutSeconds))") }
            throw .input(
                "\(location): not complete within \(Self.seconds(timeoutSeconds)) (\(received) bytes received)")
        case .tooLarge(let declared):
            task.cancel()
            if let declared {
                throw .input(
                    "\(location): Content-Length \(declared) is larger than the limit of \(maximumBytes) bytes")
            }
            throw .input("\(location): body larger than the limit of \(maximumBytes) bytes (stopped there)")
        case .failed(let message):
            throw .input("\(location): \(message)")
        case .finished(let status, let headers, let body):
            guard (200..<300).contains(status) else { throw .input("\(location): HTTP \(status)") }
            return (body, headers)
        }
    }

    private static func seconds(_ value: Double) -> String {
        value == value.rounded() ? "\(Int(value)) s" : "\(value) s"
    }
}

/// One transfer's state, filled by URLSession's delegate calls and waited for by the requesting thread.
private final class BoundedDownload: NSObject, URLSessionDataDelegate, @unchecked Sendable {
    enum Outcome {
        case finished(status: Int, headers: [String: String], body: [UInt8])
        case tooLarge(declared: Int64?)
        case timedOut(received: Int, responded: Bool)
        case failed(String)
    }

    private let maximumBytes: Int
    private let lock = NSLock()
    private let done = DispatchSemaphore(value: 0)
    private var body: [UInt8] = []
    private var status = 0
    private var headers: [String: String] = [:]
    private var responded = false
    private var ended: Outcome?

    init(maximumBytes: Int) { self.maximumBytes = maximumBytes }

    func wait(seconds: Double) -> Outcome {
        if done.wait(timeout: .now() + seconds) == .timedOut {
            return lock.withLock { ended ?? .timedOut(received: body.count, responded: responded) }
        }
        return lock.withLock { ended ?? .failed("the transfer ended without a result") }
    }

    private func end(_ outcome: Outcome) {
        let first = lock.withLock { () -> Bool in
            guard ended == nil else { return false }
            ended = outcome
            return true
        }
        if first { done.signal() }
    }

    func urlSession(
        _ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
        completionHandler: @escaping (URLSession.ResponseDisposition) -> Void
    ) {
        let http = response as? HTTPURLResponse
        var fields: [String: String] = [:]
        for (name, value) in http?.allHeaderFields ?? [:] {
            if let name = name as? String, let value = value as? String { fields[name.lowercased()] = value }
        }
        lock.withLock {
            status = http?.statusCode ?? 0
            headers = fields
            responded = true
        }
        // A declared length over the limit is refused before a byte of the body is read (a HEAD request only
        // asks for the length: it has no body to refuse).
        if dataTask.originalRequest?.httpMethod != "HEAD",
            let declared = fields["content-length"].flatMap({ Int64($0) }),
            declared > maximumBytes, fields["content-encoding"] == nil
        {
            end(.tooLarge(declared: declared))
            completionHandler(.cancel)
            return
        }
        completionHandler(.allow)
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        let over = lock.withLock { () -> Bool in
            guard ended == nil else { return false }
            if body.count + data.count > maximumBytes { return true }
            body.append(contentsOf: data)
            return false
        }
        if over {
            end(.tooLarge(declared: nil))
            dataTask.cancel()
        }
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
        if let error {
            end(.failed(error.localizedDescription))
            return
        }
        let result = lock.withLock { (status, headers, body) }
        end(.finished(status: result.0, headers: result.1, body: result.2))
    }
}
