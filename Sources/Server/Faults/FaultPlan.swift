/// The `serve --faults` rules and how many requests each has matched: which failure, if any, a request meets.
/// Rules are tried in order and the first whose selection picks the request applies; every matching rule counts
/// the request. Deterministic: the same requests in the same order meet the same faults (`share` draws from
/// the seed and the rule's count, not from a clock).
public struct FaultPlan: Sendable {
    public let rules: [FaultRule]
    public let seed: UInt64
    private var matched: [Int]

    public init(rules: [FaultRule], seed: UInt64 = 1) {
        self.rules = rules
        self.seed = seed
        matched = Array(repeating: 0, count: rules.count)
    }

    /// The fault a request for `path` meets (nil: none), with the rule's index.
    public mutating func fault(forPath path: String) -> (rule: Int, action: FaultRule.Action)? {
        var hit: (rule: Int, action: FaultRule.Action)?
        for (index, rule) in rules.enumerated() where rule.matches(path) {
            matched[index] += 1
            guard hit == nil else { continue }
            let count = matched[index]
            let picked: Bool
            switch rule.selection {
            case .all: picked = true
            case .nth(let n): picked = count == n
            case .every(let n): picked = count % n == 0
            case .share(let share): picked = Self.unit(seed: seed, rule: index, count: count) < share
            }
            if picked { hit = (index, rule.action) }
        }
        return hit
    }

    /// A number in [0, 1) from the seed, the rule and its count (SplitMix64's finaliser).
    static func unit(seed: UInt64, rule: Int, count: Int) -> Double {
        var z = seed &+ UInt64(rule) &* 0x9E37_79B9_7F4A_7C15 &+ UInt64(count) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        z ^= z >> 31
        return Double(z >> 11) / Double(1 << 53)
    }
}
