import FilterzTestSupport
import Testing

@testable import Playback

@Suite struct SelectorTests {
    /// Pensieve's ladder: 300…4300 kbps, 180p…1080p.
    static let ladder: [VariantInfo] = [
        (300, 320, 180), (750, 640, 360), (1200, 768, 432), (1850, 1024, 576), (2850, 1280, 720), (4300, 1920, 1080),
    ].enumerated().map { i, v in
        VariantInfo(index: i, bandwidthBitsPerSecond: v.0 * 1000, width: v.1, height: v.2)
    }

    /// An estimator that has seen `samples` downloads at `bitsPerSecond` (1 s each) with `latency`.
    static func estimator(_ bitsPerSecond: Double, samples: Int = 3, latency: Double = 0) -> BandwidthEstimator {
        var estimator = BandwidthEstimator()
        for _ in 0..<samples {
            estimator.record(
                bytes: Int(bitsPerSecond / 8), durationSeconds: 1 + latency, timeToFirstByteSeconds: latency)
        }
        return estimator
    }

    static func input(
        _ estimator: BandwidthEstimator?, buffer: Double, previous: Int? = 2, viewport: Viewport? = nil,
        choice: QualityChoice = .auto, cap: Double = 60
    ) -> SelectionInput {
        SelectionInput(
            variants: ladder, segmentIndex: 10, segmentDurationSeconds: 4,
            estimator: estimator ?? BandwidthEstimator(),
            bufferSeconds: buffer, maxBufferSeconds: cap, previousVariantIndex: previous, viewport: viewport,
            userChoice: choice)
    }

    @Test(arguments: ABRRuleKind.allCases)
    func everyRuleStartsAtTheLowestVariantWithoutAnEstimate(rule: ABRRuleKind) {
        var selector = QualitySelector(rule: rule)
        #expect(selector.select(Self.input(nil, buffer: 0, previous: nil)).variantIndex == 0)
    }

    /// The rules that say they never read the EWMA estimate (`readsThroughputEstimate` is false, so the fast
    /// simulation loop leaves the averages out): the look-ahead rules.
    static let rulesWithoutTheEstimate = ABRRuleKind.allCases.filter {
        !QualitySelector(rule: $0).readsThroughputEstimate
    }

    @Test func theLookaheadRulesDoNotReadTheEstimate() {
        // `hlsjs` keeps an estimator of its own (hls.js's).
        #expect(Self.rulesWithoutTheEstimate == [.mpc, .filterz, .hlsjs])
    }

    /// Each of those rules chooses the same with an estimator that does not keep the averages.
    @Test(arguments: rulesWithoutTheEstimate)
    func rulesThatDoNotReadTheEstimateChooseTheSameWithoutIt(rule: ABRRuleKind) {
        var full = QualitySelector(rule: rule)
        var lean = QualitySelector(rule: rule)
        var fullEstimator = BandwidthEstimator()
        var leanEstimator = BandwidthEstimator(configuration: EstimatorConfiguration(throughputAverages: false))
        var generator = SeededGenerator(seed: 0x5E1E_C708)
        var previous: Int?
        for step in 0..<60 {
            let buffer = Double(step % 15) * 4
            let chosen = full.select(Self.input(fullEstimator, buffer: buffer, previous: previous)).variantIndex
            #expect(lean.select(Self.input(leanEstimator, buffer: buffer, previous: previous)).variantIndex == chosen)
            previous = chosen
            let rate = Double.random(in: 200_000...6_000_000, using: &generator)
            let seconds = Double.random(in: 0.2...6, using: &generator)
            fullEstimator.record(
                bytes: Int(rate * seconds / 8), durationSeconds: seconds + 0.08, timeToFirstByteSeconds: 0.08)
            leanEstimator.record(
                bytes: Int(rate * seconds / 8), durationSeconds: seconds + 0.08, timeToFirstByteSeconds: 0.08)
        }
    }

    @Test(arguments: ABRRuleKind.allCases)
    func fixedUserChoiceWinsOverEveryRule(rule: ABRRuleKind) {
        var selector = QualitySelector(rule: rule)
        let input = Self.input(Self.estimator(100_000), buffer: 0, choice: .fixed(variantIndex: 4))
        let selection = selector.select(input)
        #expect(selection.variantIndex == 4)
        #expect(selection.reason == "user choice")
    }

    @Test(arguments: ABRRuleKind.allCases)
    func autoNeverExceedsTheViewportCap(rule: ABRRuleKind) {
        var selector = QualitySelector(rule: rule)
        let small = Viewport(widthPixels: 600, heightPixels: 338, orientation: .portrait)
        for buffer in stride(from: 0.0, through: 60, by: 5) {
            let selection = selector.select(Self.input(Self.estimator(50_000_000), buffer: buffer, viewport: small))
            #expect(selection.variantIndex <= 1)
        }
    }

    @Test(arguments: [
        // (width, height, cap): the first rung covering the viewport, i.e. at most one step above it.
        (1170, 658, 4),  // portrait inline on a 390x844@3 phone: 720p
        (2532, 1170, 5),  // landscape full screen: 1080p
        (640, 360, 1),  // exactly 360p
        (641, 361, 2),  // a pixel larger than 360p both ways: 432p
        (100, 50, 0),
    ])
    func viewportCapIsTheFirstRungCoveringTheViewport(width: Int, height: Int, cap: Int) {
        let viewport = Viewport(
            widthPixels: width, heightPixels: height, orientation: width > height ? .landscape : .portrait)
        #expect(QualitySelector.viewportCap(variants: Self.ladder, viewport: viewport) == cap)
    }

    @Test func rotatingToLandscapeRaisesTheCapAndPortraitLowersIt() {
        let portrait = Viewport(widthPixels: 1170, heightPixels: 658, orientation: .portrait)
        let landscape = Viewport(widthPixels: 2532, heightPixels: 1170, orientation: .landscape)
        let portraitCap = QualitySelector.viewportCap(variants: Self.ladder, viewport: portrait)
        let landscapeCap = QualitySelector.viewportCap(variants: Self.ladder, viewport: landscape)
        #expect(landscapeCap > portraitCap)
        #expect(QualitySelector.viewportCap(variants: Self.ladder, viewport: nil) == 5)
    }

    @Test func throughputRuleFitsTheSegmentInItsDurationAtTheSafetyFraction() {
        // 2.1 Mbps × 0.9 = 1.89 Mbps: 1850 kbps fits, 2850 does not.
        var rule = ThroughputRule(insufficientBufferRule: false)
        let selection = rule.choose(Self.input(Self.estimator(2_100_000), buffer: 30), allowed: 0...5)
        #expect(selection.variantIndex == 3)
    }

    @Test func throughputRuleStepsDownWhenTheBufferCannotCoverTheDownload() {
        // 10 Mbps would allow 1080p, but with 1 s buffered only 0.9 × 1 s × 10 Mbit = 9 Mbit are safe:
        // 1200 kbps × 4 s = 4.8 Mbit fits, 1850 × 4 = 7.4 fits, 2850 × 4 = 11.4 does not.
        var rule = ThroughputRule()
        let selection = rule.choose(Self.input(Self.estimator(10_000_000), buffer: 1), allowed: 0...5)
        #expect(selection.variantIndex == 3)
    }

    @Test func bolaClimbsWithTheBuffer() {
        var levels: [Int] = []
        for buffer in [2.0, 15, 30, 45, 56] {
            var rule = BOLARule()
            levels.append(
                rule.choose(Self.input(Self.estimator(100_000_000), buffer: buffer), allowed: 0...5).variantIndex)
        }
        #expect(levels == levels.sorted())
        #expect(levels.first == 0)
        #expect(levels.last == 5)
    }

    @Test func bolaBasicThresholdsMatchThePaper() {
        // V = (60 − 4) / (ln(4300/300) + 5) = 7.3083; score_m = (V·(ln(S_m/S_0) + 5) − Q) / S_m.
        // Levels 0 and 1 tie where 750·(5V − Q) = 300·(V·(ln 2.5 + 5) − Q): Q = 4.3889·V = 32.08 s.
        var low = BOLARule()
        var high = BOLARule()
        let estimator = Self.estimator(100_000_000)
        #expect(low.choose(Self.input(estimator, buffer: 31.5, previous: 0), allowed: 0...1).variantIndex == 0)
        #expect(high.choose(Self.input(estimator, buffer: 32.5, previous: 0), allowed: 0...1).variantIndex == 1)
    }

    @Test func bbaMapsReservoirToLowestAndCushionTopToHighest() {
        var rule = BBARule(reservoirSeconds: 5, cushionSeconds: 10)
        let estimator = Self.estimator(1_000_000)
        #expect(rule.choose(Self.input(estimator, buffer: 3), allowed: 0...5).variantIndex == 0)
        #expect(rule.choose(Self.input(estimator, buffer: 16), allowed: 0...5).variantIndex == 5)
        // Falling back into the cushion: the map (300 + 4000 × 0.5 = 2300 kbps at 10 s) is below the next rate
        // down (2850), so the level drops to the lowest rate above the map: 2850 kbps.
        #expect(rule.choose(Self.input(estimator, buffer: 10), allowed: 0...5).variantIndex == 4)
    }

    @Test func mpcPrefersASustainableLevelOverOneThatStalls() {
        // 2 Mbps measured, no error; with a 4 s buffer 4300 kbps segments (8.6 s each) would stall.
        var rule = MPCRule()
        let level = rule.choose(Self.input(Self.estimator(2_000_000), buffer: 4, previous: 3), allowed: 0...5)
            .variantIndex
        #expect(level <= 3)
        #expect(level >= 2)
    }

    @Test func filterzKeepsAReserveMidStreamButSpendsTheBufferAtTheEnd() {
        // 3 Mbps and 20 s buffered: mid-stream the reserve keeps it under 4300 kbps; with two segments left
        // the buffer is worth nothing after the end and 1080p is played.
        var rule = FilterzRule()
        var middle = Self.input(Self.estimator(3_000_000), buffer: 20, previous: 4)
        middle.remainingSegments = 30
        var end = middle
        end.remainingSegments = 2
        end.upcomingSegmentBytes = [0, 1].map { _ in Self.ladder.map { $0.bandwidthBitsPerSecond / 2 } }
        #expect(rule.choose(middle, allowed: 0...5).variantIndex <= 4)
        #expect(rule.choose(end, allowed: 0...5).variantIndex == 5)
    }

    @Test func filterzFollowsALevelShiftUpButNotASingleSpike() {
        // Three samples at 0.85 Mbps, then two at 9 Mbps: the link has moved up, and the plan starts from the two
        // (a level above what the five-sample mean allows). One sample at 9 Mbps is a spike: nothing changes.
        var shifted = Self.estimator(850_000)
        var spiked = shifted
        for _ in 0..<2 { shifted.recordThroughput(bitsPerSecond: 9_000_000, transferSeconds: 0.4) }
        spiked.recordThroughput(bitsPerSecond: 850_000, transferSeconds: 4)
        spiked.recordThroughput(bitsPerSecond: 9_000_000, transferSeconds: 0.4)
        for (estimator, moves) in [(shifted, true), (spiked, false)] {
            var input = Self.input(estimator, buffer: 40, previous: 1)
            input.remainingSegments = 30
            input.upcomingSegmentBytes = Self.nominalSizes(segments: 5)
            var plain = FilterzRule(parameters: .init(levelShiftFactor: .infinity))
            var following = FilterzRule()
            let without = plain.choose(input, allowed: 0...5).variantIndex
            let with = following.choose(input, allowed: 0...5).variantIndex
            if moves { #expect(with > without) } else { #expect(with == without) }
        }
    }

    /// Bytes of `segments` segments at every rung's nominal rate (4 s).
    static func nominalSizes(segments: Int) -> [[Int]] {
        (0..<segments).map { _ in ladder.map { $0.bandwidthBitsPerSecond / 2 } }
    }

    @Test func filterzPessimisticScenarioKeepsMoreBufferWhenADropWouldStall() {
        // A steady 3 Mbps (errors known and zero), five 4 s segments of nominal size ahead. With some buffer, a
        // plan that only just fits at 3 Mbps would stall if the rate fell by a third; the second scenario makes
        // such plans cost more, so the choice is never higher than without it, and lower on some buffers (from
        // 4300 to 2850 kbps with 24–36 s); with a full buffer it changes nothing.
        var lowerCount = 0
        for buffer in stride(from: 2.0, through: 40, by: 2) {
            var input = Self.input(Self.estimator(3_000_000, samples: 6), buffer: buffer, previous: 3)
            input.remainingSegments = 30
            input.upcomingSegmentBytes = Self.nominalSizes(segments: 5)
            var plain = FilterzRule(parameters: .init(pessimisticPenalty: 0))
            var robust = FilterzRule()
            let withoutScenario = plain.choose(input, allowed: 0...5).variantIndex
            let withScenario = robust.choose(input, allowed: 0...5).variantIndex
            #expect(withScenario <= withoutScenario, "buffer \(buffer)")
            if withScenario < withoutScenario { lowerCount += 1 }
        }
        #expect(lowerCount > 0)
        var full = Self.input(Self.estimator(3_000_000, samples: 6), buffer: 56, previous: 4)
        full.remainingSegments = 30
        full.upcomingSegmentBytes = Self.nominalSizes(segments: 5)
        var plain = FilterzRule(parameters: .init(pessimisticPenalty: 0))
        var robust = FilterzRule()
        #expect(plain.choose(full, allowed: 0...5).variantIndex == robust.choose(full, allowed: 0...5).variantIndex)
    }
}
