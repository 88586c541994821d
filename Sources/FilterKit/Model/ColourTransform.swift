import Foundation

/// The per-pixel colour steps of one preset, in `Double`: the definition both render paths follow
/// (the reference evaluates it per pixel, the fast path samples it into a `ColourLUT`).
///
/// On gamma-encoded sRGB values in 0…1, in this order (DESIGN.md), without clamping in between (like the
/// app's float pipeline) and one clamp to 0…1 at the end:
/// 1. saturation: `c = Y + s · (c − Y)`, Y the Rec. 709 luma of the pixel (as Core Image's colour controls);
/// 2. brightness: `c = c + b`;
/// 3. contrast: `c = (c − 0.5) · k + 0.5` (pivot at mid-grey);
/// 4. exposure: `lin = decode(c) · 2^EV` (sRGB transfer, IEC 61966-2-1; photographic stops act on linear light);
/// 5. temperature (skipped at 6500 K): `lin = W(T) · lin`, W the Bradford adaptation from the Planckian white
///    at 6500 K to the one at T (Kim et al. cubic locus), then `c = encode(lin)`;
/// 6. highlights/shadows, a luma tone curve: with Y the luma clamped to 0…1,
///    `ΔY = a · (shadows · Y²(1−Y)³ + highlights · Y³(1−Y)²)`, `a = 0.2 / (0.4² · 0.6³)` so each bump peaks at
///    ±0.2 (shadows at Y = 0.4, highlights at Y = 0.6); both vanish with zero slope at black and white, so
///    black stays black and white stays white. `c = c + ΔY` on every channel (hue kept);
/// 7. black point (skipped at 0): `c = bp + (1 − bp) · c`;
/// 8. clamp to 0…1.
public struct ColourTransform: Sendable {
    public let values: FilterValues
    /// Steps 1–3 as one affine map: `c' = matrix · c + offset`.
    let controls: Matrix3
    let controlsOffset: Double
    let exposureGain: Double
    let whiteBalance: Matrix3?
    static let toneCurveScale = 0.2 / (0.4 * 0.4 * 0.6 * 0.6 * 0.6)

    public init(_ values: FilterValues) {
        self.values = values
        // saturation: c' = Y + s(c − Y) = s·c + (1 − s)·Y → rows s·e_i + (1 − s)·w
        let s = values.saturation, w = ColourScience.lumaWeights, k = values.contrast
        func row(_ i: Int) -> SIMD3<Double> {
            var r = (1 - s) * w
            r[i] += s
            return r * k
        }
        var matrix = Matrix3.identity
        matrix.rows = (row(0), row(1), row(2))
        controls = matrix
        controlsOffset = (values.brightness - 0.5) * k + 0.5
        exposureGain = pow2(values.exposure)
        whiteBalance = values.temperature == 6500 ? nil : ColourScience.whiteBalanceMatrix(kelvin: values.temperature)
    }

    /// True when the transform is the identity (every colour value at its default).
    public var isIdentity: Bool { !values.hasColourAdjustments }

    /// Applies steps 1–8 to one gamma-encoded RGB triple.
    public func apply(_ rgb: SIMD3<Double>) -> SIMD3<Double> {
        clamp(unclamped(rgb))
    }

    /// Steps 1–7, without the final clamp (the fast path interpolates these and clamps afterwards).
    func unclamped(_ rgb: SIMD3<Double>) -> SIMD3<Double> {
        let c = unclamped(rgb.x, rgb.y, rgb.z)
        return SIMD3(c.0, c.1, c.2)
    }

    /// Steps 1–7 on scalars (the one implementation; scalar code keeps debug builds of the tests quick).
    func unclamped(_ r: Double, _ g: Double, _ b: Double) -> (Double, Double, Double) {
        let c: (Double, Double, Double)
        if usesLinearLight {
            let l = linearLight(r, g, b)
            c = (ColourScience.encode(l.0), ColourScience.encode(l.1), ColourScience.encode(l.2))
        } else {
            c = colourControls(r, g, b)
        }
        return toneAndBlackPoint(c.0, c.1, c.2)
    }

    /// True when steps 4–5 (exposure, temperature) are active, so the chain passes through linear light.
    var usesLinearLight: Bool { exposureGain != 1 || whiteBalance != nil }

    /// Steps 1–3: the affine colour controls.
    func colourControls(_ r: Double, _ g: Double, _ b: Double) -> (Double, Double, Double) {
        let m = controls.rows, offset = controlsOffset
        return (
            m.0.x * r + m.0.y * g + m.0.z * b + offset, m.1.x * r + m.1.y * g + m.1.z * b + offset,
            m.2.x * r + m.2.y * g + m.2.z * b + offset
        )
    }

    /// Steps 1–5 up to linear light, before the sRGB encode of step 5 (the fast path tabulates this part
    /// in 3D, where it is smooth, and encodes per channel afterwards).
    func linearLight(_ r: Double, _ g: Double, _ b: Double) -> (Double, Double, Double) {
        let c = colourControls(r, g, b)
        let l0 = ColourScience.decode(c.0) * exposureGain
        let l1 = ColourScience.decode(c.1) * exposureGain
        let l2 = ColourScience.decode(c.2) * exposureGain
        guard let w = whiteBalance?.rows else { return (l0, l1, l2) }
        return (
            w.0.x * l0 + w.0.y * l1 + w.0.z * l2, w.1.x * l0 + w.1.y * l1 + w.1.z * l2,
            w.2.x * l0 + w.2.y * l1 + w.2.z * l2
        )
    }

    /// Steps 6–7 on gamma-encoded values: the highlights/shadows tone curve, then the black point.
    func toneAndBlackPoint(_ r: Double, _ g: Double, _ b: Double) -> (Double, Double, Double) {
        var (c0, c1, c2) = (r, g, b)
        if values.shadows != 0 || values.highlights != 0 {
            let weights = ColourScience.lumaWeights
            let delta = toneShift(luma: min(max(weights.x * c0 + weights.y * c1 + weights.z * c2, 0), 1))
            c0 += delta
            c1 += delta
            c2 += delta
        }
        if values.blackPoint > 0 {
            let bp = values.blackPoint
            c0 = bp + (1 - bp) * c0
            c1 = bp + (1 - bp) * c1
            c2 = bp + (1 - bp) * c2
        }
        return (c0, c1, c2)
    }

    /// Step 6's shift ΔY for a luma `y` in 0…1.
    func toneShift(luma y: Double) -> Double {
        let dark = y * y * (1 - y) * (1 - y) * (1 - y), bright = y * y * y * (1 - y) * (1 - y)
        return Self.toneCurveScale * (values.shadows * dark + values.highlights * bright)
    }

    private func clamp(_ c: SIMD3<Double>) -> SIMD3<Double> {
        c.clamped(lowerBound: SIMD3(repeating: 0), upperBound: SIMD3(repeating: 1))
    }
}

/// 2^x.
func pow2(_ x: Double) -> Double { Foundation.pow(2, x) }
