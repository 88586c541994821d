/// The colour steps of a `ColourTransform` evaluated per pixel in `Float`, for presets whose 3D LUT would
/// not be accurate enough (see `FilterRenderer.ColourMethod.perPixel`).
///
/// It follows the transform's structure exactly: the affine colour controls as three multiply-adds on a
/// `SIMD4<Float>`; the sRGB decode (× exposure gain) and the sRGB encode as 1D tables with linear
/// interpolation — the encode table indexed by √|L| (sign kept), where the curve is gentle, since in L itself
/// it is too steep near black to tabulate evenly; the white-balance matrix as three multiply-adds; the
/// highlights/shadows curve as a table over luma 0…1; black point; clamp. Table steps are fine enough that
/// the interpolation error stays below 10⁻³ code values.
struct ColourPipeline: Sendable {
    let columns: (SIMD4<Float>, SIMD4<Float>, SIMD4<Float>)
    let offset: SIMD4<Float>
    let linearise: Table?
    let whiteBalance: (SIMD4<Float>, SIMD4<Float>, SIMD4<Float>)?
    let encode: Table?
    let tone: Table?
    let blackPoint: Float
    /// Owns the tables' samples.
    let storage: [PinnedBuffer<Float>]
    static let lumaWeights = SIMD4<Float>(0.2126, 0.7152, 0.0722, 0)

    /// A sampled 1D function on [lower, upper] (inputs outside are clamped to the ends). Plain values only
    /// (the samples are owned by `storage`), so the inner loop does no reference counting.
    struct Table: @unchecked Sendable {
        let lower: Float, scale: Float, last: Int
        let samples: UnsafeMutablePointer<Float>

        init(lower: Double, upper: Double, count: Int, storage: inout [PinnedBuffer<Float>], _ f: (Double) -> Double) {
            let upper = upper > lower ? upper : lower + 1
            self.lower = Float(lower)
            scale = Float(Double(count - 1) / (upper - lower))
            last = count - 1
            let buffer = PinnedBuffer<Float>(count: count + 1, repeating: 0)
            storage.append(buffer)
            samples = buffer.pointer
            for i in 0..<count { samples[i] = Float(f(lower + (upper - lower) * Double(i) / Double(count - 1))) }
            samples[count] = samples[count - 1]
        }

        @inline(__always)
        func callAsFunction(_ x: Float) -> Float {
            let position = min(max((x - lower) * scale, 0), Float(last))
            let i = Int(position)
            let t = position - Float(i)
            let p = samples + i
            return p[0] + (p[1] - p[0]) * t
        }
    }

    init(_ transform: ColourTransform) {
        var storage: [PinnedBuffer<Float>] = []
        let m = transform.controls.rows
        func f(_ v: SIMD3<Double>) -> SIMD4<Float> { SIMD4(Float(v.x), Float(v.y), Float(v.z), 0) }
        columns = (f(SIMD3(m.0.x, m.1.x, m.2.x)), f(SIMD3(m.0.y, m.1.y, m.2.y)), f(SIMD3(m.0.z, m.1.z, m.2.z)))
        offset = SIMD4(repeating: Float(transform.controlsOffset))
        // Range of the colour-controls output over the RGB cube: per row, the sum of negative / positive weights.
        func bounds(_ row: SIMD3<Double>) -> (Double, Double) {
            let lo = min(row.x, 0) + min(row.y, 0) + min(row.z, 0), hi = max(row.x, 0) + max(row.y, 0) + max(row.z, 0)
            return (lo + transform.controlsOffset, hi + transform.controlsOffset)
        }
        let rowBounds = [bounds(m.0), bounds(m.1), bounds(m.2)]
        let yLower = rowBounds.map(\.0).min()! - 1e-6, yUpper = rowBounds.map(\.1).max()! + 1e-6
        if transform.exposureGain != 1 || transform.whiteBalance != nil {
            let gain = transform.exposureGain
            linearise = Table(lower: yLower, upper: yUpper, count: 8192, storage: &storage) { ColourScience.decode($0) * gain }
            let lLower = ColourScience.decode(yLower) * gain, lUpper = ColourScience.decode(yUpper) * gain
            var bound = max(abs(lLower), abs(lUpper))
            if let w = transform.whiteBalance?.rows {
                let rows = [w.0, w.1, w.2]
                bound *= rows.map { abs($0.x) + abs($0.y) + abs($0.z) }.max()!
                whiteBalance = (f(SIMD3(w.0.x, w.1.x, w.2.x)), f(SIMD3(w.0.y, w.1.y, w.2.y)), f(SIMD3(w.0.z, w.1.z, w.2.z)))
            } else {
                whiteBalance = nil
            }
            let root = bound.squareRoot() + 1e-6
            encode = Table(lower: -root, upper: root, count: 16384, storage: &storage) { u in ColourScience.encode(u < 0 ? -u * u : u * u) }
        } else {
            linearise = nil
            whiteBalance = nil
            encode = nil
        }
        let values = transform.values
        if values.shadows != 0 || values.highlights != 0 {
            tone = Table(lower: 0, upper: 1, count: 4096, storage: &storage) { y in
                let dark = y * y * (1 - y) * (1 - y) * (1 - y), bright = y * y * y * (1 - y) * (1 - y)
                return ColourTransform.toneCurveScale * (values.shadows * dark + values.highlights * bright)
            }
        } else {
            tone = nil
        }
        blackPoint = Float(values.blackPoint)
        self.storage = storage
    }

    /// The colour steps for one pixel, clamped to 0…1.
    @inline(__always)
    func apply(_ r: UInt8, _ g: UInt8, _ b: UInt8) -> SIMD4<Float> {
        let scale: Float = 1 / 255
        var c = columns.0 * (Float(r) * scale) + columns.1 * (Float(g) * scale) + columns.2 * (Float(b) * scale) + offset
        if let linearise, let encode {
            var l = SIMD4<Float>(linearise(c.x), linearise(c.y), linearise(c.z), 0)
            if let w = whiteBalance { l = w.0 * l.x + w.1 * l.y + w.2 * l.z }
            // √|L| with L's sign, lane by lane.
            func signedRoot(_ v: Float) -> Float { v < 0 ? -(-v).squareRoot() : v.squareRoot() }
            c = SIMD4(encode(signedRoot(l.x)), encode(signedRoot(l.y)), encode(signedRoot(l.z)), 0)
        }
        if let tone {
            let y = min(max((c * Self.lumaWeights).sum(), 0), 1)
            c += SIMD4(repeating: tone(y))
        }
        if blackPoint > 0 { c = blackPoint + (1 - blackPoint) * c }
        return SIMD4(min(max(c.x, 0), 1), min(max(c.y, 0), 1), min(max(c.z, 0), 1), 0)
    }
}
