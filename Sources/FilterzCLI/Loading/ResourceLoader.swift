import CLIKit
import Foundation
import HTTPClient
import Inspect
import JSON
import Parallel

/// Loads a playlist (or any small resource) from a file path, an http(s) URL, or standard input (`-`).
///
/// This is the CLI's edge: the `HLS` module takes bytes, and this type gets them. Every failure is a
/// `CLIError.input` whose one-line message names the file or URL.
struct ResourceLoader: PlaylistLoading {
    /// Extra request headers for protected origins (`Authorization: Bearer …`), sent only to `headerOrigin`.
    var headers: [(name: String, value: String)] = []
    /// The origin (`scheme://host:port`) the headers go to: that of the URL the user named (nil for a file or
    /// standard input: then to none). Requests to other origins — a child playlist, segment or key elsewhere, or
    /// a redirect there — go without them, so that a playlist cannot send the user's credentials where it likes.
    var headerOrigin: String?
    /// Connections kept open between requests (child playlists and segment HEADs on one origin reuse them).
    let connections = HTTPConnections()
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
    func load(_ location: String, readStandardInput: (_ limit: Int) -> [UInt8]) throws(CLIError) -> [UInt8] {
        if location == "-" { return try PlaylistFile.standardInput(readStandardInput, maximumBytes: maximumBytes) }
        if PlaylistLocation.isHTTP(location) { return try get(location) }
        return try PlaylistFile.read(location, maximumBytes: maximumBytes)
    }

    /// The bytes of `location`, a resource the playlist at `playlist` names (resolved against it, refused by
    /// ``PlaylistLocation/admit(_:namedBy:)`` when a remote playlist names a local file), only `range` of them
    /// when given (an HTTP `Range` request; a seek in a file). A response shorter than the range is an error.
    func load(
        _ location: String, namedBy playlist: String, range: (offset: Int, length: Int)?
    ) throws(CLIError) -> [UInt8] {
        guard let range else { return try load(location, namedBy: playlist) }
        try PlaylistLocation.admit(location, namedBy: playlist)
        let location = PlaylistLocation.loadablePath(location)
        guard range.offset >= 0, range.length >= 0, range.offset <= Int.max - range.length else {
            throw .input(
                "\(location): byte range \(range.length)@\(range.offset) ends past the largest offset there is")
        }
        guard range.length <= maximumBytes else {
            throw .input(
                "\(location): byte range of \(range.length) bytes is larger than the limit of \(maximumBytes) bytes")
        }
        let bytes: [UInt8]
        if PlaylistLocation.isHTTP(location) {
            let body = try request(location, method: .get, range: range).body
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
        try request(location, method: .get).body
    }

    /// The `Content-Length` a HEAD request to `location` answers, or nil when the request fails or the length is
    /// not given.
    private func contentLength(_ location: String) -> Int? {
        guard let (_, headers) = try? request(location, method: .head) else { return nil }
        return headers["content-length"].flatMap { Int($0) }
    }

    /// The size in bytes of each location (nil where unknown), resources the playlist at `playlist` names (each
    /// admitted first, ``PlaylistLocation/admit(_:namedBy:)``): a file's size, or a URL's `Content-Length`
    /// asked with at most `concurrency` HEAD requests at a time; in the order given.
    func sizes(of locations: [String], namedBy playlist: String, concurrency: Int = 8) throws(CLIError) -> [Int?] {
        for location in locations { try PlaylistLocation.admit(location, namedBy: playlist) }
        return BoundedWorkers.run(count: locations.count, concurrency: concurrency) { index -> Int? in
            let location = locations[index]
            guard PlaylistLocation.isHTTP(location) else {
                let attributes = try? FileManager.default.attributesOfItem(
                    atPath: PlaylistLocation.loadablePath(location))
                return (attributes?[.size] as? NSNumber)?.intValue
            }
            return contentLength(location)
        }
    }

    /// One blocking request with the configured headers (``HTTPTransfer``: the body is bounded by `maximumBytes`
    /// as it arrives, both the bytes received and what they decode to, and the whole exchange by
    /// `timeoutSeconds`). Any status other than 2xx is an error; each refusal names the limit that was passed.
    private func request(
        _ location: String, method: HTTPTransfer.Request.Method, range: (offset: Int, length: Int)? = nil
    ) throws(CLIError) -> (body: [UInt8], headers: [String: String]) {
        guard let url = URL(string: location), url.host != nil else { throw .input("\(location): not a valid URL") }
        let response: HTTPTransfer.Response
        do {
            let sameOrigin = headerOrigin != nil && HTTPTransfer.origin(of: location) == headerOrigin
            response = try HTTPTransfer.run(
                HTTPTransfer.Request(
                    url: location, method: method, headers: sameOrigin ? headers : [], range: range,
                    maximumBodyBytes: maximumBytes, timeoutSeconds: timeoutSeconds),
                connections: connections)
        } catch {
            switch error {
            case .noResponse: throw .input("\(location): no response within \(Self.seconds(timeoutSeconds))")
            case .incomplete(let received, let decoded, let encoding):
                let counts = encoding.map { "\(received) bytes received, \(decoded) once decoded from \($0)" }
                throw .input(
                    "\(location): not complete within \(Self.seconds(timeoutSeconds)) (\(counts ?? "\(decoded) bytes received"))"
                )
            case .declaredLengthTooLarge(let declared):
                throw .input(
                    "\(location): Content-Length \(declared) is larger than the limit of \(maximumBytes) bytes")
            case .bodyTooLarge(.received(nil)):
                throw .input("\(location): body larger than the limit of \(maximumBytes) bytes (stopped there)")
            case .bodyTooLarge(.received(let encoding?)):
                throw .input(
                    "\(location): \(encoding)-compressed body: more than the limit of \(maximumBytes) bytes received "
                        + "(stopped there)")
            case .bodyTooLarge(.decoded(let encoding)):
                throw .input(
                    "\(location): body larger than the limit of \(maximumBytes) bytes once decoded from \(encoding) "
                        + "(stopped there)")
            case .failed(let message): throw .input("\(location): \(message)")
            }
        }
        guard (200..<300).contains(response.status) else { throw .input("\(location): HTTP \(response.status)") }
        return (response.body, response.headers)
    }

    private static func seconds(_ value: Double) -> String { "\(plainNumber(value)) s" }
}
