import Traces

/// `serve --shape`: the network each client meets. Its link follows `trace` period by period from the client's
/// first request (looping when the trace ends): each answer's first byte waits the latency in force, and every
/// byte of every answer — files through sendfile, ranges, gzip, held LL-HLS answers — goes through the link at
/// its rate. A period of zero bandwidth stalls the link.
public struct LinkShape: Sendable {
    /// Who shares one link.
    public enum Scope: String, Sendable, CaseIterable {
        /// All connections from one address (a phone's radio: the playlist, video and audio requests of one
        /// player compete for it).
        case client
        /// Each connection alone.
        case connection
    }

    public var trace: NetworkTrace
    public var scope: Scope

    public init(trace: NetworkTrace, scope: Scope = .client) {
        self.trace = trace
        self.scope = scope
    }
}
