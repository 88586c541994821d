import Synchronization

/// What the event loops of one server share: the handler and its prepared answers, the request rules and
/// limits, the connection budget, the background workers, the access log and the counts `stop` waits on.
final class ServerCore: Sendable {
    let handler: RequestHandler
    let preparedAnswers: PreparedAnswers?
    let parser: RequestHeadParser
    let timeouts: ConnectionTimeouts
    let budget: ConnectionBudget
    /// Workers for slow file answers (large playlists to parse, rewrite or compress).
    let fileWorkers: BackgroundWorkers
    /// A worker of its own for the catalogue (API lists, stream answers, the index page), so that playlists
    /// being parsed never keep the app's catalogue waiting.
    let catalogueWorker: BackgroundWorkers
    let accessLog: (@Sendable (String) -> Void)?
    /// `serve --shape`: the links answers go through (nil: answers go at the socket's pace).
    let links: SharedLinks?
    /// `serve --faults`, shared by the loops (the rules count requests across all of them).
    let faults: SharedFaults?
    private let requestsInFlight = Atomic<Int>(0)
    private let stopping = Atomic<Bool>(false)
    private let terminating = Atomic<Bool>(false)
    private let watching = Atomic<Bool>(false)

    /// True when a folder watcher reports changes; otherwise held requests are asked again on each sweep.
    var watchesFolder: Bool { watching.load(ordering: .acquiring) }
    func setWatchesFolder(_ value: Bool) { watching.store(value, ordering: .releasing) }

    /// Starts the background workers (`stopWorkers()` ends them).
    init(
        handler: RequestHandler, configuration: ServerConfiguration, capacity: ConnectionCapacity,
        accessLog: (@Sendable (String) -> Void)?
    ) {
        self.handler = handler
        preparedAnswers = configuration.reusesAnswers ? PreparedAnswers() : nil
        parser = RequestHeadParser(limits: configuration.requestLimits)
        timeouts = configuration.timeouts
        budget = ConnectionBudget(limit: capacity.connections, perAddressLimit: capacity.perAddress)
        fileWorkers = BackgroundWorkers(threads: 2, capacity: 1024)
        catalogueWorker = BackgroundWorkers(threads: 1, capacity: 256)
        self.accessLog = accessLog
        links = configuration.shape.map(SharedLinks.init)
        faults = configuration.faults.map(SharedFaults.init)
    }

    /// The workers for a slow answer to `request`.
    func workers(for request: HTTPRequest) -> BackgroundWorkers {
        switch handler.backgroundLane(for: request) {
        case .catalogue: catalogueWorker
        case .files: fileWorkers
        }
    }

    /// Lets queued background answers finish, then ends the workers.
    func stopWorkers() {
        fileWorkers.stop()
        catalogueWorker.stop()
    }

    var inFlightCount: Int { requestsInFlight.load(ordering: .acquiring) }
    func requestStarted() { requestsInFlight.add(1, ordering: .relaxed) }
    func requestEnded() { requestsInFlight.subtract(1, ordering: .releasing) }

    /// True once `stop` has begun: nothing new is accepted.
    var isStopping: Bool { stopping.load(ordering: .acquiring) }
    func beginStopping() { stopping.store(true, ordering: .releasing) }

    /// True when the loops must close every connection and end.
    var isTerminating: Bool { terminating.load(ordering: .acquiring) }
    func terminate() { terminating.store(true, ordering: .releasing) }
}
