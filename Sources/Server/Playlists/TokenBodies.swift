import Synchronization

/// Playlist bodies made for one viewer's token (the playlist rewritten with it, and its gzip), kept so that the
/// reloads of a viewer, or of anyone holding the same token, cost a lookup rather than a rewrite of the whole
/// playlist. Bounded: at most `maximumCount` bodies and `maximumBytes` in all, the oldest dropped first, and a
/// body larger than a quarter of the budget is not kept. Keyed by the version of the file (`FileStamp`): a
/// playlist that changes is never answered from here, and its older bodies go as soon as a newer one is kept.
final class TokenBodies: Sendable {
    struct Key: Hashable, Sendable {
        /// The playlist's path below the served folder.
        var path: String
        var stamp: FileStamp
        var token: String
        /// What else the body depends on: the root the request came through, the derived body (delta update),
        /// gzip.
        var form: String
    }

    static let maximumBytes = 64 << 20
    static let maximumCount = 1024

    private struct State {
        var bodies: [Key: [UInt8]] = [:]
        /// Keys in the order they were kept.
        var order: [Key] = []
        var bytes = 0
        var made = 0
    }

    private let state = Mutex(State())

    /// The body for `key`, made by `make` when it is not kept (nil when `make` gives none).
    func body(_ key: Key, _ make: () -> [UInt8]?) -> [UInt8]? {
        if let kept = state.withLock({ $0.bodies[key] }) { return kept }
        guard let made = make() else { return nil }
        state.withLock { state in
            state.made += 1
            guard made.count <= Self.maximumBytes / 4, state.bodies[key] == nil else { return }
            // Bodies of an older version of the same playlist can never be asked for again.
            let stale = Set(state.order.filter { $0.path == key.path && $0.stamp != key.stamp })
            if !stale.isEmpty {
                for old in stale { state.bytes -= state.bodies.removeValue(forKey: old)?.count ?? 0 }
                state.order.removeAll { stale.contains($0) }
            }
            var dropped = 0
            while dropped < state.order.count
                && (state.bytes + made.count > Self.maximumBytes || state.order.count - dropped >= Self.maximumCount)
            {
                state.bytes -= state.bodies.removeValue(forKey: state.order[dropped])?.count ?? 0
                dropped += 1
            }
            state.order.removeFirst(dropped)
            state.bodies[key] = made
            state.order.append(key)
            state.bytes += made.count
        }
        return made
    }

    /// How many bodies were made (kept or not) since the server started: a request answered from here makes none.
    var madeCount: Int { state.withLock { $0.made } }

    /// The bytes kept now.
    var keptBytes: Int { state.withLock { $0.bytes } }

    /// The bodies kept now.
    var keptCount: Int { state.withLock { $0.order.count } }
}
