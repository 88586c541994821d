import Parallel
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// The HTTP/1.1 server: a listening socket and one epoll event loop per thread, answering every request through a
/// `RequestHandler` and sending files with sendfile.
///
///     var configuration = ServerConfiguration(root: "out")
///     configuration.port = 0
///     let server = try HTTPServer(configuration: configuration)
///     print("http://127.0.0.1:\(server.port)/")
///     …
///     server.stop()
///
/// The request head is read by `RequestHeadParser` and checked by `RequestAdmission` (pure rules, tested
/// without sockets); the path reaches the handler with its percent-escapes intact. Limits: `RequestLimits`,
/// `ConnectionTimeouts` and `ConnectionCapacity` (the descriptor limit is raised to the hard limit first).
public final class HTTPServer: @unchecked Sendable {
    public let configuration: ServerConfiguration
    /// The port listened on (the one picked by the system when configured as 0).
    public let port: UInt16
    /// The connections held at once, and the descriptor limit they follow.
    public let capacity: ConnectionCapacity
    private let core: ServerCore
    private let listener: ListeningSocket
    private let loops: [EventLoop]
    private let threads = Mutex<[pthread_t]>([])
    private let watcher: FolderWatcher?

    /// The connections a server with `configuration` would hold, after raising the descriptor limit to its hard
    /// limit (what `init` does first, before the folder is read).
    /// - Throws: `ServerError.tooManyConnections` when `connectionLimit` is more than the descriptors allow.
    public static func connectionCapacity(for configuration: ServerConfiguration) throws(ServerError)
        -> ConnectionCapacity
    {
        try ConnectionCapacity(
            descriptorLimit: DescriptorLimit.raiseToHardLimit(), loops: loopCount(configuration),
            requested: configuration.connectionLimit, perAddress: configuration.connectionsPerAddress)
    }

    private static func loopCount(_ configuration: ServerConfiguration) -> Int {
        max(1, configuration.threadCount > 0 ? configuration.threadCount : Int(sysconf(Int32(_SC_NPROCESSORS_ONLN))))
    }

    /// Starts listening.
    /// - Parameter accessLog: receives one Common Log Format line per request (without newline); nil: no log.
    /// - Throws: `ServerError.tooManyConnections` when `connectionLimit` is more than the descriptors allow.
    public init(configuration: ServerConfiguration, accessLog: (@Sendable (String) -> Void)? = nil) throws(ServerError)
    {
        self.configuration = configuration
        capacity = try Self.connectionCapacity(for: configuration)
        let handler = try RequestHandler(configuration: configuration)
        let count = Self.loopCount(configuration)
        // sendfile(2) takes no MSG_NOSIGNAL: a client that goes away mid-file must not kill the process.
        signal(SIGPIPE, SIG_IGN)
        listener = try ListeningSocket(host: configuration.host, port: configuration.port)
        port = listener.port
        core = ServerCore(handler: handler, configuration: configuration, capacity: capacity, accessLog: accessLog)
        var made: [EventLoop] = []
        do {
            for _ in 0..<count { made.append(try EventLoop(core: core, listener: listener.descriptor)) }
        } catch {
            core.stopWorkers()
            throw error
        }
        for (index, loop) in made.enumerated() { loop.link(to: made[(index + 1) % count], loops: count) }
        loops = made
        let notified = made
        let catalogue = handler.catalogue
        watcher = FolderWatcher(root: handler.folder.path) { paths in
            for loop in notified { loop.post(changes: paths) }
            catalogue.noteChanges(paths)
        }
        core.setWatchesFolder(watcher != nil)
        if let watcher {
            catalogue.follow { [weak watcher] in watcher?.drain() }
            // The folder is read whole once, on the catalogue's worker, before the first client asks.
            _ = core.catalogueWorker.submit { _ = catalogue.count }
        }
        var started: [pthread_t] = []
        for loop in loops {
            if let thread = ThreadStarter.start({ loop.run() }) { started.append(thread) }
        }
        threads.withLock { $0 = started }
    }

    deinit { stop(graceSeconds: 0) }

    public var handler: RequestHandler { core.handler }

    /// `http://host:port` (IPv6 hosts in brackets).
    public var baseURL: String {
        let host = configuration.host.contains(":") ? "[\(configuration.host)]" : configuration.host
        return "http://\(host):\(port)"
    }

    /// Requests received and not yet completed.
    public var inFlightCount: Int { core.inFlightCount }

    /// Connections open now.
    public var connectionCount: Int { core.budget.openCount }

    /// False from the moment `stop` begins: connections are no longer accepted.
    public var isAcceptingConnections: Bool { !core.isStopping }

    /// Stops accepting connections (the listening socket is closed, so new clients are refused), lets requests in
    /// flight finish (up to `graceSeconds`), then closes everything. Safe to call more than once.
    public func stop(graceSeconds: Double = 10) {
        let running = threads.withLock { current -> [pthread_t] in
            defer { current = [] }
            return current
        }
        guard !running.isEmpty else { return }
        core.beginStopping()
        for loop in loops { loop.wake() }
        // The listener is closed only once no loop has it in its epoll set any more.
        var waited = 0.0
        while !loops.allSatisfy({ $0.stoppedListening.load(ordering: .acquiring) }) && waited < 5 {
            usleep(1_000)
            waited += 0.001
        }
        listener.close()
        waited = 0
        while core.inFlightCount > 0 && waited < graceSeconds {
            usleep(5_000)
            waited += 0.005
        }
        core.terminate()
        for loop in loops { loop.wake() }
        for thread in running { pthread_join(thread, nil) }
        watcher?.stop()
        handler.catalogue.cancel()
        core.stopWorkers()
    }
}
