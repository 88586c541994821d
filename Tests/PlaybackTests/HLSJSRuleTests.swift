import Testing

@testable import Playback

/// The `hlsjs` rule (a model of hls.js 1.6's `AbrController`) on scripted inputs, and its estimator against
/// values computed by hand.
@Suite struct HLSJSRuleTests {
    /// The Pensieve ladder, kbit/s.
    static let pensieve = ladder([300, 750, 1200, 1850, 2850, 4300])

    static func ladder(_ kilobits: [Int]) -> [VariantInfo] {
        kilobits.enumerated().map { VariantInfo(index: $0.offset, bandwidthBitsPerSecond: $0.element * 1000) }
    }

    static func input(
        _ variants: [VariantInfo] = pensieve, buffer: Double, firstListed: Int = 0, segment: Int = 1
    ) -> SelectionInput {
        var input = SelectionInput(
            variants: variants, segmentIndex: segment, segmentDurationSeconds: 4, bufferSeconds: buffer,
            maxBufferSeconds: 30)
        input.firstListedVariantIndex = firstListed
        return input
    }

    /// A rule that started at `variant` (listed first) and measured one 4 s segment of it at `bitsPerSecond`
    /// (no time to first byte, so the estimate is exactly that rate).
    static func rule(after variant: Int, at bitsPerSecond: Double, _ variants: [VariantInfo] = pensieve)
        -> HLSJSRule
    {
        var rule = HLSJSRule()
        let allowed = 0...(variants.count - 1)
        _ = rule.choose(input(variants, buffer: 0, firstListed: variant, segment: 0), allowed: allowed)
        rule.segmentLoaded(
            LoadProgress(
                variantIndex: variant, segmentIndex: 0, segmentDurationSeconds: 4,
                bytesLoaded: Int(bitsPerSecond * 4 / 8), elapsedSeconds: 4, timeToFirstByteSeconds: 0))
        return rule
    }

    // MARK: - Decisions

    @Test(arguments: [0, 2, 3, 5])
    func startsAtTheFirstListedVariant(first: Int) {
        var rule = HLSJSRule()
        let selection = rule.choose(Self.input(buffer: 0, firstListed: first, segment: 0), allowed: 0...5)
        #expect(selection.variantIndex == first)
        // The start is kept until a segment arrives.
        #expect(
            rule.choose(Self.input(buffer: 0, firstListed: first, segment: 0), allowed: 0...5).variantIndex == first)
    }

    @Test func theStartEstimateIsCappedAtFiveMegabits() {
        var rule = HLSJSRule()
        let ladder = Self.ladder([300, 2000, 4800, 8000])
        #expect(
            rule.choose(Self.input(ladder, buffer: 0, firstListed: 3, segment: 0), allowed: 0...3).variantIndex == 2)
    }

    @Test func anUpSwitchNeedsSeventyPercent() {
        // From 750 kbit/s to 1200 kbit/s needs 0.7 x estimate >= 1200 kbit/s, i.e. 1714 kbit/s.
        var below = Self.rule(after: 1, at: 1_700_000)
        #expect(below.choose(Self.input(buffer: 20), allowed: 0...5).variantIndex == 1)
        var above = Self.rule(after: 1, at: 1_720_000)
        #expect(above.choose(Self.input(buffer: 20), allowed: 0...5).variantIndex == 2)
    }

    @Test func holdingALevelNeedsNinetyFivePercent() {
        // 1850 kbit/s is kept while 0.95 x estimate >= 1850 kbit/s, i.e. 1947 kbit/s.
        var holds = Self.rule(after: 3, at: 1_950_000)
        #expect(holds.choose(Self.input(buffer: 20), allowed: 0...5).variantIndex == 3)
        var drops = Self.rule(after: 3, at: 1_940_000)
        #expect(drops.choose(Self.input(buffer: 20), allowed: 0...5).variantIndex == 2)
    }

    @Test func aLevelWhoseSegmentWouldArriveAfterTheBufferRunsOutIsNotChosen() {
        // 0.95 x 2 Mbit/s covers 1850 kbit/s, but its segment takes 3.9 s: with 3 s buffered, 1200 kbit/s.
        var rule = Self.rule(after: 3, at: 2_000_000)
        #expect(rule.choose(Self.input(buffer: 3), allowed: 0...5).variantIndex == 2)
    }

    @Test func withTwoSegmentsBufferedTheAverageBandwidthCounts() {
        // 2000 kbit/s peak, 1800 kbit/s average: 0.95 x 1950 kbit/s covers the average only.
        var variants = Self.pensieve
        variants[3] = VariantInfo(index: 3, bandwidthBitsPerSecond: 2_000_000, averageBandwidthBitsPerSecond: 1_800_000)
        var full = Self.rule(after: 3, at: 1_950_000, variants)
        #expect(full.choose(Self.input(variants, buffer: 20), allowed: 0...5).variantIndex == 3)
        var thin = Self.rule(after: 3, at: 1_950_000, variants)
        #expect(thin.choose(Self.input(variants, buffer: 6), allowed: 0...5).variantIndex == 2)
    }

    // MARK: - Emergency abandonment

    /// 200, 400 and 1200 kbit/s, then 2400 kbit/s being loaded at 1 Mbit/s: 300 kB after 2.5 s of a 1.2 MB
    /// segment, 7.2 s to go.
    static let steep = ladder([200, 400, 1200, 2400])

    static func slowLoad(elapsed: Double = 2.5, playing: Bool = true) -> LoadProgress {
        LoadProgress(
            variantIndex: 3, segmentIndex: 1, segmentDurationSeconds: 4,
            bytesLoaded: Int((elapsed - 0.1) * 125_000), elapsedSeconds: elapsed, timeToFirstByteSeconds: 0.1,
            mediaIsPlaying: playing)
    }

    @Test func aLoadThatCannotArriveBeforeTheBufferRunsOutIsAbandoned() throws {
        var rule = Self.rule(after: 3, at: 3_000_000, Self.steep)
        // 4.5 s buffered: 400 kbit/s would arrive in 1.8 s, so hls.js gives up on the load and, after an
        // abort, takes the lowest level and starts its estimate over at its BANDWIDTH.
        let answer = rule.checkLoad(Self.input(Self.steep, buffer: 4.5), progress: Self.slowLoad(), allowed: 0...3)
        let emergency = try #require(answer)
        #expect(emergency.variantIndex == 0)
        #expect(rule.estimator.estimateBitsPerSecond == 200_000)
        #expect(rule.choose(Self.input(Self.steep, buffer: 4.5, segment: 1), allowed: 0...3).variantIndex == 0)
    }

    @Test func aLoadIsWatchedOnlyFromHalfItsDuration() {
        var rule = Self.rule(after: 3, at: 3_000_000, Self.steep)
        let early = rule.checkLoad(
            Self.input(Self.steep, buffer: 4.5), progress: Self.slowLoad(elapsed: 1.9), allowed: 0...3)
        #expect(early == nil)
    }

    @Test func aLoadThatArrivesInTimeGoesOn() {
        var rule = Self.rule(after: 3, at: 3_000_000, Self.steep)
        #expect(rule.checkLoad(Self.input(Self.steep, buffer: 8), progress: Self.slowLoad(), allowed: 0...3) == nil)
    }

    @Test func aPausedPlayerAbandonsNothing() {
        var rule = Self.rule(after: 3, at: 3_000_000, Self.steep)
        let paused = rule.checkLoad(
            Self.input(Self.steep, buffer: 4.5), progress: Self.slowLoad(playing: false), allowed: 0...3)
        #expect(paused == nil)
    }

    @Test func aCloseCallIsAbandonedAfterTheLowerLoadTime() throws {
        // 2400 kbit/s loading at 1.52 Mbit/s with 4.25 s buffered: 4.3 s to go, less than twice the 4 s of
        // 1500 kbit/s, so the next segment is forced down at once and the abort waits those 4 s.
        let ladder = Self.ladder([200, 400, 1500, 2400])
        var rule = Self.rule(after: 3, at: 3_000_000, ladder)
        let input = Self.input(ladder, buffer: 4.25)
        func load(_ elapsed: Double) -> LoadProgress {
            LoadProgress(
                variantIndex: 3, segmentIndex: 1, segmentDurationSeconds: 4,
                bytesLoaded: Int((elapsed - 0.1) * 190_000), elapsedSeconds: elapsed, timeToFirstByteSeconds: 0.1)
        }
        #expect(rule.checkLoad(input, progress: load(2.1), allowed: 0...3) == nil)
        #expect(rule.forcedVariant == 2)
        #expect(rule.checkLoad(input, progress: load(4.1), allowed: 0...3) == nil)
        let answer = rule.checkLoad(input, progress: load(6.1), allowed: 0...3)
        let abandoned = try #require(answer)
        #expect(abandoned.variantIndex == 0)
    }

    // MARK: - Through the machine

    @Test func theMachineAbandonsTheLoadAndLoadsTheEmergencyLevel() throws {
        let kilobits = [200, 400, 4000]
        var stream = StreamDescription(
            variants: kilobits.enumerated().map { index, rate in
                StreamDescription.Variant(
                    info: VariantInfo(index: index, bandwidthBitsPerSecond: rate * 1000), uri: "v\(index)/index.m3u8",
                    timeline: MediaTimeline(
                        durations: Array(repeating: 4, count: 10), targetDurationSeconds: 4,
                        sizesBytes: Array(repeating: rate * 500, count: 10), uriPrefix: "v\(index)/s"))
            })
        stream.firstListedIndex = 2
        var configuration = PlaybackConfiguration()
        configuration.startupBufferSeconds = 8
        var machine = PlaybackMachine(configuration: configuration, selector: QualitySelector(rule: .hlsjs))
        _ = machine.send(.load(url: Fixtures.masterURL))
        let start = machine.send(.playlistLoaded(id(1), .multivariant(stream)))
        let first = try #require(machine.segmentInFlight)
        #expect(first.variantIndex == 2)
        #expect(start.contains(.reportLoadProgress(first.id, everySeconds: 0.1)))
        // Two segments at 8 Mbit/s fill the start-up buffer; the third loads at 1 Mbit/s.
        let fast = PlaybackMachine.SegmentDownload(bytes: 2_000_000, downloadSeconds: 2, timeToFirstByteSeconds: 0.05)
        _ = machine.send(.segmentLoaded(first.id, fast))
        _ = machine.send(.segmentLoaded(try #require(machine.segmentInFlight).id, fast))
        let third = try #require(machine.segmentInFlight)
        #expect(third.variantIndex == 2 && third.mediaSequence == 2)
        _ = machine.send(.tick(elapsedSeconds: 2.5))
        let progress = PlaybackMachine.SegmentProgress(
            bytesLoaded: 306_250, elapsedSeconds: 2.5, timeToFirstByteSeconds: 0.05)
        let effects = machine.send(.segmentProgress(third.id, progress))
        #expect(effects.first == .cancelLoad(third.id))
        #expect(
            effects.contains {
                if case .report(.segmentAbandoned(2, 2, 306_250, _)) = $0 { return true }
                return false
            })
        #expect(effects.contains(switched(from: 2, to: 0, at: 8, .emergency)))
        let replacement = try #require(machine.segmentInFlight)
        #expect(replacement.variantIndex == 0 && replacement.mediaSequence == 2)
    }

    // MARK: - The estimator

    @Test func theEstimatorIsTheSmallerOfTwoSecondWeightedAverages() {
        var estimator = HLSJSBandwidthEstimator()
        #expect(!estimator.canEstimate)
        #expect(estimator.estimateBitsPerSecond == 500_000)
        #expect(estimator.timeToFirstByteSeconds == 0.1)
        estimator.sample(seconds: 2, bytes: 250_000)  // 1 Mbit/s
        #expect(abs(estimator.estimateBitsPerSecond - 1_000_000) < 1e-6)
        estimator.sample(seconds: 1, bytes: 375_000)  // 3 Mbit/s
        // Fast (half-life 3 s): 1,825,197.90; slow (9 s): 1,718,618.29, computed by hand:
        // raw = v·(1 − a^w) + a^w·raw, estimate = raw / (1 − a^Σw), a = 0.5^(1/half-life).
        #expect(abs(estimator.estimateBitsPerSecond - 1_718_618.2908735524) < 1e-3)
    }

    @Test func theEstimatorCountsAtLeastFiftyMilliseconds() {
        var estimator = HLSJSBandwidthEstimator()
        estimator.sample(seconds: 0.01, bytes: 1000)
        #expect(abs(estimator.estimateBitsPerSecond - 160_000) < 1e-6)
    }

    @Test func theTimeToFirstByteIsWeightedByABellCurve() {
        var estimator = HLSJSBandwidthEstimator()
        estimator.sampleTimeToFirstByte(seconds: 0.2)
        #expect(abs(estimator.timeToFirstByteSeconds - 0.2) < 1e-12)
        estimator.sampleTimeToFirstByte(seconds: 1)
        // Weights √2·e^(−0.02) and √2·e^(−0.5), half-life 9: 522.2266 ms by hand.
        #expect(abs(estimator.timeToFirstByteSeconds - 0.5222265724119208) < 1e-9)
        estimator.reset(defaultEstimateBitsPerSecond: 400_000)
        #expect(estimator.timeToFirstByteSeconds == 0.1)
        #expect(estimator.estimateBitsPerSecond == 400_000)
    }
}
