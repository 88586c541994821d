import FilterzTestSupport
import Parallel
import Testing

@testable import FilterKit

/// A frame with a blur and more pixels than `sectionPixels` is rendered in sections of rows (`BlurSections`), to
/// bound the work buffer of big photos: the bytes must be those of the whole frame at once, for any section size,
/// preset and thread count.
@Suite struct SectionedRenderTests {
    struct Case: Sendable, CustomTestStringConvertible {
        var width: Int, height: Int
        var values: FilterValues
        var name: String
        var testDescription: String { "\(name) \(width)×\(height)" }
    }

    static let allTwelve = FilterValues(
        brightness: 0.05, exposure: 0.3, contrast: 1.15, saturation: 1.1, sharpness: 0.6, blur: 10, vignette: 0.5,
        noiseReduction: 0.4, highlights: -0.2, shadows: 0.2, temperature: 5600, blackPoint: 0.02)

    static let cases: [Case] = {
        var cases = [
            Case(width: 97, height: 301, values: allTwelve, name: "all-12"),
            Case(width: 40, height: 700, values: FilterValues(blur: 20, vignette: 2), name: "blur 20 + vignette"),
            Case(width: 33, height: 450, values: FilterValues(sharpness: 2, blur: 0.3), name: "blur 0.3 (three-tap)"),
            Case(width: 1, height: 390, values: FilterValues(blur: 4, noiseReduction: 1), name: "one column"),
            Case(width: 150, height: 200, values: FilterValues(contrast: 1.3, blur: 1.5), name: "blur 1.5"),
        ]
        for seed in 0..<3 {
            var values = TestFrames.randomValues(seed: UInt64(100 + seed))
            values.blur = 1 + Double(seed) * 3.5
            cases.append(Case(width: 61 + 7 * seed, height: 257 + 31 * seed, values: values, name: "random \(seed)"))
        }
        return cases
    }()

    @Test(arguments: cases)
    func sectionsGiveTheBytesOfTheWholeFrame(_ c: Case) {
        let frame = TestFrames.camera(width: c.width, height: c.height, seed: 11)
        let noisy = TestFrames.random(width: c.width, height: c.height, seed: 12)
        let whole = FilterRenderer(values: c.values, threads: .callingThread)
        let expected = [whole.renderImage(frame), whole.renderImage(noisy)]
        for threads in [1, 2] {
            for blocks in [1, 3] {
                var renderer = FilterRenderer(values: c.values, threads: .dispatch(width: threads))
                renderer.sectionPixels = c.width * Planar.verticalBlockRows * blocks
                let sections = BlurSections(
                    width: c.width, height: c.height, box: SpatialSteps.ExtendedBox(sigma: c.values.blur),
                    passes: SpatialSteps.blurPasses, pixelsPerSection: renderer.sectionPixels)
                #expect(sections.sections.count > 1 || c.height <= 64 * blocks)
                let outputs = [renderer.renderImage(frame), renderer.renderImage(noisy)]
                // Compared as Bools: a failing frame comparison would print every byte of both frames.
                let sameCamera = outputs[0] == expected[0], sameRandom = outputs[1] == expected[1]
                #expect(sameCamera, "camera frame, \(threads) threads, \(blocks)-block sections")
                #expect(sameRandom, "random frame, \(threads) threads, \(blocks)-block sections")
            }
        }
    }

    @Test func sectionsCoverTheFrameAndStartOnBlocks() {
        let box = SpatialSteps.ExtendedBox(sigma: 20)
        let sections = BlurSections(width: 8000, height: 6000, box: box, passes: 3, pixelsPerSection: 1 << 22)
        #expect(sections.sections.first?.rows.lowerBound == 0)
        #expect(sections.sections.last?.rows.upperBound == 6000)
        for (a, b) in zip(sections.sections, sections.sections.dropFirst()) {
            #expect(a.rows.upperBound == b.rows.lowerBound)
        }
        for section in sections.sections {
            #expect(section.rows.lowerBound % Planar.verticalBlockRows == 0)
            #expect(section.window.lowerBound <= max(0, section.rows.lowerBound - 2 * 64 - box.radius - 1))
            #expect(section.window.upperBound >= min(6000, section.rows.upperBound + 3 * (box.radius + 1)))
        }
        // 512 rows of 8000 pixels and their margins: about a tenth of the frame.
        #expect(sections.sections.count == 12)
        #expect(sections.largestWindow * 8000 * 12 < 80_000_000)
        // A 720p video frame is one section.
        #expect(
            BlurSections(width: 1280, height: 720, box: box, passes: 3, pixelsPerSection: 1 << 22).sections.count == 1)
    }
}
