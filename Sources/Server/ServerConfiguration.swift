/// Everything `filterz serve` can be told: what to serve, where, and the limits that keep one client from
/// starving the others.
public struct ServerConfiguration: Sendable {
    /// The folder to serve.
    public var root: String
    /// An IPv4 or IPv6 address to listen on.
    public var host: String = "127.0.0.1"
    /// 0 picks a free port (read it back from `HTTPServer.port`).
    public var port: UInt16 = 8080
    /// `Access-Control-Allow-Origin`: `*` or one origin.
    public var corsOrigin: String = "*"
    /// When set, every media request needs a valid `token` (see `URLSigner`).
    public var tokenSecret: String?
    /// Where the keys of encrypted videos are (`<id>/<n>.key`), answered at `/v1/videos/{id}/keys/{n}.key`;
    /// nil: no keys are served. Kept outside `root`, so no static route can reach them.
    public var keysFolder: String?
    /// The app's API key: when set, the catalogue API (`/v1/videos`, `/v1/videos/{id}/stream`) answers only
    /// requests that send it in `X-API-Key`. With `tokenSecret` and no key the API is closed (403), since it
    /// would hand out URLs nobody could play.
    public var apiKey: String?
    /// How long the tokens inside the stream API's and the index page's signed URLs stay valid.
    public var tokenLifetimeSeconds: Int64 = 3600
    /// With `tokenSecret`, the HTML index at `/` is off (404) unless this is set; when set, it links signed URLs.
    public var servesIndexWhenSigned: Bool = false
    /// Threads answering requests (each with its own epoll loop); 0 means one per processor.
    public var threadCount: Int = 0
    /// Simultaneous connections; nil: as many as the descriptor limit leaves room for (`ConnectionCapacity`), more
    /// is an error. When all are taken, a newcomer takes the slot of a connection waiting for a request or of an
    /// answer its client does not read (`ReclaimRank`); when there is none, it gets 503.
    public var connectionLimit: Int?
    /// Simultaneous connections from one client address (0: no cap); beyond it, 503. Behind a proxy every
    /// connection comes from the proxy's address: raise it or set 0 there.
    public var connectionsPerAddress: Int = 256
    /// How long a request head may take to arrive, and how long a connection may stay idle.
    public var timeouts = ConnectionTimeouts()
    /// Sizes of the request line and head.
    public var requestLimits = RequestLimits()
    /// Longest request path accepted (414 beyond).
    public var maximumPathBytes: Int = PathGuard.defaultMaximumBytes
    /// The network each client meets (`serve --shape`); nil: answers go as fast as the socket takes them.
    public var shape: LinkShape?
    /// Failures injected into chosen answers (`serve --faults`); nil: none.
    public var faults: FaultPlan?
    /// Keep whole-file answers for small files ready (see `PreparedAnswers`); off only in tests that compare
    /// both paths.
    var reusesAnswers: Bool = true

    public init(root: String) { self.root = root }
}
