import FilterKit
import Testing

@Suite struct FastPathAgreementTests {
    @Test func thereAreSamplePresetsToCheck() {
        #expect(TestFrames.samplePresets.count >= 9)
    }

    @Test(arguments: TestFrames.samplePresets.map(\.name))
    func samplePresetFastPathMatchesReference(name: String) {
        let values = TestFrames.samplePresets.first { $0.name == name }!.values
        let fast = FilterRenderer(values: values), reference = FilterRenderer(values: values, path: .reference)
        for frame in [TestFrames.random(width: 40, height: 30, seed: 11), TestFrames.camera()] {
            let agreement = Agreement(fast.renderImage(frame), reference.renderImage(frame))
            #expect(agreement.isAcceptable, "\(name): \(agreement)")
        }
    }

    @Test(arguments: 0..<200)
    func randomPresetFastPathMatchesReference(seed: Int) {
        let values = TestFrames.randomValues(seed: UInt64(seed))
        let fast = FilterRenderer(values: values), reference = FilterRenderer(values: values, path: .reference)
        let frame = seed % 2 == 0
            ? TestFrames.random(width: 24, height: 18, seed: UInt64(seed))
            : TestFrames.camera(width: 32, height: 18, seed: UInt64(seed))
        let agreement = Agreement(fast.renderImage(frame), reference.renderImage(frame))
        #expect(agreement.isAcceptable, "seed \(seed) \(values): \(agreement)")
    }
}
