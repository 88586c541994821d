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
    func mbps(_ level: Int) -> Double { Double(variants[level].nominalBitsPerSecond) / 1_000_000 }

    /// The first level of the best plan over `steps` segments.
    ///
    /// Levels nearest the previous one are visited first, so the first plan tried holds the previous level and
    /// good plans are found early (starting the bound at the best plan that holds one level, or at the last
    /// decision's plan shifted by a segment, cost more than they cut). Cuts, all exact:
    /// - bound: a branch whose best imaginable rest cannot beat the best plan is not explored (two bounds: the
    ///   top bitrate at every step; and the reserve bound, see `Search.init`);
    /// - dominance: a partial plan that reaches the same level at the same depth as one already seen, with no
    ///   more buffer, no more value and no lower first level, is not explored (every continuation of it is
    ///   worth at most the same continuation of the other: the buffer only helps, and each step's arithmetic is
    ///   monotone in the buffer and the value, also in floating point).
    /// The answer is still the lowest first level among the best plans (what visiting every sequence in order
    /// and keeping the first best gives: `referenceFirstLevel`): a tie with a lower first level wins and is
    /// never cut.
    func bestFirstLevel(steps: Int) -> Int {
        var scratch = Scratch()
        return bestFirstLevel(steps: steps, scratch: &scratch)
    }

    /// `bestFirstLevel(steps:)` in memory the caller keeps from one decision to the next (a rule's `Scratch`), so
    /// that a decision allocates nothing.
    func bestFirstLevel(steps: Int, scratch: inout Scratch) -> Int {
        let cells = steps * levels
        let slowRate = pessimisticRate
        scratch.prepare(cells: cells * Search.seenPerCell, allowed: allowed, levels: levels)
        let nearestFirst = scratch.nearestFirst
        // Doubles: both scenarios' download tables (2 × cells), the reserve bound's per-step tables
        // (`Search.reserveTableCount` × (steps + 1)), the levels' Mbps.
        let reserveDoubles = Search.reserveTableCount * (steps + 1)
        return withUnsafeTemporaryAllocation(of: Double.self, capacity: 2 * cells + reserveDoubles + levels) { doubles in
            let downloads = doubles.baseAddress!
            // Download time of every (depth, level) in both scenarios: the expressions `referenceFirstLevel`
            // evaluates.
            upcomingBytes.withUnsafeBufferPointer { rows in
                for depth in 0..<steps {
                    let fast = downloads + depth * levels
                    let slow = fast + cells
                    if depth < rows.count && rows[depth].count >= levels {
                        // The sizes are known: read the row in place (`bits(depth:level:)` for each cell).
                        rows[depth].withUnsafeBufferPointer { row in
                            for level in 0..<levels {
                                let bits = Double(row[level]) * 8
                                fast[level] = latencySeconds + bits / bitsPerSecond
                                slow[level] = latencySeconds + bits / slowRate
                            }
                        }
                    } else {
                        for level in 0..<levels {
                            let bits = bits(depth: depth, level: level)
                            fast[level] = latencySeconds + bits / bitsPerSecond
                            slow[level] = latencySeconds + bits / slowRate
                        }
                    }
                }
            }
            let mbps = downloads + 2 * cells + reserveDoubles
            for level in 0..<levels { mbps[level] = self.mbps(level) }
            scratch.prepareSwitchGains(mbps: UnsafeBufferPointer(start: mbps, count: levels))
            let switchGains = scratch.switchGains
            let ascending = scratch.ladderAscending
            return withUnsafeTemporaryAllocation(of: Int.self, capacity: cells) { counts in
                counts.initialize(repeating: 0)
                return scratch.seen.withUnsafeMutableBufferPointer { seen in
                    nearestFirst.withUnsafeBufferPointer { nearestFirst in
                        switchGains.withUnsafeBufferPointer { switchGains in
                            var search = Search(
                                planner: self, downloads: UnsafePointer(downloads), mbps: UnsafePointer(mbps),
                                ascending: ascending,
                                seen: seen.baseAddress!, seenCount: counts.baseAddress!,
                                nearestFirst: nearestFirst.baseAddress!, switchGains: switchGains.baseAddress!,
                                reserveTables: downloads + 2 * cells, steps: steps, bestFirst: allowed.lowerBound)
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

    /// Memory the search reuses between decisions: the partial plans seen per (depth, level), and the levels
    /// nearest each level (computed again only when the allowed range changes).
    struct Scratch {
        var seen: [Seen] = []
        var nearestFirst: [Int] = []
        var nearestFor: (allowed: ClosedRange<Int>, levels: Int)?
        /// switchGains[previous * levels + level]: 2 · mbps[level] − |mbps[level] − mbps[previous]|, the most a
        /// step to `level` after `previous` and the step after it can earn without stalls (the first bound's
        /// terms); made again only when the ladder's Mbps change (`switchGainsMbps`).
        var switchGains: [Double] = []
        var switchGainsMbps: [Double] = []
        /// True when the ladder's Mbps never fall with the level (made with `switchGains`): then so do those of
        /// any allowed range, which `Search.finishLast` relies on to stop early.
        var ladderAscending = true

        init() {}

        mutating func prepareSwitchGains(mbps: UnsafeBufferPointer<Double>) {
            let levels = mbps.count
            if switchGainsMbps.count == levels {
                // A plain loop: the generic `elementsEqual` costs more than the search saves with the table.
                let unchanged = switchGainsMbps.withUnsafeBufferPointer { kept in
                    var level = 0
                    while level < levels && kept[level] == mbps[level] { level &+= 1 }
                    return level == levels
                }
                if unchanged { return }
            }
            switchGainsMbps = Array(mbps)
            ladderAscending = !(1..<max(levels, 1)).contains { mbps[$0 - 1] > mbps[$0] }
            switchGains = Array(repeating: 0, count: levels * levels)
            for previous in 0..<levels {
                for level in 0..<levels {
                    switchGains[previous * levels + level] = 2 * mbps[level] - abs(mbps[level] - mbps[previous])
                }
            }
        }

        mutating func prepare(cells: Int, allowed: ClosedRange<Int>, levels: Int) {
            if seen.count < cells {
                seen = Array(repeating: Seen(buffer: 0, worse: 0, value: 0, first: 0), count: cells)
            }
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
        /// ones (false for a ladder out of order, even if its allowed part is in order: `finishLast` then only
        /// stops later).
        let ascending: Bool
        /// The reserve bound's price of a second of download (0: no reserve bound; see `init`).
        let reservePrice: Double
        /// stepGain[depth]: max over allowed levels of mbps − reservePrice × download (the predicted rate's).
        let stepGain: UnsafeMutablePointer<Double>
        /// leastDownload[depth]: the shortest download at that depth among the allowed levels.
        let leastDownload: UnsafeMutablePointer<Double>
        /// gainAfter[depth]: stepGain summed from that depth to the last; gainAfter[steps] = 0.
        let gainAfter: UnsafeMutablePointer<Double>
        /// The reserve bound's terms for the rest of a plan after a step at `depth` (all but the last), the same
        /// for every node there: the next step's least download priced, the gain after the next step with the
        /// buffer the rest adds, and the magnitude the bound's margin is a fraction of.
        let nextLeastPriced: UnsafeMutablePointer<Double>
        let afterNextGain: UnsafeMutablePointer<Double>
        let reserveScale: UnsafeMutablePointer<Double>
        /// Tables of `steps + 1` doubles the reserve bound needs.
        static let reserveTableCount = 6
        var best: Double
        var bestFirst: Int

        init(
            planner: LookaheadPlanner, downloads: UnsafePointer<Double>, mbps: UnsafePointer<Double>, ascending: Bool,
            seen: UnsafeMutablePointer<Seen>, seenCount: UnsafeMutablePointer<Int>,
            nearestFirst: UnsafePointer<Int>, switchGains: UnsafePointer<Double>,
            reserveTables: UnsafeMutablePointer<Double>, steps: Int, bestFirst: Int
        ) {
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
            // The reserve bound (exact, a Lagrangian relaxation of the terminal value): with `final` the buffer a
            // plan ends with, the terminal value −weight × max(target − final, 0) is at most
            // price × (final − target) for any price in [0, weight]; and the buffer after the rest of a plan,
            // from b after this step, is at most b + rest × segment − Σ download + Σ stall (the cap only removes
            // buffer). The price of a stall second (rebuffer penalty − price > 0) keeps stalls a cost, so the
            // rest is worth at most Σ over its steps of (mbps − price × download) + price × (b + rest × segment
            // − target): each step's best level taken alone, and the next step at most the current level's
            // bitrate (the switch). The price is the terminal weight, capped at half the rebuffer penalty so that
            // a stall always costs enough to cover its own rounding.
            reservePrice = terminalTarget > 0 ? max(min(terminalWeight, rebufferPenalty / 2), 0) : 0
            stepGain = reserveTables
            leastDownload = reserveTables + (steps + 1)
            gainAfter = reserveTables + 2 * (steps + 1)
            nextLeastPriced = reserveTables + 3 * (steps + 1)
            afterNextGain = reserveTables + 4 * (steps + 1)
            reserveScale = reserveTables + 5 * (steps + 1)
            gainAfter[steps] = 0
            if reservePrice > 0 {
                // One pass from the last depth back, over the allowed part of each download row (no overflow
                // checks: the indices are within the tables); each depth's terms for the rest after it need only
                // the depths below it.
                let rates = mbps + allowed.lowerBound
                var depth = steps
                while depth > 0 {
                    depth &-= 1
                    let row = downloads + (depth &* levels &+ allowed.lowerBound)
                    var gain = -Double.infinity
                    var least = Double.infinity
                    for k in 0..<allowedCount {
                        // `max` and `min` as comparisons (one instruction each; the gains are never −0 or NaN).
                        let download = row[k]
                        let candidate = rates[k] - reservePrice * download
                        if candidate > gain { gain = candidate }
                        if download < least { least = download }
                    }
                    stepGain[depth] = gain
                    leastDownload[depth] = least
                    gainAfter[depth] = gainAfter[depth &+ 1] + gain
                    guard depth &+ 1 < steps else { continue }
                    let rest = Double(steps &- depth &- 1)
                    let nextLeast = reservePrice * leastDownload[depth &+ 1]
                    nextLeastPriced[depth] = nextLeast
                    afterNextGain[depth] =
                        gainAfter[depth &+ 2] + reservePrice * (rest * segmentSeconds - terminalTarget)
                    reserveScale[depth] = 1 + abs(stepGain[depth &+ 1]) + nextLeast + abs(gainAfter[depth &+ 2])
                        + 2 * rest * topGain + reservePrice * (rest * segmentSeconds + terminalTarget)
                }
            }
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
            // The reserve bound's terms for the rest after this step (see `init`), and a margin of 1e-9 of their
            // magnitudes, far above any rounding.
            // (Read from the tables where a child needs them, not held across the loop's calls.)
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
                let buffer = positivePart(start - row[level]) + segmentSeconds
                let worse = positivePart(worseStart - slowRow[level]) + segmentSeconds
                if reservePrice > 0 {
                    let reserve = value + min(mbps[level] - nextLeastPriced[depth], stepGain[depth &+ 1])
                        + afterNextGain[depth] + reservePrice * buffer
                    let reserveBound = reserve + 1e-9 * (reserveScale[depth] + abs(value) + reservePrice * buffer)
                    if reserveBound < best || (reserveBound == best && first >= bestFirst) { continue }
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
        /// level, so only the best value among them matters, and two exact shortcuts skip levels that cannot beat
        /// the best plan (each with a margin far above any rounding, as the bound's; a tie cannot win, the first
        /// level being the same):
        /// - above `previous`, a level whose downloads (both scenarios) are no shorter earns the same bitrate net of
        ///   the switch, with no less stall and no more buffer: it is worth at most `previous`'s plan, so when that
        ///   one cannot beat the best, they are not played;
        /// - below `previous`, a level earns at most 2 · its bitrate − `previous`'s (no stall, the switch paid),
        ///   which falls with the level: from the first that cannot beat the best, no lower level is played.
        mutating func finishLast(previous: Int, start: Double, worseStart: Double, reward: Double, first: Int) {
            let depth = steps &- 1
            let row = downloads + depth &* levels
            let slowRow = slowDownloads + depth &* levels
            let held = lastValue(
                row: row, slowRow: slowRow, level: previous, previous: previous, start: start, worseStart: worseStart,
                reward: reward)
            finish(value: held, first: first)
            let lowest = allowed.lowerBound
            let highest = allowed.upperBound
            let margin = 1e-9 * (1 + abs(reward) + abs(held) + topGain)
            let heldLoses = held + margin < best
            if previous < highest {
                for level in (previous + 1)...highest {
                    if heldLoses && row[level] >= row[previous] && slowRow[level] >= slowRow[previous] { continue }
                    finish(
                        value: lastValue(
                            row: row, slowRow: slowRow, level: level, previous: previous, start: start,
                            worseStart: worseStart, reward: reward),
                        first: first)
                }
            }
            var level = previous - 1
            while level >= lowest {
                let most = reward + 2 * mbps[level] - mbps[previous]
                if most + 1e-9 * (1 + abs(reward) + abs(most) + topGain) < best {
                    if ascending { break }
                } else {
                    finish(
                        value: lastValue(
                            row: row, slowRow: slowRow, level: level, previous: previous, start: start,
                            worseStart: worseStart, reward: reward),
                        first: first)
                }
                level -= 1
            }
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
            return (value, positivePart(start - row[level]) + segmentSeconds, positivePart(worseStart - slowRow[level]) + segmentSeconds)
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

