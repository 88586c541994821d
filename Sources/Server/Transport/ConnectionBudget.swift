import Synchronization

/// How many connections are open, in all and per client address, against the configured caps. Shared by the
/// event loops; touched once when a connection opens and once when it closes.
final class ConnectionBudget: Sendable {
    enum Admission: Equatable {
        case admitted
        /// The address already holds its share.
        case addressFull
        /// Every connection slot is taken.
        case serverFull
    }

    private struct Counts {
        var total = 0
        var perAddress: [String: Int] = [:]
    }

    let limit: Int
    /// 0: no cap per address.
    let perAddressLimit: Int
    private let counts = Mutex(Counts())

    init(limit: Int, perAddressLimit: Int) {
        self.limit = max(1, limit)
        self.perAddressLimit = max(0, perAddressLimit)
    }

    /// Takes a slot for a connection from `address`, unless a cap says no.
    func admit(_ address: String) -> Admission {
        counts.withLock { counts in
            let mine = counts.perAddress[address, default: 0]
            if perAddressLimit > 0 && mine >= perAddressLimit { return .addressFull }
            if counts.total >= limit { return .serverFull }
            counts.total += 1
            counts.perAddress[address] = mine + 1
            return .admitted
        }
    }

    /// Gives back the slot of a connection from `address`.
    func release(_ address: String) {
        counts.withLock { counts in
            counts.total -= 1
            let mine = counts.perAddress[address, default: 1] - 1
            counts.perAddress[address] = mine > 0 ? mine : nil
        }
    }

    var openCount: Int { counts.withLock { $0.total } }
}
