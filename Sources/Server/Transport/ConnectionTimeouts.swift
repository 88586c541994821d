/// How long a connection may take at each step before it is closed, whatever the rate at which bytes trickle in.
///
/// - A request head (request line and header fields) must be complete within `requestHeadSeconds` of its first
///   byte, and a new connection's first request within `requestHeadSeconds` of the accept: a client sending one
///   byte a second cannot hold a connection longer than that. The answer is 408, then the connection closes.
/// - A kept-alive connection may wait `idleSeconds` for its next request, and an answer being sent may make no
///   progress (the client reads nothing) for `idleSeconds`; then the connection is closed.
/// - An answer must be read at `minimumSendBytesPerSecond` on average: all of it within `idleSeconds` plus its
///   length at that rate (a 1 MiB segment: 30 s + 128 s), so that clients reading a byte now and then cannot
///   hold connections for ever. 8 KiB/s is 64 kbit/s, below the lowest rendition any ladder plays.
/// - Progress is what the client takes: bytes the socket accepts, or bytes leaving its send queue (the client
///   read) while the server waits for room in it.
/// - An answer whose client has taken nothing for `stallSeconds` is far below that floor: when every connection
///   slot is taken, a new client may get its slot (`ReclaimRank`).
public struct ConnectionTimeouts: Sendable, Hashable {
    public var requestHeadSeconds: Double = 10
    public var idleSeconds: Double = 30
    public var minimumSendBytesPerSecond: Double = 8 * 1024
    public var stallSeconds: Double = 5

    public init() {}

    var requestHeadMilliseconds: Int64 { Int64(requestHeadSeconds * 1000) }
    var idleMilliseconds: Int64 { Int64(idleSeconds * 1000) }
    var stallMilliseconds: Int64 { Int64(stallSeconds * 1000) }

    /// The monotonic millisecond by which an answer of `bytes` begun at `now` must be out.
    func answerDeadline(bytes: Int64, from now: Int64) -> Int64 {
        now + idleMilliseconds + Int64((Double(bytes) / max(1, minimumSendBytesPerSecond) * 1000).rounded(.up))
    }
}
