import Testing
@testable import Playback

/// The pruned, reordered search of `LookaheadPlanner` against its plain definition (`referenceFirstLevel`: every
/// level sequence in order, keeping the first one with a strictly better QoE). Same arithmetic, so the same first
/// level exactly.
@Suite struct LookaheadPlannerTests {
    struct Random {
        var state: UInt64
        mutating func unit() -> Double {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Double(state >> 11) / Double(1 << 53)
        }
        mutating func int(_ range: ClosedRange<Int>) -> Int {
            range.lowerBound + min(Int(unit() * Double(range.count)), range.count - 1)
        }
    }

    @Test func prunedSearchChoosesExactlyWhatEnumeratingEveryPlanChooses() {
        let bitrates = [300, 750, 1200, 1850, 2850, 4300]
        let variants = bitrates.enumerated().map { VariantInfo(index: $0, bandwidthBitsPerSecond: $1 * 1000) }
        var random = Random(state: 7)
        var firstLevels = Set<Int>()
        // One scratch for every case, as a rule keeps it between decisions (other ranges, other depths).
        var scratch = LookaheadPlanner.Scratch()
        for _ in 0..<4000 {
            let segments = random.int(1...6)
            // Some ladders have sizes that do not grow with the level (VBR).
            let unordered = random.unit() < 0.3
            let sizes = (0..<segments).map { _ in
                let factor = 0.8 + 0.4 * random.unit()
                return bitrates.map { Int(Double($0) * 4000 / 8 * factor * (unordered ? 0.3 + 1.4 * random.unit() : 1)) }
            }
            let low = random.int(0...2)
            let allowed = low...random.int(low...5)
            // Some bandwidths make every level sustainable, some make stalls likely; some ties (cap 8 s, 0 latency).
            let tight = random.unit() < 0.2
            let input = SelectionInput(
                variants: variants, segmentIndex: 0, segmentDurationSeconds: 4, upcomingSegmentBytes: sizes,
                bufferSeconds: tight ? 0 : 60 * random.unit(), maxBufferSeconds: tight ? 8 : 60,
                previousVariantIndex: random.unit() < 0.1 ? nil : random.int(0...5))
            var planner = LookaheadPlanner(
                input: input, allowed: allowed, bitsPerSecond: 200_000 + 6_000_000 * random.unit(),
                latencySeconds: tight ? 0 : 0.2 * random.unit(), rebufferPenalty: 4.3)
            if random.unit() < 0.5 {
                planner.terminalTarget = 30 * random.unit()
                // Mostly below the rebuffer penalty's half (the reserve bound's largest price), sometimes above.
                planner.terminalWeight = random.unit() * (random.unit() < 0.2 ? 6 : 1)
            }
            if random.unit() < 0.5 {
                // Mostly below the planned rate, sometimes above it (then the planned rate's table is the slower).
                planner.pessimisticBitsPerSecond = planner.bitsPerSecond * (0.2 + 1.1 * random.unit())
                planner.pessimisticPenalty = 2 * random.unit()
            }
            let steps = random.int(1...segments)
            let chosen = planner.bestFirstLevel(steps: steps)
            #expect(chosen == planner.referenceFirstLevel(steps: steps))
            #expect(planner.bestFirstLevel(steps: steps, scratch: &scratch) == chosen)
            firstLevels.insert(chosen)
        }
        #expect(firstLevels.count >= 5, "the cases cover most first levels")
    }
    /// On a fast link with buffer to spare, holding the top level is the best plan and is answered without a
    /// search; a pessimistic scenario that would stall there, or another previous level, needs the search. Each
    /// answer is the plain definition's.
    @Test func holdingTheTopLevelOnAFastLinkIsAnsweredWithoutASearch() {
        let bitrates = [300, 750, 1200, 1850, 2850, 4300]
        let variants = bitrates.enumerated().map { VariantInfo(index: $0, bandwidthBitsPerSecond: $1 * 1000) }
        let sizes = (0..<5).map { _ in bitrates.map { $0 * 4000 / 8 } }
        func planner(previous: Int) -> LookaheadPlanner {
            let input = SelectionInput(
                variants: variants, segmentIndex: 0, segmentDurationSeconds: 4, upcomingSegmentBytes: sizes,
                bufferSeconds: 30, maxBufferSeconds: 60, previousVariantIndex: previous)
            var planner = LookaheadPlanner(
                input: input, allowed: 0...5, bitsPerSecond: 20_000_000, latencySeconds: 0.05, rebufferPenalty: 4.3)
            planner.terminalTarget = 20
            planner.terminalWeight = 0.4
            return planner
        }
        let fast = planner(previous: 5)
        #expect(fast.holdingTopIsBest(steps: 5))
        #expect(fast.bestFirstLevel(steps: 5) == 5)
        #expect(fast.referenceFirstLevel(steps: 5) == 5)
        // At 1 Mbit/s the top level's 17.2 s downloads drain 30 s of buffer by the second step.
        var pessimistic = fast
        pessimistic.pessimisticBitsPerSecond = 1_000_000
        pessimistic.pessimisticPenalty = 0.5
        #expect(!pessimistic.holdingTopIsBest(steps: 5))
        #expect(pessimistic.bestFirstLevel(steps: 5) == pessimistic.referenceFirstLevel(steps: 5))
        let climbing = planner(previous: 2)
        #expect(!climbing.holdingTopIsBest(steps: 5))
        #expect(climbing.bestFirstLevel(steps: 5) == climbing.referenceFirstLevel(steps: 5))
    }
}
