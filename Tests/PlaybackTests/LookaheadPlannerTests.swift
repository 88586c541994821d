import FilterzTestSupport
import Testing

@testable import Playback

/// The pruned, reordered search of `LookaheadPlanner` against its plain definition (`referenceFirstLevel`: every
/// level sequence in order, keeping the first one with a strictly better QoE). Same arithmetic, so the same first
/// level exactly.
@Suite struct LookaheadPlannerTests {
    @Test func prunedSearchChoosesExactlyWhatEnumeratingEveryPlanChooses() {
        let bitrates = [300, 750, 1200, 1850, 2850, 4300]
        let variants = bitrates.enumerated().map { VariantInfo(index: $0, bandwidthBitsPerSecond: $1 * 1000) }
        var random = SeededGenerator(seed: 7)
        var firstLevels = Set<Int>()
        // One scratch for every case, as a rule keeps it between decisions (other ranges, other depths).
        var scratch = LookaheadPlanner.Scratch()
        for _ in 0..<4000 {
            let segments = random.nextInt(in: 1...6)
            // Some ladders have sizes that do not grow with the level (VBR).
            let unordered = random.nextUnit() < 0.3
            let sizes = (0..<segments).map { _ in
                let factor = 0.8 + 0.4 * random.nextUnit()
                return bitrates.map {
                    Int(Double($0) * 4000 / 8 * factor * (unordered ? 0.3 + 1.4 * random.nextUnit() : 1))
                }
            }
            let low = random.nextInt(in: 0...2)
            let allowed = low...random.nextInt(in: low...5)
            // Some bandwidths make every level sustainable, some make stalls likely; some ties (cap 8 s, 0 latency).
            let tight = random.nextUnit() < 0.2
            let input = SelectionInput(
                variants: variants, segmentIndex: 0, segmentDurationSeconds: 4, upcomingSegmentBytes: sizes,
                bufferSeconds: tight ? 0 : 60 * random.nextUnit(), maxBufferSeconds: tight ? 8 : 60,
                previousVariantIndex: random.nextUnit() < 0.1 ? nil : random.nextInt(in: 0...5))
            var planner = LookaheadPlanner(
                input: input, allowed: allowed, bitsPerSecond: 200_000 + 6_000_000 * random.nextUnit(),
                latencySeconds: tight ? 0 : 0.2 * random.nextUnit(), rebufferPenalty: 4.3)
            if random.nextUnit() < 0.5 {
                planner.terminalTarget = 30 * random.nextUnit()
                // Mostly below the rebuffer penalty's half (the reserve bound's largest price), sometimes above.
                planner.terminalWeight = random.nextUnit() * (random.nextUnit() < 0.2 ? 6 : 1)
            }
            if random.nextUnit() < 0.5 {
                // Mostly below the planned rate, sometimes above it (then the planned rate's table is the slower).
                planner.pessimisticBitsPerSecond = planner.bitsPerSecond * (0.2 + 1.1 * random.nextUnit())
                planner.pessimisticPenalty = 2 * random.nextUnit()
            }
            let steps = random.nextInt(in: 1...segments)
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
