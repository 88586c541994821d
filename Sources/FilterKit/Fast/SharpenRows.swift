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
        // Aligned rows: the guided filter writes whole vectors.
        images = PackedRGB.allocateFloats(Self.ringRows * rowFloats)
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
    func rowWritten(
        _ t: Int, into destination: (Int) -> UnsafeMutablePointer<SIMD4<Float>>,
        emit: (Int, UnsafeMutablePointer<SIMD4<Float>>) -> Void
    ) {
        let luma = ring(-1, t)
        lumaRow(imageRow(t), into: luma)
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
                    let out = destination(y)
                    addMask(imageRow(y), luma: ring(-1, y), smooth: smooth, into: out)
                    emit(y, out)
                }
                next[pass] += 1
            }
            ready = next[pass] - 1
        }
    }

    /// The luma of each pixel of a `PackedRGB` row: R·wR + G·wG + B·wB, added in that order. Four pixels at a time
    /// from the three vectors that hold them (each lane's products and adds as one pixel alone; that `sum()` also
    /// added lane 3's weight 0 times the next pixel, which changes no sum but the sign of a zero, and no byte).
    private func lumaRow(_ image: UnsafePointer<Float>, into luma: UnsafeMutablePointer<Float>) {
        let w = weights, whole = width & ~3
        let w0 = SIMD4(w.x, w.y, w.z, w.x), w1 = SIMD4(w.y, w.z, w.x, w.y), w2 = SIMD4(w.z, w.x, w.y, w.z)
        for x in Swift.stride(from: 0, to: whole, by: 4) {
            // Pixels x … x + 3 are floats 3x … 3x + 11: R0 G0 B0 R1 | G1 B1 R2 G2 | B2 R3 G3 B3.
            let q = UnsafeRawPointer(image + 3 &* x)
            let p0 = q.loadUnaligned(as: SIMD4<Float>.self) * w0
            let p1 = q.loadUnaligned(fromByteOffset: 16, as: SIMD4<Float>.self) * w1
            let p2 = q.loadUnaligned(fromByteOffset: 32, as: SIMD4<Float>.self) * w2
            let red = SIMD4(p0[0], p0[3], p1[2], p2[1]), green = SIMD4(p0[1], p1[0], p1[3], p2[2])
            let blue = SIMD4(p0[2], p1[1], p2[0], p2[3])
            UnsafeMutableRawPointer(luma + x).storeBytes(of: red + green + blue, as: SIMD4<Float>.self)
        }
        for x in whole..<width {
            let p = PackedRGB.load(image, x) * w
            luma[x] = p.x + p.y + p.z
        }
    }

    /// Row `image` (`PackedRGB`) with the mask `amount · (luma − smooth)` added to every channel, into `out`; the
    /// masks of four pixels at a time.
    private func addMask(
        _ image: UnsafePointer<Float>, luma: UnsafePointer<Float>, smooth: UnsafePointer<Float>,
        into out: UnsafeMutablePointer<SIMD4<Float>>
    ) {
        let amount = amount, whole = width & ~3
        for x in Swift.stride(from: 0, to: whole, by: 4) {
            let l = UnsafeRawPointer(luma + x).loadUnaligned(as: SIMD4<Float>.self)
            let mask = amount * (l - UnsafeRawPointer(smooth + x).loadUnaligned(as: SIMD4<Float>.self))
            out[x] = PackedRGB.load(image, x) + SIMD4(repeating: mask[0])
            out[x &+ 1] = PackedRGB.load(image, x &+ 1) + SIMD4(repeating: mask[1])
            out[x &+ 2] = PackedRGB.load(image, x &+ 2) + SIMD4(repeating: mask[2])
            out[x &+ 3] = PackedRGB.load(image, x &+ 3) + SIMD4(repeating: mask[3])
        }
        for x in whole..<width { out[x] = PackedRGB.load(image, x) + SIMD4(repeating: amount * (luma[x] - smooth[x])) }
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
