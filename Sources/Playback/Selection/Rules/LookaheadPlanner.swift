/// Exhaustive QoE_lin look-ahead over level sequences (depth-first, incremental), shared by MPC and Filterz.
/// Branches that cannot beat the best plan found so far are cut, which finds the same plan as visiting every
/// sequence in order and keeping the first best, at a fraction of the cost.
struct LookaheadPlanner {
    let allowed: ClosedRange<Int>
    let bitsPerSecond: Double
    let latencySeconds: Double
    let rebufferPenalty: Double
    let segmentSeconds: Double
    let capSeconds: Double
    /// The upcoming sizes in bytes and the ladder, read in place (`bits(depth:level:)`, `mbps(_:)`): a decision
    /// copies nothing.
    let upcomingBytes: [[Int]]
    let variants: [VariantInfo]
    let levels: Int
    let previousLevel: Int?
    let startBuffer: Double
    /// Terminal value: `terminalWeight` per second of buffer short of `terminalTarget` at the plan's end.
    var terminalTarget = 0.0
    var terminalWeight = 0.0
    /// A second, pessimistic scenario: each plan is also played at this rate, and every second it would stall
    /// there costs `pessimisticPenalty` more (0: no second scenario).
    var pessimisticBitsPerSecond = 1.0
    var pessimisticPenalty = 0.0

    init(
        input: SelectionInput, allowed: ClosedRange<Int>, bitsPerSecond: Double, latencySeconds: Double,
        rebufferPenalty: Double
    ) {
        self.allowed = allowed
        self.bitsPerSecond = max(bitsPerSecond, 1)
        self.latencySeconds = latencySeconds
        self.rebufferPenalty = rebufferPenalty
        segmentSeconds = input.segmentDurationSeconds
        capSeconds = input.maxBufferSeconds
        levels = input.variants.count
        upcomingBytes = input.upcomingSegmentBytes
        variants = input.variants
        previousLevel = input.previousVariantIndex
        startBuffer = input.bufferSeconds
    }

    /// The pessimistic scenario's rate: the planned rate itself when there is no second scenario, so that the
    /// two buffers are equal and cost nothing to compare.
    var pessimisticRate: Double { pessimisticPenalty > 0 ? max(pessimisticBitsPerSecond, 1) : bitsPerSecond }

    /// Bits of the segment `depth` ahead at `level`: `SelectionInput.segmentBytes(ahead:variant:)` × 8.
    @inline(__always)
    func bits(depth: Int, level: Int) -> Double {
        if depth < upcomingBytes.count {
            let row = upcomingBytes[depth]
            if level < row.count { return Double(row[level]) * 8 }
        }
        return Double(SelectionInput.nominalBytes(of: variants[level], seconds: segmentSeconds)) * 8
    }

    /// The nominal bitrate of `level`, Mbps: what QoE_lin counts.
    @inline(__always)
    func mbps(_ level: Int) -> Double { Self.mbps(of: variants[level]) }

    /// The nominal bitrate of `variant`, Mbps (one expression for `mbps(_:)` and the scratch's ladder, so both
    /// give the same doubles).
    @inline(__always)
    static func mbps(of variant: VariantInfo) -> Double { Double(variant.nominalBitsPerSecond) / 1_000_000 }

    /// The first level of the best plan over `steps` segments.
    ///
    /// Levels nearest the previous one are visited first, so the first plan tried holds the previous level and
    /// good plans are found early (starting the bound at the best plan that holds one level, or at the last
    /// decision's plan shifted by a segment, cost more than they cut). Two shortcuts answer without the whole
    /// search: holding the top level when that is provably best (`holdingTopIsBest`), and the previous level
    /// when its plan alone makes every other first level lose at the first step (`Search.holdingWins`). Cuts,
    /// all exact:
    /// - bound: a branch whose best imaginable rest cannot beat the best plan is not explored (two bounds: the
    ///   top bitrate at every step; and the reserve bound, see `Search.init`, which prices the buffer a plan
    ///   spends and finds the best priced rest by dynamic programming over the levels alone);
    /// - dominance: a partial plan that reaches the same level at the same depth as one already seen, with no
    ///   more buffer, no more value and no lower first level, is not explored (every continuation of it is
    ///   worth at most the same continuation of the other: the buffer only helps, and each step's arithmetic is
    ///   monotone in the buffer and the value, also in floating point).
    /// The answer is still the lowest first level among the best plans (what visiting every sequence in order
    /// and keeping the first best gives: `referenceFirstLevel`): a tie with a lower first level wins and is
    /// never cut.
    /// Where a comparison's outcome is hard to predict and both outcomes are cheap to compute (the levels of the
    /// last step, `Search.finishLast`; the two buffers after a step, `Search.buffersAfter`), the arithmetic runs
    /// two lanes at a time with no branch (`SIMD2`): lane by lane the same operations, so the same doubles. A
    /// mispredicted branch costs more than the instructions it skips (see README, "Simulation").
    func bestFirstLevel(steps: Int) -> Int {
        var scratch = Scratch()
        return bestFirstLevel(steps: steps, scratch: &scratch)
    }

    /// `bestFirstLevel(steps:)` in memory the caller keeps from one decision to the next (a rule's `Scratch`), so
    /// that a decision allocates nothing.
    func bestFirstLevel(steps: Int, scratch: inout Scratch) -> Int {
        if holdingTopIsBest(steps: steps) { return allowed.upperBound }
        let cells = steps * levels
        let slowRate = pessimisticRate
        scratch.prepare(cells: cells, allowed: allowed, levels: levels)
        let nearestFirst = scratch.nearestFirst
        // Doubles: both scenarios' download tables (2 × cells).
        return withUnsafeTemporaryAllocation(of: Double.self, capacity: 2 * cells) { doubles in
            let downloads = doubles.baseAddress!
            // Download time of every (depth, level) in both scenarios: the expressions `referenceFirstLevel`
            // evaluates, both scenarios' in the two lanes of one division; and the longest of them all (the reserve
            // bound's margin, `Search.fillRestValues`), a running maximum per lane.
            let rates = SIMD2(bitsPerSecond, slowRate)
            let latencies = SIMD2(repeating: latencySeconds)
            var longest = SIMD2<Double>()
            upcomingBytes.withUnsafeBufferPointer { rows in
                for depth in 0..<steps {
                    let fast = downloads + depth * levels
                    let slow = fast + cells
                    if depth < rows.count && rows[depth].count >= levels {
                        // The sizes are known: read the row in place (`bits(depth:level:)` for each cell).
                        rows[depth].withUnsafeBufferPointer { row in
                            let sizes = row.baseAddress!
                            for level in 0..<levels {
                                let times = latencies + SIMD2(repeating: Double(sizes[level]) * 8) / rates
                                fast[level] = times[0]
                                slow[level] = times[1]
                                longest = longest.replacing(with: times, where: times .> longest)
                            }
                        }
                    } else {
                        for level in 0..<levels {
                            let times = latencies + SIMD2(repeating: bits(depth: depth, level: level)) / rates
                            fast[level] = times[0]
                            slow[level] = times[1]
                            longest = longest.replacing(with: times, where: times .> longest)
                        }
                    }
                }
            }
            scratch.prepareLadder(variants)
            let switchGains = scratch.switchGains
            let ladderMbps = scratch.mbps
            let ascending = scratch.ladderAscending
            return withUnsafeTemporaryAllocation(of: Int.self, capacity: cells) { counts in
                counts.initialize(repeating: 0)
                return scratch.seen.withUnsafeMutableBufferPointer { seen in
                    scratch.rests.withUnsafeMutableBufferPointer { rests in
                    nearestFirst.withUnsafeBufferPointer { nearestFirst in
                        switchGains.withUnsafeBufferPointer { switchGains in
                        ladderMbps.withUnsafeBufferPointer { mbps in
                            var search = Search(
                                planner: self, downloads: UnsafePointer(downloads), mbps: mbps.baseAddress!,
                                ascending: ascending,
                                seen: seen.baseAddress!, seenCount: counts.baseAddress!,
                                nearestFirst: nearestFirst.baseAddress!, switchGains: switchGains.baseAddress!,
                                restValues: rests.baseAddress!, longestDownload: max(longest[0], longest[1]),
                                steps: steps, bestFirst: allowed.lowerBound)
                            if search.holdingWins() { return search.bestFirst }
                            search.play(
                                depth: 0, previous: previousLevel ?? -1, buffer: startBuffer,
                                worse: startBuffer, reward: 0, first: -1)
                            return search.bestFirst
                        }
                        }
                    }
                    }
                }
            }
        }
    }

    /// True when the plan that holds the top allowed level throughout is provably the best, so the search's
    /// answer is known without it: the previous level is that top level, every other allowed level has a lower
    /// bitrate, and the plan stalls in neither scenario and ends with at least the terminal target. It then
    /// loses nothing (`play` gives exactly the top bitrate at each step) and earns steps × the top bitrate, the
    /// most any plan can (penalties only subtract); every other plan plays a lower level somewhere and so earns
    /// at least the gap to that level less, far more than any rounding. The search, which tries this plan
    /// first, would answer the top level too. Common on fast links with a full buffer; it costs one `play` per
    /// step, and only when the previous level is the top one.
    func holdingTopIsBest(steps: Int) -> Bool {
        let top = allowed.upperBound
        guard previousLevel == top, rebufferPenalty >= 0, pessimisticPenalty >= 0, terminalWeight >= 0 else {
            return false
        }
        let topMbps = mbps(top)
        for level in allowed where level != top && !(mbps(level) < topMbps) { return false }
        var buffer = startBuffer
        var worse = startBuffer
        for depth in 0..<steps {
            var value = 0.0
            play(depth: depth, level: top, previous: top, buffer: &buffer, worse: &worse, value: &value)
            if value != topMbps { return false }
        }
        return buffer >= terminalTarget
    }

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
                seen = Array(repeating: Seen(buffer: 0, worse: 0, value: 0, first: 0), count: cells * Search.seenPerCell)
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

    /// The plain definition the search must match: every level sequence in lexicographic order, keeping the first
    /// one with a strictly better value. Exponential; for tests.
    func referenceFirstLevel(steps: Int) -> Int {
        var best = -Double.infinity
        var bestFirst = allowed.lowerBound
        func visit(
            depth: Int, level: Int, previous: Int?, buffer: Double, worse: Double, reward: Double, first: Int
        ) {
            var (buffer, worse, value) = (buffer, worse, reward)
            play(depth: depth, level: level, previous: previous, buffer: &buffer, worse: &worse, value: &value)
            if depth + 1 == steps {
                if buffer < terminalTarget { value -= terminalWeight * (terminalTarget - buffer) }
                if value > best {
                    best = value
                    bestFirst = first
                }
                return
            }
            for next in allowed {
                visit(
                    depth: depth + 1, level: next, previous: level, buffer: buffer, worse: worse, reward: value,
                    first: first)
            }
        }
        for first in allowed {
            visit(
                depth: 0, level: first, previous: previousLevel, buffer: startBuffer, worse: startBuffer, reward: 0,
                first: first)
        }
        return bestFirst
    }

    /// One step of a plan: `level` at `depth` after `previous`, from the buffers of both scenarios (the planned
    /// rate's, `buffer`, and the pessimistic one's, `worse`): idle to fit under the cap, download, stall if the
    /// buffer runs out, add the step's QoE to `value`. `Search.step` is the same arithmetic from its tables.
    func play(depth: Int, level: Int, previous: Int?, buffer: inout Double, worse: inout Double, value: inout Double) {
        if buffer + segmentSeconds > capSeconds { buffer = capSeconds - segmentSeconds }
        if worse + segmentSeconds > capSeconds { worse = capSeconds - segmentSeconds }
        let bits = bits(depth: depth, level: level)
        let download = latencySeconds + bits / bitsPerSecond
        let rebuffer = max(download - buffer, 0)
        buffer = max(buffer - download, 0) + segmentSeconds
        let slow = latencySeconds + bits / pessimisticRate
        let worseRebuffer = max(slow - worse, 0)
        worse = max(worse - slow, 0) + segmentSeconds
        value = value + mbps(level) - rebufferPenalty * rebuffer
        if let previous { value -= abs(mbps(level) - mbps(previous)) }
        value -= pessimisticPenalty * worseRebuffer
    }

    /// The depth-first search: the planner's numbers, its tables as pointers (no reference counting in the
    /// hot loop), the partial plans seen per (depth, level), and the best plan so far.
    private struct Search {
        /// Partial plans remembered per (depth, level); the oldest is replaced (a power of two).
        static let seenPerCell = 4

        /// The levels a plan may use.
        let allowed: ClosedRange<Int>
        /// The buffer and level the plans start from (−1 = none).
        let startBuffer: Double
        let startLevel: Int
        /// downloads[depth * levels + level]: seconds to fetch that segment at the predicted rate.
        let downloads: UnsafePointer<Double>
        /// The same at the pessimistic rate.
        let slowDownloads: UnsafePointer<Double>
        /// The longest download of both tables (at least 0).
        let longestDownload: Double
        let pessimisticPenalty: Double
        let mbps: UnsafePointer<Double>
        let seen: UnsafeMutablePointer<Seen>
        /// Partial plans recorded per cell so far (the cell holds the last `seenPerCell`).
        let seenCount: UnsafeMutablePointer<Int>
        let steps: Int
        let levels: Int
        let segmentSeconds: Double
        let capSeconds: Double
        let rebufferPenalty: Double
        let terminalTarget: Double
        let terminalWeight: Double
        /// nearestFirst[level * levels + k]: the k-th allowed level nearest `level` (ties: the higher first).
        let nearestFirst: UnsafePointer<Int>
        /// The scratch's `switchGains`.
        let switchGains: UnsafePointer<Double>
        let allowedCount: Int
        /// The top allowed bitrate: what any step can earn at most.
        let topGain: Double
        /// True when the ladder's bitrates never fall with the level (a ladder's order), so neither do the allowed
        /// ones (false for a ladder out of order, even if its allowed part is in order: there is then no reserve
        /// bound).
        let ascending: Bool
        /// The reserve bound's largest price of a second of download (0: no reserve bound; see `init`).
        let reservePrice: Double
        /// True when the reserve bound cuts (see `init`).
        let hasReserve: Bool
        /// The prices the reserve bound tries, all at once: a plan that keeps a lot of buffer is bounded best by a
        /// low price, one that spends it by a high one.
        let prices: SIMD2<Double>
        /// restValues[depth * levels + level]: the reserve bound's best rest at each price after a step to `level`
        /// at `depth` (all but the last), with its constant terms (see `init`); then a row of room.
        let restValues: UnsafeMutablePointer<SIMD2<Double>>
        /// The magnitude of the terms the reserve bound sums (its margin is 1e-9 of it, far above any rounding).
        var restScale = 1.0
        var best: Double
        var bestFirst: Int

        init(
            planner: LookaheadPlanner, downloads: UnsafePointer<Double>, mbps: UnsafePointer<Double>, ascending: Bool,
            seen: UnsafeMutablePointer<Seen>, seenCount: UnsafeMutablePointer<Int>,
            nearestFirst: UnsafePointer<Int>, switchGains: UnsafePointer<Double>,
            restValues: UnsafeMutablePointer<SIMD2<Double>>, longestDownload: Double, steps: Int, bestFirst: Int
        ) {
            self.longestDownload = longestDownload
            self.switchGains = switchGains
            allowed = planner.allowed
            startBuffer = planner.startBuffer
            startLevel = planner.previousLevel ?? -1
            self.downloads = downloads
            slowDownloads = downloads + steps * planner.levels
            pessimisticPenalty = planner.pessimisticPenalty
            self.mbps = mbps
            self.seen = seen
            self.seenCount = seenCount
            self.steps = steps
            levels = planner.levels
            segmentSeconds = planner.segmentSeconds
            capSeconds = planner.capSeconds
            rebufferPenalty = planner.rebufferPenalty
            terminalTarget = planner.terminalTarget
            terminalWeight = planner.terminalWeight
            allowedCount = planner.allowed.count
            self.nearestFirst = nearestFirst
            topGain = mbps[planner.allowed.upperBound]
            self.ascending = ascending
            self.bestFirst = bestFirst
            best = -Double.infinity
            // The reserve bound (exact, a Lagrangian relaxation of the stalls and the terminal value). Take a plan's
            // rest after a step at `depth` that leaves buffer b: r more steps, each from its buffer c_j clamped under
            // the cap (c_j ≤ the buffer b_j before it), download d_j, stall s_j = max(d_j − c_j, 0), then
            // b_{j+1} = c_j − d_j + s_j + segment ≤ b_j − d_j + s_j + segment. Summed: Σ s_j ≥ final − b + Σ d_j −
            // r × segment, with `final` the buffer the plan ends with (≥ one segment). For a price p in
            // [0, terminal weight] (and at most the rebuffer penalty), the stalls cost at least p × Σ s_j, and the
            // terminal value −weight × max(target − final, 0) − p × final is at most −p × max(target, segment). So
            // the rest is worth at most
            //     Σ over its steps of (mbps − |Δ mbps| − p × download) + p × (b + r × segment − max(target, segment))
            // (the pessimistic scenario only subtracts), and the sum's best over all level sequences depends only
            // on the level at `depth`: a small dynamic programme over the levels, done once per decision for each
            // of two prices (the best price depends on the buffer: a plan with buffer to spare is bounded best by a
            // low one; 0.4 and 1 × the largest cut the most on the shared traces, more prices cost more than they
            // cut). The largest price is the terminal weight, capped at half the rebuffer penalty so that a
            // stall always costs enough to cover its own rounding. The programme finds the best switch with two
            // running maxima, which needs a ladder whose bitrates ascend (else there is no reserve bound).
            reservePrice = terminalTarget > 0 ? max(min(terminalWeight, rebufferPenalty / 2), 0) : 0
            hasReserve = reservePrice > 0 && ascending && steps > 1
            prices = reservePrice * SIMD2(0.4, 1)
            self.restValues = restValues
            if hasReserve { fillRestValues() }
        }

        /// Fills `restValues` (see `init`) and `restScale`. Each table holds the best priced rest plus its
        /// constant terms, price × (r × segment − max(target, segment)) with r steps after the depth; those terms
        /// grow by price × segment a depth back, so the programme carries them along: backwards from the last
        /// depth (no rest: only the constant), the rest after `level` at `depth` is the best over the next level m
        /// of gain(m) − |mbps[m] − mbps[level]|, gain(m) = mbps[m] − price × (download − segment) + the table at m.
        /// With ascending bitrates that is (gain(m) + mbps[m]) − mbps[level] for m up to `level` and
        /// (gain(m) − mbps[m]) + mbps[level] from it: a running maximum from each end.
        mutating func fillRestValues() {
            let lowest = allowed.lowerBound
            let highest = allowed.upperBound
            let target = max(terminalTarget, segmentSeconds)
            restScale = 1 + Double(steps) * (2 * topGain + (rebufferPenalty + pessimisticPenalty + reservePrice) * longestDownload)
                + reservePrice * (capSeconds + Double(steps) * segmentSeconds + target)
            let gains = restValues + steps &* levels
            var depth = steps &- 1
            let lastRow = restValues + depth &* levels
            for level in lowest...highest { lastRow[level] = -prices * target }
            while depth > 0 {
                depth &-= 1
                let next = downloads + (depth &+ 1) &* levels
                let nextRest = restValues + (depth &+ 1) &* levels
                let rest = restValues + depth &* levels
                // (`replacing(with:where:)` with `.>`: a running maximum, one `maxpd` for both prices.)
                var below = SIMD2<Double>(repeating: -.infinity)
                var level = lowest
                while level <= highest {
                    let gain = mbps[level] - prices * (next[level] - segmentSeconds) + nextRest[level]
                    gains[level] = gain
                    let candidate = gain + mbps[level]
                    below = below.replacing(with: candidate, where: candidate .> below)
                    rest[level] = below - mbps[level]
                    level &+= 1
                }
                var above = SIMD2<Double>(repeating: -.infinity)
                level = highest
                while level >= lowest {
                    let candidate = gains[level] - mbps[level]
                    above = above.replacing(with: candidate, where: candidate .> above)
                    let fromAbove = above + mbps[level]
                    rest[level] = rest[level].replacing(with: fromAbove, where: fromAbove .> rest[level])
                    level &-= 1
                }
            }
        }

        /// Plays the plan that holds the previous level throughout and makes it the best plan so far; true when
        /// no other first level can then beat it (each cut by the bounds of the first step, as `playLevels` cuts),
        /// so its first level is the answer whatever else its own subtree holds: only the first level of the best
        /// plan is asked for, and the rest of that subtree could only find plans that also start with it. Else the
        /// search runs as usual, from this plan as its best so far (a real plan, so its answer is unchanged). The
        /// search would try this plan first anyway (nearest the previous level first); this skips the siblings
        /// it would weigh at every depth below it when the first step alone settles the answer.
        mutating func holdingWins() -> Bool {
            let held = startLevel
            // Without the reserve bound the first step's bound alone seldom settles it: not worth the plan.
            guard hasReserve, steps > 1, held >= allowed.lowerBound, held <= allowed.upperBound else { return false }
            var value = 0.0
            var buffer = startBuffer
            var worse = startBuffer
            for depth in 0..<steps {
                (value, buffer, worse) = step(
                    row: downloads + depth &* levels, slowRow: slowDownloads + depth &* levels, level: held,
                    previous: held, start: clamped(buffer), worseStart: clamped(worse), reward: value)
            }
            finish(value: value, buffer: buffer, first: held)
            let start = clamped(startBuffer)
            let worseStart = clamped(startBuffer)
            let laterGain = Double(steps &- 2) * topGain + 1e-9
            for level in allowed where level != held {
                let value = stepValue(
                    row: downloads, slowRow: slowDownloads, level: level, previous: held, start: start,
                    worseStart: worseStart, reward: 0, switches: true)
                let bound = value + (laterGain + mbps[level])
                if bound < best || (bound == best && level >= bestFirst) { continue }
                let buffer = positivePart(start - downloads[level]) + segmentSeconds
                let margin = value + 1e-9 * (restScale + abs(value) + reservePrice * buffer)
                let reserve = lesser(margin + restValues[level] + prices * buffer)
                if reserve < best || (reserve == best && level >= bestFirst) { continue }
                return false
            }
            return true
        }

        /// True when a partial plan at this cell already seen is at least as good in buffer, value and first
        /// level; otherwise remembers this one.
        @inline(__always)
        mutating func isDominated(cell: Int, buffer: Double, worse: Double, value: Double, first: Int) -> Bool {
            let count = seenCount[cell]
            let base = seen + cell &* Self.seenPerCell
            for i in 0..<min(count, Self.seenPerCell) {
                let other = base[i]
                if other.buffer >= buffer && other.worse >= worse && other.value >= value && other.first <= first {
                    return true
                }
            }
            base[count & (Self.seenPerCell - 1)] = Seen(buffer: buffer, worse: worse, value: value, first: first)
            seenCount[cell] = count &+ 1
            return false
        }

        /// Plays every allowed level at `depth` after `previous` (−1 = none), from the buffers `buffer` and
        /// `worse` and the QoE `reward` so far: a whole plan at the last step, else a partial plan that is cut
        /// (bound, dominance) or extended. The order of the levels is nearest `previous` first; at the last step
        /// it does not matter (`finish` keeps the best value and, among equals, the lowest first level).
        /// `first` is the plan's first level, or −1 at depth 0 (each level is then its own first).
        mutating func play(depth: Int, previous: Int, buffer: Double, worse: Double, reward: Double, first: Int) {
            if depth > 0 {
                extend(depth: depth, previous: previous, buffer: buffer, worse: worse, reward: reward, first: first)
            } else {
                playLevels(
                    depth: depth, previous: previous, buffer: buffer, worse: worse, reward: reward, first: first,
                    root: true)
            }
        }

        /// `play` below the first step (depth > 0): a previous level and a first level are known, and the last
        /// step is `finishLast`'s, so the loop has none of the first step's cases.
        @inline(never)
        mutating func extend(depth: Int, previous: Int, buffer: Double, worse: Double, reward: Double, first: Int) {
            if depth &+ 1 == steps {
                finishLast(
                    previous: previous, start: clamped(buffer), worseStart: clamped(worse), reward: reward,
                    first: first)
                return
            }
            playLevels(
                depth: depth, previous: previous, buffer: buffer, worse: worse, reward: reward, first: first,
                root: false)
        }

        /// The loop of `play` over the levels at `depth`; `root` (depth 0) is a constant where it is inlined.
        @inline(__always)
        mutating func playLevels(
            depth: Int, previous: Int, buffer: Double, worse: Double, reward: Double, first: Int, root: Bool
        ) {
            let start = clamped(buffer)
            let worseStart = clamped(worse)
            let last = root && depth + 1 == steps
            // The rest after this step earns at most the top bitrate per step but the next, which earns at most
            // this step's (a step to l earns mbps[l] − |mbps[l] − mbps[level]| ≤ mbps[level]).
            // With the first bound's margin of 1e-9 already added (far above any rounding of these sums).
            let laterGain = Double(steps &- depth &- 2) * topGain + 1e-9
            // (At depth 0 the previous level may lie outside the allowed range, or be none: start from the nearest end.)
            let center = min(max(previous, allowed.lowerBound), allowed.upperBound)
            let order = nearestFirst + center &* levels
            let row = downloads + depth &* levels
            let slowRow = slowDownloads + depth &* levels
            // Below the first step, the first bound from the switch gains: the same sum in another order (and its
            // margin), computed before the step's value, which only a child that passes it needs.
            let rewardLater = reward + laterGain
            let gains = switchGains + (root ? 0 : previous &* levels)
            for k in 0..<allowedCount {
                let level = order[k]
                if !root {
                    let bound = rewardLater + gains[level] - rebufferPenalty * positivePart(row[level] - start)
                        - pessimisticPenalty * positivePart(slowRow[level] - worseStart)
                    if bound < best || (bound == best && first >= bestFirst) { continue }
                }
                // The step's value first, its buffers only for a child that is not cut by the first bound.
                let value = stepValue(
                    row: row, slowRow: slowRow, level: level, previous: previous, start: start, worseStart: worseStart,
                    reward: reward, switches: !root || previous >= 0)
                let first = root ? level : first
                if last {
                    finish(value: value, buffer: positivePart(start - row[level]) + segmentSeconds, first: first)
                    continue
                }
                // Cut when even the best imaginable rest cannot beat the best plan (stalls and the terminal value
                // only subtract; the margin keeps rounding from ever cutting a plan that would win; a tie only
                // wins with a lower first level).
                if root {
                    let bound = value + (laterGain + mbps[level])
                    if bound < best || (bound == best && first >= bestFirst) { continue }
                }
                let (buffer, worse) = buffersAfter(
                    row: row, slowRow: slowRow, level: level, start: start, worseStart: worseStart)
                if hasReserve {
                    // The reserve bound at its best price (see `init`), with a margin of 1e-9 of its terms' magnitude.
                    let margin = value + 1e-9 * (restScale + abs(value) + reservePrice * buffer)
                    let bound = lesser(margin + restValues[depth &* levels &+ level] + prices * buffer)
                    if bound < best || (bound == best && first >= bestFirst) { continue }
                }
                if depth &+ 2 == steps {
                    // The next step is the last: no partial plan to compare (dominance rarely cuts here), no call.
                    finishLast(
                        previous: level, start: clamped(buffer), worseStart: clamped(worse), reward: value,
                        first: first)
                    continue
                }
                if !root
                    && isDominated(cell: depth &* levels &+ level, buffer: buffer, worse: worse, value: value, first: first)
                {
                    continue
                }
                extend(depth: depth &+ 1, previous: level, buffer: buffer, worse: worse, reward: value, first: first)
            }
        }

        /// The last step after `previous` at depth > 0: every level here completes a plan with the same first
        /// level, so only the best value among them matters: `finish` of their maximum keeps the same best value
        /// and first level as finishing each in turn (a later one can then only win by a strictly higher value).
        /// The values are computed two levels at a time, with no branch (the outcome of a branch per level here
        /// is hard to predict); a level may be computed twice, which does not change the maximum. Each lane is
        /// `lastValue`'s arithmetic, operation for operation, so the values are the same doubles.
        mutating func finishLast(previous: Int, start: Double, worseStart: Double, reward: Double, first: Int) {
            let depth = steps &- 1
            let row = downloads + depth &* levels
            let slowRow = slowDownloads + depth &* levels
            let lowest = allowed.lowerBound
            let highest = allowed.upperBound
            guard lowest < highest else {
                finish(
                    value: lastValue(
                        row: row, slowRow: slowRow, level: lowest, previous: previous, start: start,
                        worseStart: worseStart, reward: reward),
                    first: first)
                return
            }
            let starts = SIMD2(repeating: start)
            let worseStarts = SIMD2(repeating: worseStart)
            let rewards = SIMD2(repeating: reward)
            let previousMbps = SIMD2(repeating: mbps[previous])
            let target = SIMD2(repeating: terminalTarget)
            var most = SIMD2(repeating: -Double.infinity)
            var level = lowest
            while true {
                // Levels `pair` and `pair + 1` (the last pair overlaps the one before when the count is odd).
                let pair = min(level, highest &- 1)
                let download = Self.pair(row + pair)
                let slow = Self.pair(slowRow + pair)
                let bitrate = Self.pair(mbps + pair)
                var value = rewards + bitrate - rebufferPenalty * positivePart(download - starts)
                let gap = bitrate - previousMbps
                value -= SIMD2(abs(gap[0]), abs(gap[1]))
                value -= pessimisticPenalty * positivePart(slow - worseStarts)
                let buffer = positivePart(starts - download) + segmentSeconds
                value = value.replacing(with: value - terminalWeight * (target - buffer), where: buffer .< target)
                most = most.replacing(with: value, where: value .> most)
                level &+= 2
                if level > highest { break }
            }
            finish(value: max(most[0], most[1]), first: first)
        }

        /// The two doubles at `pointer` and the one after it.
        @inline(__always)
        static func pair(_ pointer: UnsafePointer<Double>) -> SIMD2<Double> {
            UnsafeRawPointer(pointer).loadUnaligned(as: SIMD2<Double>.self)
        }

        /// The whole value of a plan whose last step plays `level` after `previous` (the arithmetic of `play` and
        /// `finish`).
        @inline(__always)
        func lastValue(
            row: UnsafePointer<Double>, slowRow: UnsafePointer<Double>, level: Int, previous: Int, start: Double,
            worseStart: Double, reward: Double
        ) -> Double {
            var (value, buffer, _) = step(
                row: row, slowRow: slowRow, level: level, previous: previous, start: start, worseStart: worseStart,
                reward: reward)
            if buffer < terminalTarget { value -= terminalWeight * (terminalTarget - buffer) }
            return value
        }

        /// One step from buffers already clamped under the cap (the arithmetic of `LookaheadPlanner.play`, from
        /// the tables): `level` after `previous` (a level: past the first step) at the depth whose download rows
        /// are `row` and `slowRow`, from `start` and `worseStart` and the QoE `reward` so far; returns the QoE
        /// after the step and both buffers after it.
        @inline(__always)
        func step(
            row: UnsafePointer<Double>, slowRow: UnsafePointer<Double>, level: Int, previous: Int, start: Double,
            worseStart: Double, reward: Double
        ) -> (value: Double, buffer: Double, worse: Double) {
            let value = stepValue(
                row: row, slowRow: slowRow, level: level, previous: previous, start: start, worseStart: worseStart,
                reward: reward, switches: true)
            let (buffer, worse) = buffersAfter(
                row: row, slowRow: slowRow, level: level, start: start, worseStart: worseStart)
            return (value, buffer, worse)
        }

        /// Both buffers after downloading `level` from `start` and `worseStart`: positivePart(start − download) +
        /// segment in each scenario, both lanes at once (the compiler otherwise branches on the second's sign,
        /// which is hard to predict).
        @inline(__always)
        func buffersAfter(
            row: UnsafePointer<Double>, slowRow: UnsafePointer<Double>, level: Int, start: Double, worseStart: Double
        ) -> (buffer: Double, worse: Double) {
            let buffers = positivePart(SIMD2(start, worseStart) - SIMD2(row[level], slowRow[level])) + segmentSeconds
            return (buffers[0], buffers[1])
        }

        /// The QoE after the step of `step(row:slowRow:level:previous:start:worseStart:reward:)`, alone;
        /// `switches` is false only for a first step without a previous level (the switch from `previous` is then
        /// not paid).
        @inline(__always)
        func stepValue(
            row: UnsafePointer<Double>, slowRow: UnsafePointer<Double>, level: Int, previous: Int, start: Double,
            worseStart: Double, reward: Double, switches: Bool
        ) -> Double {
            let rebuffer = positivePart(row[level] - start)
            let worseRebuffer = positivePart(slowRow[level] - worseStart)
            var value = reward + mbps[level] - rebufferPenalty * rebuffer
            if switches { value -= abs(mbps[level] - mbps[previous]) }
            value -= pessimisticPenalty * worseRebuffer
            return value
        }

        /// max(x, 0) as one instruction (`maxsd`): equal to it for every x that is not NaN (−0 gives +0 in both),
        /// and the downloads and buffers here never are.
        @inline(__always)
        func positivePart(_ x: Double) -> Double { x > 0 ? x : 0 }

        /// The lesser lane: `x.min()` (`x[1] < x[0] ? x[1] : x[0]`), without the test for NaN it adds (the bounds
        /// never are).
        @inline(__always)
        func lesser(_ x: SIMD2<Double>) -> Double { x[1] < x[0] ? x[1] : x[0] }

        /// `positivePart` of each lane (one `maxpd`).
        @inline(__always)
        func positivePart(_ x: SIMD2<Double>) -> SIMD2<Double> { x.replacing(with: 0, where: .!(x .> 0)) }

        /// A buffer before a request: idle until one more segment fits under the cap.
        @inline(__always)
        func clamped(_ buffer: Double) -> Double {
            buffer + segmentSeconds > capSeconds ? capSeconds - segmentSeconds : buffer
        }

        /// A whole plan with its terminal value: keep it if it is the best so far.
        @inline(__always)
        mutating func finish(value: Double, first: Int) {
            if value > best || (value == best && first < bestFirst) {
                best = value
                bestFirst = first
            }
        }

        /// A whole plan: the terminal value, then keep it if it is the best so far.
        @inline(__always)
        mutating func finish(value: Double, buffer: Double, first: Int) {
            var value = value
            if buffer < terminalTarget { value -= terminalWeight * (terminalTarget - buffer) }
            finish(value: value, first: first)
        }
    }
}

