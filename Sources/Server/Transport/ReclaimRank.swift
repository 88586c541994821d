/// Which connection gives up its slot when every slot is taken and a new client arrives: ranks compare so that
/// the least useful comes first. A connection waiting for a request (idle between requests, or a head still
/// trickling in) goes before any answer, the one that has waited longest first; then the answer whose client has
/// taken nothing for longest. Held requests and answers being made are never ranked: they keep their slots.
///
///     [.stalled(since: 10), .waiting(since: 500), .waiting(since: 90)].min()  // .waiting(since: 90)
enum ReclaimRank: Comparable, Sendable {
    /// Waiting for a request since this monotonic millisecond.
    case waiting(since: Int64)
    /// Sending an answer whose client has taken no byte since this monotonic millisecond.
    case stalled(since: Int64)
}
