/// The sharpen step (`SpatialSteps`: `c += amount · (Y − Ŷ)`, Ŷ the luma blurred with σ = 1 px) streamed down
/// one band of rows, so neither the luma nor its blur ever fills a frame-sized buffer.
///
/// σ = 1 is three three-tap passes per axis (an extended box of radius 0), so the mask of row y needs the
/// image rows y − 3 … y + 3: the band's input rows (`inputRows`) reach `halo` rows past each end (clamped to
/// the frame). Each image row is written into `imageRow(y)`, in order; `rowWritten(y)` then takes its luma and
/// the three horizontal passes, runs each vertical pass as far as the rows above it allow (pass k lags pass
/// k − 1 by one row), and hands every band row whose Ŷ is now known, its mask added, to `emit`. Rows live in
/// rings of `ringRows` rows (row y in slot y mod `ringRows`) that stay in cache. Same arithmetic, in the same
/// order, as running the passes over the whole frame, so the bytes do not depend on the band.
final class SharpenRows {
    static let halo = 3
    /// Rows per ring: the image and luma rings hold rows t − 3 … t; a vertical pass may run up to three rows
    /// ahead of the next one at the bottom of the frame.
    static let ringRows = 8

    let inputRows: Range<Int>
    private let band: Range<Int>
    private let width: Int, height: Int
    private let amount: Float, alpha: Float, scale: Float
    private let weights: SIMD4<Float>
    /// The ring of image rows, `PackedRGB` rows of `rowFloats` floats.
    private let images: UnsafeMutablePointer<Float>
    private let rowFloats: Int
    /// Rings of the luma (level −1 below), then the luma after the horizontal passes (level 0) and after one and
    /// two vertical passes (levels 1 and 2); then two edge-padded lines for the horizontal passes and one line
    /// for the last vertical pass (Ŷ of the row being emitted).
    private let floats: UnsafeMutablePointer<Float>
    /// The next row each vertical pass computes (pass 1, 2, 3 in lanes 0, 1, 2).
    private var next: SIMD4<Int>
    /// One past the last row each vertical pass computes.
    private let end: SIMD4<Int>

    init(band: Range<Int>, width: Int, height: Int, amount: Float) {
        let box = SpatialSteps.ExtendedBox(sigma: SpatialSteps.sharpenSigma)
        precondition(box.radius == 0 && SpatialSteps.blurPasses == Self.halo, "σ = 1: three three-tap passes")
        (self.band, self.width, self.height, self.amount) = (band, width, height, amount)
        (alpha, scale) = (Float(box.endWeight), Float(1 / box.normaliser))
        let w = ColourScience.lumaWeights
        weights = SIMD4<Float>(Float(w.x), Float(w.y), Float(w.z), 0)
        inputRows = max(0, band.lowerBound - Self.halo)..<min(height, band.upperBound + Self.halo)
        next = SIMD4(max(0, band.lowerBound - 2), max(0, band.lowerBound - 1), band.lowerBound, 0)
        end = SIMD4(min(height, band.upperBound + 2), min(height, band.upperBound + 1), band.upperBound, 0)
        rowFloats = PackedRGB.rowFloats(width)
        images = PackedRGB.allocateFloats(Self.ringRows * rowFloats)  // aligned rows: the guided filter writes whole vectors
        floats = .allocate(capacity: 4 * Self.ringRows * width + 3 * (width + 2))
    }

    deinit {
        images.deallocate()
        floats.deallocate()
    }

    /// Where image row `y` (in `inputRows`) is to be written, `PackedRGB`.
    func imageRow(_ y: Int) -> UnsafeMutablePointer<Float> { images + (y % Self.ringRows) * rowFloats }

    /// Ring `level` (−1 luma, 0 horizontal passes, 1–2 vertical passes), row `y` clamped to the frame.
    private func ring(_ level: Int, _ y: Int) -> UnsafeMutablePointer<Float> {
        floats + ((level + 1) * Self.ringRows + min(max(y, 0), height - 1) % Self.ringRows) * width
    }

    /// Image row `t` has been written: for every band row y now ready, in order, writes the row with its mask
    /// to `destination(y)` and emits `(y, that row)`.
    func rowWritten(_ t: Int, into destination: (Int) -> UnsafeMutablePointer<SIMD4<Float>>,
                    emit: (Int, UnsafeMutablePointer<SIMD4<Float>>) -> Void) {
        let image = imageRow(t), luma = ring(-1, t), weights = weights
        for x in 0..<width { luma[x] = (PackedRGB.load(image, x) * weights).sum() }  // weights lane 3 is 0
        horizontalPasses(luma, into: ring(0, t))
        let lines = floats + 4 * Self.ringRows * width, smooth = lines + 2 * (width + 2)
        var ready = t  // the last row of the level above
        for pass in 0..<3 {
            while next[pass] < end[pass] && min(next[pass] + 1, height - 1) <= ready {
                let y = next[pass]
                let out = pass == 2 ? smooth : ring(pass + 1, y)
                let above = ring(pass, y - 1), centre = ring(pass, y), below = ring(pass, y + 1)
                let alpha = alpha, scale = scale
                for x in 0..<width { out[x] = (centre[x] + (above[x] + below[x]) * alpha) * scale }
                if pass == 2 {
                    let row = imageRow(y), out = destination(y), l = ring(-1, y), amount = amount
                    for x in 0..<width { out[x] = PackedRGB.load(row, x) + SIMD4(repeating: amount * (l[x] - smooth[x])) }
                    emit(y, out)
                }
                next[pass] += 1
            }
            ready = next[pass] - 1
        }
    }

    /// The three horizontal three-tap passes of one luma row, edges clamped, through two padded lines.
    private func horizontalPasses(_ row: UnsafePointer<Float>, into out: UnsafeMutablePointer<Float>) {
        let lines = floats + 4 * Self.ringRows * width, width = width, alpha = alpha, scale = scale
        let first = lines + 1, second = lines + (width + 2) + 1
        first.update(from: row, count: width)
        for pass in 0..<3 {
            let p = pass % 2 == 0 ? first : second
            let target = pass == 2 ? out : (pass % 2 == 0 ? second : first)
            p[-1] = p[0]
            p[width] = p[width - 1]
            for x in 0..<width { target[x] = (p[x] + (p[x - 1] + p[x + 1]) * alpha) * scale }
        }
    }
}
