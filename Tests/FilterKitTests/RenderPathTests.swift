@_spi(Benchmarks) import FilterKit
import Parallel
import Testing

@Suite struct RenderPathTests {
    static let allTwelve = FilterValues(
        brightness: 0.05, exposure: 0.3, contrast: 1.15, saturation: 1.1, sharpness: 0.6, blur: 3, vignette: 0.5,
        noiseReduction: 0.4, highlights: -0.2, shadows: 0.2, temperature: 5600, blackPoint: 0.02)

    @Test(arguments: [FilterRenderer.Path.fast, .reference])
    func stillAndVideoPathsGiveTheSameBytes(path: FilterRenderer.Path) {
        let renderer = FilterRenderer(values: Self.allTwelve, path: path, threads: .allCores)
        let frame = TestFrames.camera()
        let still = renderer.renderImage(frame)
        var video = Frame(rgbaWidth: 1, height: 1)
        renderer.renderFrame(frame, into: &video)
        #expect(still.planes[0].bytes == video.planes[0].bytes)
        renderer.renderFrame(TestFrames.camera(seed: 9), into: &video)  // reusing the buffers
        renderer.renderFrame(frame, into: &video)
        #expect(still.planes[0].bytes == video.planes[0].bytes)
    }

    @Test func neutralReturnsTheInputBitForBit() {
        let frame = TestFrames.random(width: 33, height: 17, seed: 4, bytesPerRow: 33 * 4 + 12)
        for path in [FilterRenderer.Path.fast, .reference] {
            let out = FilterRenderer(values: .neutral, path: path, threads: .allCores).renderImage(frame)
            #expect(out == frame)  // padding bytes included
            var video = TestFrames.camera()
            FilterRenderer(values: .neutral, path: path, threads: .allCores).renderFrame(frame, into: &video)
            #expect(video == frame)
        }
        let yuv = YUV420Conversion.yuv420(from: TestFrames.camera())
        #expect(FilterRenderer(values: .neutral, threads: .allCores).renderImage(yuv) == yuv)
    }

    @Test func paddedRowsRenderLikePackedRows() {
        let packed = TestFrames.random(width: 21, height: 13, seed: 8)
        var padded = Frame(rgbaWidth: 21, height: 13, bytesPerRow: 21 * 4 + 20)
        for y in 0..<13 {
            for x in 0..<84 {
                padded.planes[0].bytes[y * padded.planes[0].bytesPerRow + x] = packed.planes[0].bytes[y * 84 + x]
            }
        }
        let renderer = FilterRenderer(values: Self.allTwelve, threads: .allCores)
        #expect(renderer.renderImage(padded).packedBytes() == renderer.renderImage(packed).packedBytes())
    }

    @Test func singleThreadedAndMultiThreadedFastPathsAgreeExactly() {
        let frame = TestFrames.camera(width: 96, height: 54)
        let one = FilterRenderer(values: Self.allTwelve, threads: .callingThread).renderImage(frame)
        let many = FilterRenderer(values: Self.allTwelve, threads: .dispatch(width: 4)).renderImage(frame)
        #expect(one == many)
    }

    /// Bands of one to three rows, thinner than the rows each band recomputes past its edges (the guided
    /// filter's and the sharpen mask's windows reach into the next bands and past the frame's edges at once),
    /// with and without a blur after the sharpen.
    @Test func bandsThinnerThanTheirWindowsGiveTheSameBytes() {
        let frame = TestFrames.camera(width: 37, height: 23)
        for values in [
            Self.allTwelve, FilterValues(sharpness: 1.5, vignette: 1, noiseReduction: 0.5),
            FilterValues(sharpness: 1, blur: 3),
        ] {
            let one = FilterRenderer(values: values, threads: .callingThread).renderImage(frame)
            let many = FilterRenderer(values: values, threads: .dispatch(width: 8)).renderImage(frame)
            #expect(one == many, "\(values)")
        }
    }

    /// With a blur, the row stage checks each row's alpha as it fetches it and the byte store writes a constant
    /// only on rows found opaque: an opaque camera frame with a few rows made translucent, so some rows (near the
    /// band edges on many threads, and the frame's last) differ from the first pixel's alpha and the rest do not.
    @Test func alphaIsCarriedRowByRowWithABlur() {
        var frame = TestFrames.camera(width: 40, height: 24)
        let stride = frame.planes[0].bytesPerRow
        for y in [2, 11, 12, 23] {
            for x in 0..<40 { frame.planes[0].bytes[y * stride + 4 * x + 3] = UInt8((x * 37 + y * 11) % 256) }
        }
        for values in [Self.allTwelve, FilterValues(blur: 2, vignette: 1)] {
            for threads in [1, 3, 8] {
                let out = FilterRenderer(values: values, threads: .dispatch(width: threads)).renderImage(frame)
                for y in 0..<24 {
                    for x in 0..<40 {
                        let o = out.planes[0].bytes[y * out.planes[0].bytesPerRow + 4 * x + 3]
                        #expect(o == frame.planes[0].bytes[y * stride + 4 * x + 3], "\(threads) threads: (\(x), \(y))")
                    }
                }
            }
        }
    }

    /// A one-row frame has one band whatever the thread count; with a blur its strips still run beside that band
    /// and must wait for its row (a strip that read the row before the band wrote it would differ from one thread).
    @Test func aOneRowFrameWithABlurRendersTheSameOnEveryThreadCount() {
        let frame = TestFrames.random(width: 700, height: 1, seed: 11)
        let values = FilterValues(sharpness: 0.5, blur: 3, vignette: 0.5, noiseReduction: 0.3)
        let expected = FilterRenderer(values: values, threads: .callingThread).renderImage(frame)
        for threads in [2, 3] {
            let renderer = FilterRenderer(values: values, threads: .dispatch(width: threads))
            for _ in 0..<20 { #expect(renderer.renderImage(frame) == expected, "\(threads) threads") }
        }
    }

    @Test func yuvFramesRenderInYUVAndMatchTheRGBARenderWithinConversionError() {
        let rgba = TestFrames.camera()
        let yuv = YUV420Conversion.yuv420(from: rgba)
        let renderer = FilterRenderer(values: FilterValues(contrast: 1.2, temperature: 5000), threads: .allCores)
        let out = renderer.renderImage(yuv)
        #expect(out.format == .yuv420p && out.width == yuv.width && out.height == yuv.height)
        let expected = YUV420Conversion.yuv420(from: renderer.renderImage(YUVConversion.toRGBA(yuv)))
        #expect(out == expected)
    }

    @Test func yuvRoundTripIsCloseToTheOriginalLuma() {
        let rgba = TestFrames.flat(SIMD3(120, 140, 90), width: 8, height: 8)
        let back = YUVConversion.toRGBA(YUV420Conversion.yuv420(from: rgba))
        let p = back.rgba(x: 3, y: 3)
        #expect(abs(Int(p.x) - 120) <= 2 && abs(Int(p.y) - 140) <= 2 && abs(Int(p.z) - 90) <= 2)
        // BT.709 limited range: white is Y 235, black is Y 16.
        #expect(
            YUV420Conversion.yuv420(from: TestFrames.flat(SIMD3(repeating: 255), width: 4, height: 4)).planes[0].bytes[
                0]
                == 235)
        #expect(YUV420Conversion.yuv420(from: TestFrames.flat(.zero, width: 4, height: 4)).planes[0].bytes[0] == 16)
    }

    @Test func samplePresetsWithoutSteepCurvesUseTheLookupTable() {
        let names = ["warm-film", "noir", "faded", "dreamy", "crisp"]
        let presets = TestFrames.samplePresets.filter { names.contains($0.name) }
        #expect(presets.count == names.count, "sample presets found: \(presets.map(\.name))")
        for preset in presets {
            #expect(
                FilterRenderer(values: preset.values, threads: .allCores).colourMethod == .lookupTable, "\(preset.name)"
            )
        }
        #expect(FilterRenderer(values: .neutral, threads: .allCores).colourMethod == .none)
    }
}
