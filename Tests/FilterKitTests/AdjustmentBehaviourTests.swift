import FilterKit
import FilterzTestSupport
import Foundation
import Parallel
import Testing

/// Each adjustment alone moves pixels the documented way (on both render paths).
@Suite struct AdjustmentBehaviourTests {
    static let paths: [FilterRenderer.Path] = [.fast, .reference]

    static func render(_ values: FilterValues, _ frame: Frame, _ path: FilterRenderer.Path) -> Frame {
        FilterRenderer(values: values, path: path, threads: .allCores).renderImage(frame)
    }

    /// Mean of each channel (0…255) over the frame or a rectangle of it.
    static func means(_ frame: Frame, x: Range<Int>? = nil, y: Range<Int>? = nil) -> SIMD3<Double> {
        var sum = SIMD3<Double>.zero, count = 0.0
        for row in y ?? 0..<frame.height {
            for column in x ?? 0..<frame.width {
                let p = frame.rgba(x: column, y: row)
                sum += SIMD3(Double(p.x), Double(p.y), Double(p.z))
                count += 1
            }
        }
        return sum / count
    }

    static func luma(_ m: SIMD3<Double>) -> Double { 0.2126 * m.x + 0.7152 * m.y + 0.0722 * m.z }

    @Test(arguments: paths)
    func brightnessUpRaisesMeanLuma(path: FilterRenderer.Path) {
        let frame = TestFrames.camera()
        #expect(
            Self.luma(Self.means(Self.render(FilterValues(brightness: 0.2), frame, path)))
                > Self.luma(Self.means(frame)) + 20)
    }

    @Test(arguments: paths)
    func saturationZeroGivesGrey(path: FilterRenderer.Path) {
        let out = Self.render(FilterValues(saturation: 0), TestFrames.camera(), path)
        for y in 0..<out.height {
            for x in 0..<out.width {
                let p = out.rgba(x: x, y: y)
                #expect(abs(Int(p.x) - Int(p.y)) <= 1 && abs(Int(p.y) - Int(p.z)) <= 1, "(\(x), \(y)) = \(p)")
            }
        }
    }

    @Test(arguments: paths)
    func contrastAboveOneSpreadsTheHistogram(path: FilterRenderer.Path) {
        let frame = TestFrames.camera()
        func spread(_ f: Frame) -> Double {
            let values = f.packedBytes().enumerated().filter { $0.offset % 4 != 3 }.map { Double($0.element) }
            let mean = values.reduce(0, +) / Double(values.count)
            return values.map { ($0 - mean) * ($0 - mean) }.reduce(0, +) / Double(values.count)
        }
        // Short of 1.5² = 2.25 × because of clipping.
        #expect(spread(Self.render(FilterValues(contrast: 1.5), frame, path)) > 1.2 * spread(frame))
        #expect(spread(Self.render(FilterValues(contrast: 0.5), frame, path)) < 0.5 * spread(frame))
    }

    @Test(arguments: paths)
    func plusOneEVDoublesLinearLight(path: FilterRenderer.Path) {
        func linear(_ code: UInt8) -> Double {
            let v = Double(code) / 255
            return v <= 0.04045 ? v / 12.92 : pow((v + 0.055) / 1.055, 2.4)
        }
        for code: UInt8 in [30, 60, 100, 140, 170] {
            let out = Self.render(FilterValues(exposure: 1), TestFrames.flat(SIMD3(repeating: code)), path).rgba(
                x: 3, y: 3)
            #expect(abs(linear(out.x) / linear(code) - 2) < 0.06, "code \(code) → \(out.x)")
        }
        // Brighter than half scale clips to white.
        #expect(
            Self.render(FilterValues(exposure: 1), TestFrames.flat(SIMD3(repeating: 230)), path).rgba(x: 0, y: 0).x
                == 255)
    }

    @Test(arguments: paths)
    func lowTemperatureIsWarmerAndHighIsCooler(path: FilterRenderer.Path) {
        let frame = TestFrames.camera()
        func warmth(_ f: Frame) -> Double {
            let m = Self.means(f)
            return m.x - m.z
        }
        #expect(warmth(Self.render(FilterValues(temperature: 3000), frame, path)) > warmth(frame) + 10)
        #expect(warmth(Self.render(FilterValues(temperature: 9000), frame, path)) < warmth(frame) - 5)
    }

    @Test(arguments: paths)
    func shadowsLiftDarkTonesAndHighlightsMoveBrightOnes(path: FilterRenderer.Path) {
        let dark = TestFrames.flat(SIMD3(repeating: 60)), bright = TestFrames.flat(SIMD3(repeating: 200))
        #expect(Self.render(FilterValues(shadows: 1), dark, path).rgba(x: 0, y: 0).x > 75)
        #expect(Self.render(FilterValues(highlights: -1), bright, path).rgba(x: 0, y: 0).x < 185)
        #expect(Self.render(FilterValues(highlights: 1), bright, path).rgba(x: 0, y: 0).x > 215)
        #expect(
            Self.render(FilterValues(highlights: 1, shadows: 1), TestFrames.flat(.zero), path).rgba(x: 0, y: 0).x == 0)
    }

    @Test(arguments: paths)
    func blackPointRaisesBlack(path: FilterRenderer.Path) {
        let out = Self.render(FilterValues(blackPoint: 0.2), TestFrames.flat(.zero), path)
        #expect(out.rgba(x: 0, y: 0) == SIMD4(51, 51, 51, 255))
        #expect(
            Self.render(FilterValues(blackPoint: 0.2), TestFrames.flat(SIMD3(repeating: 255)), path).rgba(x: 0, y: 0).x
                == 255)
    }

    @Test(arguments: paths)
    func vignetteDarkensCornersAndNotTheCentre(path: FilterRenderer.Path) {
        let frame = TestFrames.flat(SIMD3(repeating: 200), width: 48, height: 32)
        let out = Self.render(FilterValues(vignette: 1.5), frame, path)
        #expect(out.rgba(x: 0, y: 0).x < 120)
        #expect(out.rgba(x: 47, y: 31).x < 120)
        #expect(out.rgba(x: 24, y: 16).x >= 199)
    }

    /// Energy of the horizontal and vertical first differences: high frequencies.
    static func highFrequencyEnergy(_ f: Frame) -> Double {
        var energy = 0.0
        for y in 0..<(f.height - 1) {
            for x in 0..<(f.width - 1) {
                let p = f.rgba(x: x, y: y), r = f.rgba(x: x + 1, y: y), d = f.rgba(x: x, y: y + 1)
                energy += pow(Double(p.y) - Double(r.y), 2) + pow(Double(p.y) - Double(d.y), 2)
            }
        }
        return energy
    }

    @Test(arguments: paths)
    func blurLowersHighFrequencyEnergy(path: FilterRenderer.Path) {
        let frame = TestFrames.camera()
        #expect(
            Self.highFrequencyEnergy(Self.render(FilterValues(blur: 2), frame, path)) < 0.3
                * Self.highFrequencyEnergy(frame))
    }

    @Test(arguments: paths)
    func sharpenRaisesHighFrequencyEnergy(path: FilterRenderer.Path) {
        let frame = TestFrames.camera(noiseLevel: 0)
        #expect(
            Self.highFrequencyEnergy(Self.render(FilterValues(sharpness: 1), frame, path)) > 1.15
                * Self.highFrequencyEnergy(frame))
    }

    @Test(arguments: paths)
    func noiseReductionLowersNoiseOnFlatPatchesAndKeepsEdges(path: FilterRenderer.Path) {
        // Left half grey 80, right half grey 180, both with seeded noise of σ ≈ 6 codes.
        var frame = Frame(rgbaWidth: 40, height: 24)
        var generator = SeededGenerator(seed: 5)
        for y in 0..<24 {
            for x in 0..<40 {
                let base = x < 20 ? 80.0 : 180.0
                let noise = (generator.nextUnit() + generator.nextUnit() - 1) * 15
                let v = UInt8(base + noise)
                for c in 0..<3 { frame.planes[0].bytes[y * 160 + x * 4 + c] = v }
            }
        }
        let out = Self.render(FilterValues(noiseReduction: 1), frame, path)
        func variance(_ f: Frame, _ xs: Range<Int>) -> Double {
            var values: [Double] = []
            for y in 4..<20 { for x in xs { values.append(Double(f.rgba(x: x, y: y).y)) } }
            let mean = values.reduce(0, +) / Double(values.count)
            return values.map { ($0 - mean) * ($0 - mean) }.reduce(0, +) / Double(values.count)
        }
        #expect(variance(out, 4..<16) < 0.4 * variance(frame, 4..<16))
        #expect(variance(out, 24..<36) < 0.4 * variance(frame, 24..<36))
        // The edge stays sharp: the columns beside it keep their sides' levels.
        let left = Self.means(out, x: 18..<19, y: 2..<22).y, right = Self.means(out, x: 21..<22, y: 2..<22).y
        #expect(left < 95 && right > 165, "edge columns \(left) / \(right)")
    }
}
