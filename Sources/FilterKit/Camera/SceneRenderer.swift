import Foundation

/// Draws the simulated camera's scene (see `SimulatedCamera`), made once per camera and then asked for
/// frames.
///
/// The still parts — sky and ground, the colour chart, the faces — are drawn once into `backdrop`. A frame
/// copies it, draws the two moving shapes, adds the sensor noise (`SensorNoise`) and burns in the counter,
/// so a 720p frame costs a copy and a few byte-wise passes instead of a scene drawing and a random number
/// per sample. `referenceFrame` draws everything from scratch and adds the noise one sample at a time: the
/// same bytes, kept as the yardstick the tests compare against.
struct SceneRenderer: Sendable {
    let width: Int
    let height: Int
    let seed: UInt64
    /// Nil when the noise level is 0.
    let noise: SensorNoise?
    /// The still parts of the scene.
    let backdrop: Frame

    init(width: Int, height: Int, seed: UInt64, noiseLevel: Double) {
        self.width = width
        self.height = height
        self.seed = seed
        noise = noiseLevel > 0 ? SensorNoise(seed: seed, level: noiseLevel, width: width) : nil
        var backdrop = Frame(rgbaWidth: width, height: height)
        Self.drawStillParts(&backdrop)
        self.backdrop = backdrop
    }

    /// The skin tones from light to deep.
    static let skin: [SIMD3<UInt8>] = [
        SIMD3(241, 194, 167), SIMD3(224, 172, 125), SIMD3(176, 120, 84), SIMD3(110, 70, 50),
    ]

    /// The 24 ColorChecker patches in reading order (sRGB, 8-bit), the chart photographers calibrate with.
    static let chart: [SIMD3<UInt8>] = [
        SIMD3(115, 82, 68), SIMD3(194, 150, 130), SIMD3(98, 122, 157), SIMD3(87, 108, 67), SIMD3(133, 128, 177),
        SIMD3(103, 189, 170), SIMD3(214, 126, 44), SIMD3(80, 91, 166), SIMD3(193, 90, 99), SIMD3(94, 60, 108),
        SIMD3(157, 188, 64), SIMD3(224, 163, 46), SIMD3(56, 61, 150), SIMD3(70, 148, 73), SIMD3(175, 54, 60),
        SIMD3(231, 199, 31), SIMD3(187, 86, 149), SIMD3(8, 133, 161), SIMD3(243, 243, 242), SIMD3(200, 200, 200),
        SIMD3(160, 160, 160), SIMD3(122, 122, 121), SIMD3(85, 85, 85), SIMD3(52, 52, 52),
    ]

    /// Frame `index`, captured `seconds` after the start.
    func frame(index: Int, seconds: Double) -> Frame {
        var frame = backdrop
        drawMovingParts(&frame, seconds: seconds)
        noise?.add(to: &frame, index: index)
        drawCounter(&frame, index: index, seconds: seconds)
        return frame
    }

    /// The same frame drawn the slow, obvious way: every part in painting order onto a new frame, then the
    /// noise added per sample.
    func referenceFrame(index: Int, seconds: Double) -> Frame {
        var frame = Frame(rgbaWidth: width, height: height)
        Self.drawStillParts(&frame)
        drawMovingParts(&frame, seconds: seconds)
        if let noise {
            let stride = frame.planes[0].bytesPerRow
            for y in 0..<height {
                let start = noise.rowStart(frame: index, row: y)
                for x in 0..<width {
                    for channel in 0..<3 {
                        let o = y * stride + x * 4 + channel
                        let value = Int(frame.planes[0].bytes[o]) + noise.offset(pixel: start + x, channel: channel)
                        frame.planes[0].bytes[o] = UInt8(min(max(value, 0), 255))
                    }
                }
            }
        }
        drawCounter(&frame, index: index, seconds: seconds)
        return frame
    }

    // MARK: Parts of the scene

    /// Sky and ground, the colour chart (6 × 4 patches) and four skin-tone faces.
    private static func drawStillParts(_ frame: inout Frame) {
        let width = frame.width, height = frame.height
        let portrait = height > width
        drawSkyAndGround(&frame)
        let chartBox: (x: Double, y: Double, w: Double, h: Double) =
            portrait ? (0.06, 0.52, 0.88, 0.22) : (0.04, 0.46, 0.54, 0.44)
        let cellW = chartBox.w * Double(width) / 6, cellH = chartBox.h * Double(height) / 4
        let gap = max(1, Int(min(cellW, cellH) * 0.08))
        BitmapFont.fill(
            &frame, x: Int(chartBox.x * Double(width)) - gap, y: Int(chartBox.y * Double(height)) - gap,
            width: Int(chartBox.w * Double(width)) + 2 * gap, height: Int(chartBox.h * Double(height)) + 2 * gap,
            colour: SIMD4(20, 20, 20, 255))
        for (i, colour) in chart.enumerated() {
            let x = Int(chartBox.x * Double(width) + Double(i % 6) * cellW) + gap / 2
            let y = Int(chartBox.y * Double(height) + Double(i / 6) * cellH) + gap / 2
            BitmapFont.fill(
                &frame, x: x, y: y, width: Int(cellW) - gap, height: Int(cellH) - gap,
                colour: SIMD4(colour, 255))
        }
        let unit = Double(min(width, height))
        for (i, tone) in skin.enumerated() {
            let cx = portrait ? (0.15 + 0.233 * Double(i)) * Double(width) : (0.67 + 0.09 * Double(i)) * Double(width)
            let cy = portrait ? 0.84 * Double(height) : (0.62 + 0.12 * Double(i % 2)) * Double(height)
            disc(&frame, cx: cx, cy: cy, radius: 0.07 * unit, colour: SIMD4(tone, 255))
            disc(
                &frame, cx: cx - 0.025 * unit, cy: cy - 0.015 * unit, radius: 0.008 * unit,
                colour: SIMD4(30, 25, 20, 255))
            disc(
                &frame, cx: cx + 0.025 * unit, cy: cy - 0.015 * unit, radius: 0.008 * unit,
                colour: SIMD4(30, 25, 20, 255))
        }
    }

    /// A disc crossing the sky and a bouncing square, placed by the time and the seed's motion phase.
    private func drawMovingParts(_ frame: inout Frame, seconds: Double) {
        let unit = Double(min(width, height))
        let phase = SimulatedCamera.unit(seed, 0x5A4E, 0)
        let travel = abs((seconds / 4 + phase).truncatingRemainder(dividingBy: 2) - 1)  // 0…1…0 every 8 s
        Self.disc(
            &frame, cx: (0.1 + 0.8 * travel) * Double(width), cy: 0.2 * Double(height), radius: 0.06 * unit,
            colour: SIMD4(250, 120, 40, 255))
        let bounce = abs(sin((seconds * 1.3 + phase * 6) * .pi))
        let side = Int(0.09 * unit)
        BitmapFont.fill(
            &frame, x: Int(0.82 * Double(width)) - side / 2,
            y: Int((0.12 + 0.2 * bounce) * Double(height)), width: side, height: side,
            colour: SIMD4(60, 200, 230, 255))
    }

    /// The burnt-in counter `#frame mm:ss.mmm`, drawn after the noise so it stays crisp.
    private func drawCounter(_ frame: inout Frame, index: Int, seconds: Double) {
        let scale = max(1, min(width, height) / 160)
        let milliseconds = Int((seconds * 1000).rounded())
        let text = String(
            format: "#%06d %02d:%02d.%03d", index, milliseconds / 60_000, (milliseconds / 1000) % 60,
            milliseconds % 1000)
        BitmapFont.draw(
            text, into: &frame, x: 2 * scale, y: 2 * scale, scale: scale,
            colour: SIMD4(255, 255, 255, 255), background: SIMD4(0, 0, 0, 255))
    }

    /// A vertical gradient from deep to pale blue above the horizon and from olive to brown below it.
    private static func drawSkyAndGround(_ frame: inout Frame) {
        let width = frame.width, height = frame.height, stride = frame.planes[0].bytesPerRow
        let horizon = 0.42
        frame.planes[0].bytes.withUnsafeMutableBufferPointer { bytes in
            for y in 0..<height {
                let v = (Double(y) + 0.5) / Double(height)
                let colour: SIMD3<Double>
                if v < horizon {
                    let t = v / horizon
                    colour = SIMD3(40, 90, 170) * (1 - t) + SIMD3(175, 205, 235) * t
                } else {
                    let t = (v - horizon) / (1 - horizon)
                    colour = SIMD3(120, 125, 90) * (1 - t) + SIMD3(70, 62, 48) * t
                }
                let c = SIMD3<UInt8>(truncatingIfNeeded: SIMD3<Int>((colour).rounded(.toNearestOrAwayFromZero)))
                for x in 0..<width {
                    let o = y * stride + x * 4
                    bytes[o] = c.x
                    bytes[o + 1] = c.y
                    bytes[o + 2] = c.z
                    bytes[o + 3] = 255
                }
            }
        }
    }

    private static func disc(_ frame: inout Frame, cx: Double, cy: Double, radius: Double, colour: SIMD4<UInt8>) {
        let y0 = max(0, Int(cy - radius)), y1 = min(frame.height - 1, Int(cy + radius))
        guard y0 <= y1 else { return }
        for y in y0...y1 {
            let dy = Double(y) + 0.5 - cy
            let half = (radius * radius - dy * dy).squareRoot()
            guard half.isFinite else { continue }
            let x0 = Int((cx - half).rounded()), x1 = Int((cx + half).rounded())
            BitmapFont.fill(&frame, x: x0, y: y, width: x1 - x0, height: 1, colour: colour)
        }
    }
}
