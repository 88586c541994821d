/// How long a connection may take at each step before it is closed, whatever the rate at which bytes trickle in.
///
/// - A request head (request line and header fields) must be complete within `requestHeadSeconds` of its first
///   byte, and a new connection's first request within `requestHeadSeconds` of the accept: a client sending one
///   byte a second cannot hold a connection longer than that. The answer is 408, then the connection closes.
/// - A kept-alive connection may wait `idleSeconds` for its next request, and an answer being sent may make no
///   progress (the client reads nothing) for `idleSeconds`; then the connection is closed.
public struct ConnectionTimeouts: Sendable, Hashable {
    public var requestHeadSeconds: Double = 10
    public var idleSeconds: Double = 30

    public init() {}

    var requestHeadMilliseconds: Int64 { Int64(requestHeadSeconds * 1000) }
    var idleMilliseconds: Int64 { Int64(idleSeconds * 1000) }
}
