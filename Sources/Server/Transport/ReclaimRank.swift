/// Which connection gives up its slot when every slot is taken and a new client arrives: ranks compare so that
/// the one that has done nothing for longest comes first — a connection waiting for a request (idle between
/// requests, or a head still trickling in) since it began to wait, an answer whose client has taken nothing
/// since it last took bytes; on a tie the one waiting for a request. A client that has just connected is thus
/// the last to go, after any answer its client stopped reading long ago. Held requests and answers being made
/// are never ranked: they keep their slots.
///
///     [ReclaimRank(since: 900, .waiting), ReclaimRank(since: 40, .stalled)].min()  // the stalled answer
struct ReclaimRank: Comparable, Sendable {
    enum Kind: Comparable, Sendable {
        /// Waiting for a request.
        case waiting
        /// Sending an answer whose client takes nothing (for at least `ConnectionTimeouts.stallSeconds`).
        case stalled
    }

    /// The monotonic millisecond since which the connection has done nothing.
    var since: Int64
    var kind: Kind

    init(since: Int64, _ kind: Kind) {
        self.since = since
        self.kind = kind
    }

    static func < (left: Self, right: Self) -> Bool { (left.since, left.kind) < (right.since, right.kind) }
}
