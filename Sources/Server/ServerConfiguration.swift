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
    /// Threads answering requests (each with its own epoll loop); 0 means one per processor.
    public var threadCount: Int = 0
    /// Keep whole-file answers for small files ready and give them again while the file is unchanged (see
    /// `PreparedAnswers`); off only to compare with the uncached path.
    public var reusesAnswers: Bool = true
    /// Simultaneous connections accepted; more wait in the listen backlog.
    public var connectionLimit: Int = 4096
    /// A connection idle (or trickling) this long is closed.
    public var idleTimeoutSeconds: Int = 30
    /// Longest request path accepted (414 beyond).
    public var maximumPathBytes: Int = PathGuard.defaultMaximumBytes
    /// Memory per connection for the request line and headers; larger requests get 431 (or 414).
    public var requestHeaderBytes: Int = 16 * 1024

    public init(root: String) { self.root = root }
}
