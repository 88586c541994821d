import FilterzTestSupport
import Foundation
import RealClients

@testable import Server

/// A served folder and the `RequestHandler` on it, in this process: requests in (method, target, header fields,
/// or raw head text), answers out (status, header fields, body bytes with file bodies read from their region),
/// on a manual clock. No sockets, threads or sleeps.
///
/// Around the handler it does what an event loop does: the head is parsed (`RequestHeadParser`) and admitted
/// (`RequestAdmission`); `Content-Length` is written as `ResponseHead` writes it, and HEAD, 204 and 304 answers
/// carry no body. A held request (`HandlerAnswer.hold`, LL-HLS) is kept: asked again when the test says its file
/// changed (`fileChanged`), keeping its first deadline, and given its hold's timeout answer once the clock passes
/// that deadline (`advance`). What only the transport does (framing on the wire, keep-alive, prepared answers,
/// background workers, slow clients) is tested over sockets on a `TestSite`.
final class InProcessSite {
    /// A request sent with `send`: its answer, nil while the handler holds it.
    final class Exchange {
        let request: HTTPRequest
        fileprivate(set) var response: RawResponse?
        fileprivate var hold: Hold?
        fileprivate var deadline: Int64 = .max

        fileprivate init(request: HTTPRequest) { self.request = request }

        var isHeld: Bool { response == nil }
    }

    enum SiteError: Error, CustomStringConvertible {
        /// `fetch` of a request the handler holds.
        case held(String)
        /// The head text is not a whole request head.
        case incompleteHead(String)

        var description: String {
            switch self {
            case .held(let target): "\(target) was held, not answered"
            case .incompleteHead(let text): "not a whole request head: \(text.debugDescription)"
            }
        }
    }

    let files: SiteFolder
    var root: URL { files.root }
    let handler: RequestHandler
    let parser: RequestHeadParser
    /// Monotonic milliseconds (hold deadlines), from 0.
    private(set) var milliseconds: Int64 = 0
    /// Seconds since the epoch at `milliseconds` 0.
    let startSeconds: Int64
    private var held: [Exchange] = []

    /// Seconds since the epoch now (what the handler is told: token expiry).
    var secondsSinceEpoch: Int64 { startSeconds + milliseconds / 1000 }

    /// `startSeconds`: the clock's time since the epoch when the site is made (a fixed time by default).
    init(
        populate: (SiteFolder) throws -> Void = { _ in }, configure: (inout ServerConfiguration) -> Void = { _ in },
        parent: URL? = nil, startSeconds: Int64 = 1_800_000_000
    ) throws {
        files = try SiteFolder(parent: parent)
        try populate(files)
        var configuration = ServerConfiguration(root: files.root.path)
        configure(&configuration)
        handler = try RequestHandler(configuration: configuration)
        parser = RequestHeadParser(limits: configuration.requestLimits)
        self.startSeconds = startSeconds
    }

    @discardableResult
    func write(_ relativePath: String, _ contents: String) throws -> URL { try files.write(relativePath, contents) }

    @discardableResult
    func write(_ relativePath: String, _ bytes: [UInt8]) throws -> URL { try files.write(relativePath, bytes) }

    // MARK: - Requests

    /// The answer to one request, which must not be held (`SiteError.held`; use `send` for one that may be).
    func fetch(_ method: String = "GET", _ target: String, headers: [String: String] = [:]) throws -> RawResponse {
        guard let response = try send(method, target, headers: headers).response else { throw SiteError.held(target) }
        return response
    }

    /// Sends one request as a client would write it (HTTP/1.1, `Host`, then `headers` in name order).
    func send(_ method: String = "GET", _ target: String, headers: [String: String] = [:]) throws -> Exchange {
        var text = "\(method) \(target) HTTP/1.1\r\nHost: 127.0.0.1\r\n"
        for (name, value) in headers.sorted(by: { $0.key < $1.key }) { text += "\(name): \(value)\r\n" }
        return try send(head: text + "\r\n")
    }

    /// Sends one raw request head (`"GET / HTTP/1.1\r\nHost: x\r\n\r\n"`): parsed, admitted, then answered or
    /// held.
    func send(head text: String) throws -> Exchange {
        let head: RequestHead
        switch parser.parse(Array(text.utf8)) {
        case .incomplete: throw SiteError.incompleteHead(text)
        case .refused(let refusal): return refused(refusal)
        case .complete(let parsed, _): head = parsed
        }
        if let refusal = RequestAdmission.refusal(for: head) { return refused(refusal) }
        let exchange = Exchange(request: head.request)
        switch handler.answer(to: exchange.request, now: secondsSinceEpoch) {
        case .response(let response):
            exchange.response = wire(response, for: exchange.request)
        case .hold(let hold):
            exchange.hold = hold
            exchange.deadline = milliseconds + hold.timeoutMilliseconds
            held.append(exchange)
        }
        return exchange
    }

    // MARK: - Changes and time

    /// Tells the site that the file at `path` (below the folder) changed: every request held on it is asked
    /// again, answered or held anew (with its first deadline).
    func fileChanged(_ path: String) {
        for exchange in held where exchange.hold?.watchedPath == path {
            switch handler.answer(to: exchange.request, now: secondsSinceEpoch) {
            case .response(let response): exchange.response = wire(response, for: exchange.request)
            case .hold(let hold): exchange.hold = hold
            }
        }
        held.removeAll { !$0.isHeld }
    }

    /// Moves the clock on by `milliseconds`; held requests whose deadline it reaches get their timeout answer.
    func advance(milliseconds step: Int64) {
        milliseconds += step
        for exchange in held where exchange.deadline <= milliseconds {
            if let hold = exchange.hold { exchange.response = wire(hold.timeoutResponse, for: exchange.request) }
        }
        held.removeAll { !$0.isHeld }
    }

    func advance(seconds: Int64) { advance(milliseconds: seconds * 1000) }

    // MARK: - Answers as sent

    /// `response` as the client receives it: the header fields `ResponseHead` writes (`Content-Length` included),
    /// and the body unless the method or status sends none.
    private func wire(_ response: HTTPResponse, for request: HTTPRequest) -> RawResponse {
        let block = ResponseHead.fieldBlock(
            status: response.status, headers: response.headers, contentLength: response.bodyLength)
        let fields = String(decoding: block, as: UTF8.self).split(separator: "\r\n").map { line in
            let colon = line.firstIndex(of: ":")!
            return (String(line[..<colon]), String(line[colon...].dropFirst(2)))
        }
        let sendsBody = request.method != "HEAD" && !HTTPStatus.hasNoContent(response.status)
        return RawResponse(status: response.status, fields: fields, body: sendsBody ? response.bodyBytes() : [])
    }

    /// A request refused before the handler: its status, and the reason as its body.
    private func refused(_ refusal: RequestRefusal) -> Exchange {
        let exchange = Exchange(request: HTTPRequest(method: "-", target: "-"))
        exchange.response = RawResponse(status: refusal.status, fields: [], body: Array(refusal.reason.utf8))
        return exchange
    }
}
