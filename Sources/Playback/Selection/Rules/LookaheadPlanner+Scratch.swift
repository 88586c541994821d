extension LookaheadPlanner {
    /// Memory the search reuses between decisions: the partial plans seen per (depth, level), and the levels
    /// nearest each level (computed again only when the allowed range changes).
    struct Scratch {
        var seen: [Seen] = []
        /// The reserve bound's best rests, both prices at once: a cell each, and a row of room (`Search.init`).
        var rests: [SIMD2<Double>] = []
        var nearestFirst: [Int] = []
        var nearestFor: (allowed: ClosedRange<Int>, levels: Int)?
        /// The ladder's Mbps (`LookaheadPlanner.mbps(_:)` of each level), made again only when its bitrates change
        /// (`ladderBitsPerSecond`), with `switchGains` and `ladderAscending`.
        var mbps: [Double] = []
        var ladderBitsPerSecond: [Int] = []
        /// switchGains[previous * levels + level]: 2 · mbps[level] − |mbps[level] − mbps[previous]|, the most a
        /// step to `level` after `previous` and the step after it can earn without stalls (the first bound's
        /// terms).
        var switchGains: [Double] = []
        /// True when the ladder's Mbps never fall with the level (made with `switchGains`): then so do those of
        /// any allowed range, which the reserve bound needs (`Search.init`).
        var ladderAscending = true

        init() {}

        /// Makes `mbps`, `switchGains` and `ladderAscending` for the ladder `variants` unless they are made for its
        /// bitrates already (the same bitrates give the same Mbps): a decision compares integers, and neither
        /// divides nor fills tables.
        mutating func prepareLadder(_ variants: [VariantInfo]) {
            let levels = variants.count
            if ladderBitsPerSecond.count == levels {
                // A plain loop: the generic `elementsEqual` costs more than the search saves with the table.
                let unchanged = ladderBitsPerSecond.withUnsafeBufferPointer { kept in
                    variants.withUnsafeBufferPointer { variants in
                        var level = 0
                        while level < levels && kept[level] == variants[level].nominalBitsPerSecond { level &+= 1 }
                        return level == levels
                    }
                }
                if unchanged { return }
            }
            ladderBitsPerSecond = variants.map(\.nominalBitsPerSecond)
            mbps = variants.map(LookaheadPlanner.mbps(of:))
            ladderAscending = !(1..<max(levels, 1)).contains { mbps[$0 - 1] > mbps[$0] }
            switchGains = Array(repeating: 0, count: levels * levels)
            for previous in 0..<levels {
                for level in 0..<levels {
                    switchGains[previous * levels + level] = 2 * mbps[level] - abs(mbps[level] - mbps[previous])
                }
            }
        }

        mutating func prepare(cells: Int, allowed: ClosedRange<Int>, levels: Int) {
            if seen.count < cells * Search.seenPerCell {
                seen = Array(
                    repeating: Seen(buffer: 0, worse: 0, value: 0, first: 0), count: cells * Search.seenPerCell)
            }
            if rests.count < cells + levels { rests = Array(repeating: SIMD2(), count: cells + levels) }
            if let nearestFor, nearestFor.allowed == allowed, nearestFor.levels == levels { return }
            nearestFor = (allowed, levels)
            // nearestFirst[level * levels + k]: the k-th allowed level nearest `level` (center, center + 1,
            // center − 1, center + 2, … within range; ties: the higher first).
            nearestFirst = Array(repeating: 0, count: levels * levels)
            for center in allowed {
                let row = center * levels
                nearestFirst[row] = center
                var count = 1
                var distance = 1
                while count < allowed.count {
                    if center + distance <= allowed.upperBound {
                        nearestFirst[row + count] = center + distance
                        count += 1
                    }
                    if center - distance >= allowed.lowerBound {
                        nearestFirst[row + count] = center - distance
                        count += 1
                    }
                    distance += 1
                }
            }
        }
    }

    /// A partial plan after playing some level at some depth.
    struct Seen {
        var buffer: Double
        var worse: Double
        var value: Double
        var first: Int
    }
}
