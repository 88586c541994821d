import Testing
@testable import Playback

@Suite struct SelectorTests {
    static let ladder: [VariantInfo] = [
        (300, 320, 180), (750, 640, 360), (1200, 768, 432), (1850, 1024, 576), (2850, 1280, 720), (4300, 1920, 1080),
    ].enumerated().map { i, v in
        VariantInfo(index: i, bandwidthBitsPerSecond: v.0 * 1000, width: v.1, height: v.2)
    }

    @Test func fixedUserChoiceWinsOverTheRule() {
        var selector = QualitySelector(rule: .throughput)
        let input = SelectionInput(
            variants: Self.ladder, segmentIndex: 3, segmentDurationSeconds: 4, throughputBitsPerSecond: 100_000,
            bufferSeconds: 0, maxBufferSeconds: 60, userChoice: .fixed(variantIndex: 4))
        #expect(selector.select(input).variantIndex == 4)
    }

    @Test func throughputRulePicksTheHighestVariantUnderTheSafetyFraction() {
        var selector = QualitySelector(rule: .throughput)
        let input = SelectionInput(
            variants: Self.ladder, segmentIndex: 3, segmentDurationSeconds: 4, throughputBitsPerSecond: 2_100_000,
            bufferSeconds: 10, maxBufferSeconds: 60)
        #expect(selector.select(input).variantIndex == 3)  // 1850 <= 0.9 * 2100 = 1890 < 2850
    }
}
