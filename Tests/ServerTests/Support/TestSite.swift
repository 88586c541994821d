import FilterzTestSupport
import Foundation
import RealClients

@testable import Server

/// A served folder made for one test, with a running server on an ephemeral port of 127.0.0.1: for what
/// needs the transport (framing, keep-alive, pipelining, slow clients, connection limits, real clients, load).
/// What the handler alone decides is tested without sockets on an `InProcessSite`.
final class TestSite: @unchecked Sendable {
    let files: SiteFolder
    var root: URL { files.root }
    private(set) var server: HTTPServer!
    var port: UInt16 { server.port }

    /// The access log's lines, when `logsAccess`.
    let accessLog = AccessLines()

    /// `parent`: where to make the served folder (the system's temporary folder by default).
    init(
        populate: (SiteFolder) throws -> Void = { _ in }, configure: (inout ServerConfiguration) -> Void = { _ in },
        logsAccess: Bool = false, parent: URL? = nil
    ) throws {
        files = try SiteFolder(parent: parent)
        try populate(files)
        var configuration = ServerConfiguration(root: files.root.path)
        configuration.port = 0
        configuration.threadCount = 2
        configure(&configuration)
        let lines = accessLog
        var log: (@Sendable (String) -> Void)?
        if logsAccess { log = { @Sendable line in lines.append(line) } }
        server = try HTTPServer(configuration: configuration, accessLog: log)
    }

    deinit { server?.stop(graceSeconds: 1) }

    /// Writes `contents` at `relativePath`, creating folders.
    @discardableResult
    func write(_ relativePath: String, _ contents: String) throws -> URL { try files.write(relativePath, contents) }

    @discardableResult
    func write(_ relativePath: String, _ bytes: [UInt8]) throws -> URL { try files.write(relativePath, bytes) }
}

/// Access log lines collected from the server's threads.
final class AccessLines: @unchecked Sendable {
    private let lock = NSLock()
    private var lines: [String] = []

    func append(_ line: String) { lock.withLock { lines.append(line) } }

    var all: [String] { lock.withLock { lines } }
}
