import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Loads a playlist (or any small resource) from a file path, an http(s) URL, or standard input (`-`).
///
/// This is the CLI's edge: the `HLS` module takes bytes, and this type gets them. Every failure is a
/// `CLIError.input` whose one-line message names the file or URL.
struct ResourceLoader: Sendable {
    /// Extra request headers for protected origins (`Authorization: Bearer …`), sent with every HTTP request.
    var headers: [(name: String, value: String)] = []
    /// How long one HTTP request may take, in seconds.
    var timeoutSeconds: Double = 20
    /// The largest body accepted, in bytes (playlists are text; this bounds memory on hostile input).
    var maximumBytes = 64 << 20

    /// True when `location` is an http or https URL (anything else is a file path or `-`).
    static func isHTTP(_ location: String) -> Bool {
        let lower = location.lowercased()
        return lower.hasPrefix("http://") || lower.hasPrefix("https://")
    }

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
        if Self.isHTTP(location) { return try get(location) }
        return try readFile(location)
    }

    private func readFile(_ path: String) throws(CLIError) -> [UInt8] {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            throw .input("\(path): no such file")
        }
        if isDirectory.boolValue { throw .input("\(path): is a directory, not a playlist") }
        guard let data = FileManager.default.contents(atPath: path) else {
            throw .input("\(path): cannot be read (permission denied?)")
        }
        guard data.count <= maximumBytes else { throw .input("\(path): larger than \(maximumBytes) bytes") }
        return [UInt8](data)
    }

    /// A blocking HTTP GET: follows redirects, fails on any status other than 2xx.
    private func get(_ location: String) throws(CLIError) -> [UInt8] {
        let (body, _) = try request(location, method: "GET")
        guard body.count <= maximumBytes else { throw .input("\(location): larger than \(maximumBytes) bytes") }
        return [UInt8](body)
    }

    /// The `Content-Length` a HEAD request to `location` answers, or nil when the request fails or the length is
    /// not given.
    func contentLength(_ location: String) -> Int? {
        guard let (_, response) = try? request(location, method: "HEAD") else { return nil }
        return response.value(forHTTPHeaderField: "Content-Length").flatMap { Int($0) }
    }

    /// One blocking request with the configured headers and time limit; any status other than 2xx is an error.
    private func request(_ location: String, method: String) throws(CLIError) -> (Data, HTTPURLResponse) {
        guard let url = URL(string: location) else { throw .input("\(location): not a valid URL") }
        var request = URLRequest(url: url, cachePolicy: .reloadIgnoringLocalCacheData, timeoutInterval: timeoutSeconds)
        request.httpMethod = method
        for header in headers { request.setValue(header.value, forHTTPHeaderField: header.name) }
        let outcome = HTTPOutcome()
        let done = DispatchSemaphore(value: 0)
        let session = URLSession(configuration: .ephemeral)
        defer { session.finishTasksAndInvalidate() }
        let task = session.dataTask(with: request) { data, response, error in
            outcome.set(data: data, response: response as? HTTPURLResponse, error: error)
            done.signal()
        }
        task.resume()
        if done.wait(timeout: .now() + timeoutSeconds + 1) == .timedOut {
            task.cancel()
            throw .input("\(location): no response within \(Int(timeoutSeconds)) s")
        }
        let (data, response, error) = outcome.get()
        if let error { throw .input("\(location): \(error.localizedDescription)") }
        guard let response else { throw .input("\(location): no HTTP response") }
        guard (200..<300).contains(response.statusCode) else {
            throw .input("\(location): HTTP \(response.statusCode)")
        }
        return (data ?? Data(), response)
    }
}

/// The completion handler's values, handed from URLSession's queue to the waiting thread.
private final class HTTPOutcome: @unchecked Sendable {
    private let lock = NSLock()
    private var data: Data?
    private var response: HTTPURLResponse?
    private var error: (any Error)?

    func set(data: Data?, response: HTTPURLResponse?, error: (any Error)?) {
        lock.lock()
        defer { lock.unlock() }
        (self.data, self.response, self.error) = (data, response, error)
    }

    func get() -> (Data?, HTTPURLResponse?, (any Error)?) {
        lock.lock()
        defer { lock.unlock() }
        return (data, response, error)
    }
}
