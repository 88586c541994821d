import Synchronization
import Traces

/// The shaped links of one server (`serve --shape`), each made at its client's first request: one per client
/// address, shared by the event loops (a client's connections may land on different loops), or one per
/// connection. The only lock is around the table; a grant is a few additions.
final class SharedLinks: Sendable {
    let shape: LinkShape
    private let walker: TraceWalker
    private let links = Mutex<[String: ShapedLink]>([:])

    init(shape: LinkShape) {
        self.shape = shape
        walker = TraceWalker(trace: shape.trace)
    }

    /// The key of the link a connection's answers go through.
    func key(peer: PeerAddress, connection: ObjectIdentifier) -> String {
        switch shape.scope {
        case .client: peer.text
        case .connection: "\(peer.text) \(UInt(bitPattern: connection.hashValue))"
        }
    }

    /// Makes the link at its first request (its trace starts then); nothing when it exists.
    func open(_ key: String, now: Int64) {
        links.withLock { links in
            if links[key] == nil { links[key] = ShapedLink(walker: walker, origin: now) }
        }
    }

    /// What an answer's first byte waits on this link now, ms.
    func latencyMilliseconds(_ key: String, now: Int64) -> Int64 {
        links.withLock { $0[key]?.latencyMilliseconds(at: now) ?? 0 }
    }

    func grant(_ key: String, wanting bytes: Int64, now: Int64) -> ShapedLink.Grant {
        links.withLock { links in
            guard links[key] != nil else { return .send(Int(clamping: bytes)) }
            return links[key]!.grant(wanting: bytes, now: now)
        }
    }

    func refund(_ key: String, bytes: Int) {
        links.withLock { $0[key]?.refund(bytes) }
    }

    /// When the link's trace started (monotonic ms).
    func origin(_ key: String) -> Int64? {
        links.withLock { $0[key]?.origin }
    }

    /// A connection's own link ends with it.
    func close(_ key: String) {
        guard shape.scope == .connection else { return }
        _ = links.withLock { $0.removeValue(forKey: key) }
    }
}
