/// How many connections the server holds at once, and from one address: as many as the process's descriptor
/// limit leaves room for, unless asked for fewer. Every connection is a descriptor, and so is each file being
/// sent; held LL-HLS requests cost a descriptor and no CPU, so an origin should hold as many as it can.
///
///     let capacity = try ConnectionCapacity(descriptorLimit: 1024, loops: 2, requested: nil, perAddress: 256)
///     capacity.connections  // 874: 1024 less 16, 3 per loop and one in eight for files
///     capacity.warning      // the limit is low: what to raise
///
/// Pure: `DescriptorLimit` reads (and raises) the limit.
public struct ConnectionCapacity: Sendable, Hashable {
    /// Descriptors the process may hold (RLIMIT_NOFILE).
    public let descriptorLimit: Int
    /// Connections held at once.
    public let connections: Int
    /// Connections one client address may hold; 0: no cap.
    public let perAddress: Int

    /// Below this many descriptors an origin cannot hold a few thousand viewers: the start-up line warns.
    public static let lowDescriptorLimit = 4096

    /// - Parameter requested: the connections asked for (nil: as many as the descriptors allow).
    /// - Throws: `ServerError.tooManyConnections` when more are asked for than the descriptors allow.
    public init(descriptorLimit: Int, loops: Int, requested: Int?, perAddress: Int) throws(ServerError) {
        let allowed = Self.allowedConnections(descriptorLimit: descriptorLimit, loops: loops)
        if let requested, requested > allowed {
            throw .tooManyConnections(requested: requested, allowed: allowed, descriptorLimit: descriptorLimit)
        }
        self.descriptorLimit = descriptorLimit
        connections = max(1, requested ?? allowed)
        self.perAddress = max(0, perAddress)
    }

    /// The most connections `descriptorLimit` leaves room for, with `loops` event loops: what is left after 16
    /// descriptors (standard streams, listener, folder watcher, files the background workers read), three per loop
    /// (its epoll set, wake-up and reserve descriptors) and one in eight for files being sent; at least 1.
    public static func allowedConnections(descriptorLimit: Int, loops: Int) -> Int {
        max(1, descriptorLimit - 16 - 3 * max(1, loops) - descriptorLimit / 8)
    }

    /// The start-up line: `up to 917482 connections, 256 per address (descriptor limit 1048576)`.
    public var summary: String {
        let perAddressText = perAddress > 0 ? "\(perAddress) per address" : "no cap per address"
        return "up to \(connections) connections, \(perAddressText) (descriptor limit \(descriptorLimit))"
    }

    /// What to do when the descriptor limit is low; nil when it is not.
    public var warning: String? {
        guard descriptorLimit < Self.lowDescriptorLimit else { return nil }
        return
            "the descriptor limit of \(descriptorLimit) is low and caps connections at \(connections): raise it "
            + "(ulimit -n, or LimitNOFILE= for a systemd service) to hold more viewers"
    }
}
