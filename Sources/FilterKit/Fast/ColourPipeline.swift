/// The colour steps of a `ColourTransform` evaluated per pixel in `Float`, for presets where no 3D LUT is
/// accurate enough (see `FilterRenderer.ColourMethod.perPixel`).
///
/// It follows the transform's structure exactly: the affine colour controls as three multiply-adds on a
/// `SIMD4<Float>`; the sRGB decode (× exposure gain) as a 1D table with linear interpolation; the
/// white-balance matrix as three multiply-adds; then `ColourFinish` (encode, tone curve, black point, clamp).
/// Table steps are fine enough that the interpolation error stays below 10⁻³ code values.
struct ColourPipeline: Sendable {
    let columns: (SIMD4<Float>, SIMD4<Float>, SIMD4<Float>)
    let offset: SIMD4<Float>
    let linearise: ColourTable?
    let whiteBalance: (SIMD4<Float>, SIMD4<Float>, SIMD4<Float>)?
    let finish: ColourFinish
    /// Owns the tables' samples.
    let storage: [PinnedBuffer<Float>]

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
        if transform.usesLinearLight {
            let gain = transform.exposureGain
            linearise = ColourTable(lower: yLower, upper: yUpper, count: 8192, storage: &storage) {
                ColourScience.decode($0) * gain
            }
            var bound = max(abs(ColourScience.decode(yLower)), abs(ColourScience.decode(yUpper))) * gain
            if let w = transform.whiteBalance?.rows {
                let rows = [w.0, w.1, w.2]
                bound *= rows.map { abs($0.x) + abs($0.y) + abs($0.z) }.max()!
                whiteBalance = (
                    f(SIMD3(w.0.x, w.1.x, w.2.x)), f(SIMD3(w.0.y, w.1.y, w.2.y)), f(SIMD3(w.0.z, w.1.z, w.2.z))
                )
            } else {
                whiteBalance = nil
            }
            finish = ColourFinish(transform, linearBound: bound, storage: &storage)
        } else {
            linearise = nil
            whiteBalance = nil
            finish = ColourFinish(transform, linearBound: nil, storage: &storage)
        }
        self.storage = storage
    }

    /// The colour steps for one pixel, clamped to 0…1.
    @inline(always)
    func apply(_ r: UInt8, _ g: UInt8, _ b: UInt8) -> SIMD4<Float> {
        apply(Channels(SIMD4(repeating: Float(r)), SIMD4(repeating: Float(g)), SIMD4(repeating: Float(b)))).pixel(0)
    }

    /// The colour steps for four pixels at once (one per lane), clamped to 0…1.
    @inline(always)
    func apply(_ pixels: Channels) -> Channels {
        var c = pixels.mixed(columns.0 * (1 / 255), columns.1 * (1 / 255), columns.2 * (1 / 255)) + offset.x
        if let linearise {
            c = Channels(linearise(c.red), linearise(c.green), linearise(c.blue))
            if let w = whiteBalance { c = c.mixed(w.0, w.1, w.2) }
        }
        return finish.apply(c)
    }
}
