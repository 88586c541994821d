@_spi(Benchmarks) import FilterKit
import Parallel
import Testing

/// The exact byte table against the per-pixel pass it is filled from: identical bytes, for colour-only presets
/// (byte entries) and presets with spatial steps (`FineColour` entries), whether an entry is filled by the
/// frame being rendered or was filled by an earlier one.
@Suite struct ExactByteTableTests {
    /// warm-film's colour steps (the bench's colour-only preset).
    static let colourOnly = FilterValues(
        contrast: 1.1, saturation: 0.9, highlights: -0.25, shadows: 0.15, temperature: 4800, blackPoint: 0.03)

    @Test func tableGivesTheSameBytesAsThePerPixelPass() {
        let table = FilterRenderer(values: Self.colourOnly, threads: .allCores, byteTable: .always)
        let perPixel = FilterRenderer(values: Self.colourOnly, threads: .allCores, byteTable: .never)
        // 4095 seeded random colours (odd width: the per-pixel pass's one-by-one tail too), and a camera frame.
        for frame in [TestFrames.random(width: 65, height: 63, seed: 7), TestFrames.camera(width: 96, height: 54)] {
            let expected = perPixel.renderImage(frame)
            #expect(table.renderImage(frame) == expected)
            #expect(table.renderFrame(frame) == expected)
            // The colour step changed the frame: the equalities above do not compare the input with itself.
            #expect(expected != frame)
        }
        #expect(table.byteTableIsBuilt)
        #expect(!perPixel.byteTableIsBuilt)
    }

    @Test func smallStillsAndAFewSmallFramesDoNotBuildIt() {
        let renderer = FilterRenderer(values: Self.colourOnly, threads: .allCores)
        _ = renderer.renderImage(TestFrames.camera())
        var video = TestFrames.camera()
        for _ in 0..<3 { renderer.renderFrame(TestFrames.camera(), into: &video) }
        #expect(!renderer.byteTableIsBuilt)
    }

    /// The set-up counts the pixels coloured before a frame, so one still larger than the threshold does not
    /// build a table it could never reuse, and the next frame of the same renderer does.
    @Test func aLargeStillDoesNotBuildItButTheNextFrameDoes() {
        let renderer = FilterRenderer(values: Self.colourOnly, threads: .allCores)
        let large = TestFrames.flat([200, 120, 40], width: 2049, height: 2048)  // 2²² + 2048 pixels
        let expected = FilterRenderer(values: Self.colourOnly, threads: .allCores, byteTable: .never).renderImage(large)
        #expect(renderer.renderImage(large) == expected)
        #expect(!renderer.byteTableIsBuilt)
        #expect(renderer.renderFrame(large) == expected)
        #expect(renderer.byteTableIsBuilt)
    }

    /// With spatial steps the table holds `FineColour` codes, and the per-pixel pass rounds to the same codes.
    @Test func fineTableGivesTheSameBytesAsThePerPixelPassWithSpatialSteps() {
        var spatial = Self.colourOnly
        (spatial.vignette, spatial.sharpness, spatial.blur, spatial.noiseReduction) = (0.5, 0.6, 2, 0.3)
        let table = FilterRenderer(values: spatial, threads: .allCores, byteTable: .always)
        let perPixel = FilterRenderer(values: spatial, threads: .allCores, byteTable: .never)
        for frame in [TestFrames.random(width: 65, height: 63, seed: 7), TestFrames.camera(width: 96, height: 54)] {
            let expected = perPixel.renderImage(frame)
            #expect(table.renderImage(frame) == expected)  // entries filled while rendering
            #expect(table.renderImage(frame) == expected)  // entries read back
            #expect(expected != frame)
        }
        #expect(table.byteTableIsBuilt)
        #expect(!perPixel.byteTableIsBuilt)
    }

    @Test func presetsWithoutColourStepsDoNotBuildIt() {
        for values in [FilterValues(blur: 2, vignette: 0.5), FilterValues()] {
            let renderer = FilterRenderer(values: values, threads: .allCores, byteTable: .always)
            _ = renderer.renderFrame(TestFrames.camera())
            #expect(!renderer.byteTableIsBuilt)
        }
    }
}
