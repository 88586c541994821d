import FilterKit
import Parallel
import Testing

@Suite struct FastPathAgreementTests {
    @Test func thereAreSamplePresetsToCheck() {
        #expect(TestFrames.samplePresets.count >= 9)
    }

    @Test(arguments: TestFrames.samplePresets.map(\.name))
    func samplePresetFastPathMatchesReference(name: String) {
        let values = TestFrames.samplePresets.first { $0.name == name }!.values
        let fast = FilterRenderer(values: values, threads: .allCores),
            reference = FilterRenderer(values: values, path: .reference, threads: .allCores)
        for frame in [TestFrames.random(width: 40, height: 30, seed: 11), TestFrames.camera()] {
            let agreement = Agreement(fast.renderImage(frame), reference.renderImage(frame))
            #expect(agreement.isAcceptable, "\(name): \(agreement)")
        }
    }

    /// Widths that are not a multiple of four end each row (and each blur strip) in the one-pixel tail of the
    /// vectorised byte store, here with the constant alpha of an opaque camera frame; with and without a blur
    /// (the store runs inside the blur's last pass, or in a pass of its own).
    @Test func oddSizedOpaqueFramesMatchTheReference() {
        let frame = TestFrames.camera(width: 37, height: 23)
        for values in [RenderPathTests.allTwelve, FilterValues(sharpness: 1, vignette: 1, noiseReduction: 0.5)] {
            let fast = FilterRenderer(values: values, threads: .allCores).renderImage(frame)
            let agreement = Agreement(
                fast, FilterRenderer(values: values, path: .reference, threads: .allCores).renderImage(frame))
            #expect(agreement.isAcceptable, "\(values): \(agreement)")
            #expect(fast.packedBytes().enumerated().allSatisfy { $0.offset % 4 != 3 || $0.element == 255 })
        }
    }

    @Test(arguments: 0..<200)
    func randomPresetFastPathMatchesReference(seed: Int) {
        let values = TestFrames.randomValues(seed: UInt64(seed))
        let fast = FilterRenderer(values: values, threads: .allCores),
            reference = FilterRenderer(values: values, path: .reference, threads: .allCores)
        let frame =
            seed % 2 == 0
            ? TestFrames.random(width: 24, height: 18, seed: UInt64(seed))
            : TestFrames.camera(width: 32, height: 18, seed: UInt64(seed))
        let agreement = Agreement(fast.renderImage(frame), reference.renderImage(frame))
        #expect(agreement.isAcceptable, "seed \(seed) \(values): \(agreement)")
    }
}
