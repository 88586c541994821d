/// The exact search behind `LookaheadPlanner.bestFirstLevel(steps:)`: the same answer as
/// `referenceFirstLevel(steps:)` (LookaheadPlanner.swift), visiting a small part of the plans.
extension LookaheadPlanner {
    /// `bestFirstLevel(steps:)` in memory the caller keeps from one decision to the next (a rule's `Scratch`), so
    /// that a decision allocates nothing.
    ///
    /// Levels nearest the previous one are visited first, so the first plan tried holds the previous level and
    /// good plans are found early. Two shortcuts answer without the whole search: holding the top level when
    /// that is provably best (`holdingTopIsBest`), and the previous level when its plan alone makes every other
    /// first level lose at the first step (`Search.holdingWins`). Cuts, all exact:
    /// - bound: a branch whose best imaginable rest cannot beat the best plan is not explored (two bounds: the
    ///   top bitrate at every step; and the reserve bound, `LookaheadPlanner+ReserveBound.swift`, which prices
    ///   the buffer a plan spends and finds the best priced rest by dynamic programming over the levels alone);
    /// - dominance: a partial plan that reaches the same level at the same depth as one already seen, with no
    ///   more buffer, no more value and no lower first level, is not explored (every continuation of it is
    ///   worth at most the same continuation of the other: the buffer only helps, and each step's arithmetic is
    ///   monotone in the buffer and the value, also in floating point).
    /// The answer is the lowest first level among the best plans, as `referenceFirstLevel` gives: a tie with a
    /// lower first level wins and is never cut.
    /// Where a comparison's outcome is hard to predict and both outcomes are cheap to compute (the levels of the
    /// last step, `Search.finishLast`; the two buffers after a step, `Search.buffersAfter`), the arithmetic runs
    /// two lanes at a time with no branch (`SIMD2`): lane by lane the same operations, so the same doubles.
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

    /// The depth-first search: the planner's numbers, its tables as pointers (no reference counting in the
    /// hot loop), the partial plans seen per (depth, level), and the best plan so far.
    struct Search {
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
        /// The reserve bound's largest price of a second of download (0: no reserve bound; `reservePrice`).
        let reservePrice: Double
        /// True when the reserve bound cuts (`LookaheadPlanner+ReserveBound.swift`).
        let hasReserve: Bool
        /// The prices the reserve bound tries, all at once: a plan that keeps a lot of buffer is bounded best by a
        /// low price, one that spends it by a high one.
        let prices: SIMD2<Double>
        /// restValues[depth * levels + level]: the reserve bound's best rest at each price after a step to `level`
        /// at `depth` (all but the last), with its constant terms (`fillRestValues`); then a row of room.
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
            // The reserve bound (`LookaheadPlanner+ReserveBound.swift`).
            reservePrice = Self.reservePrice(
                terminalTarget: terminalTarget, terminalWeight: terminalWeight, rebufferPenalty: rebufferPenalty)
            hasReserve = reservePrice > 0 && ascending && steps > 1
            prices = reservePrice * Self.priceFactors
            self.restValues = restValues
            if hasReserve { fillRestValues() }
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
            // Without the reserve bound the first step's bound alone seldom settles it, so the plan is not played.
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
                    let bound =
                        rewardLater + gains[level] - rebufferPenalty * positivePart(row[level] - start)
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
                    // The reserve bound at its best price, with a margin of 1e-9 of its terms' magnitude.
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
                    && isDominated(
                        cell: depth &* levels &+ level, buffer: buffer, worse: worse, value: value, first: first)
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
    }
}
