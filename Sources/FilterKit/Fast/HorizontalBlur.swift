/// The Gaussian blur's horizontal passes (`SpatialSteps`: `passes` extended boxes), one band of rows at a time
/// as the earlier steps finish them (writing each row straight into `nextRow`): each row is blurred along itself and written to its row of `output`
/// (the frame-sized buffer the vertical passes then read, `PackedRGB` rows), so the image is written to memory once.
///
/// Rows go in pairs: the two running sums are independent chains of adds, so each waits on its previous add
/// half as often as one row alone would. Each pass reads an edge-padded line and writes the next pass's line
/// (two lines per row taking turns; the row arrives in the first) or, for the last pass, the output row. A band's
/// odd last row is paired with itself (same lines, same values).
final class HorizontalBlur {
    private let box: SpatialSteps.ExtendedBox
    private let passes: Int
    private let width: Int, pad: Int, lineLength: Int
    /// `PackedRGB` rows of `rowFloats` floats, image row `firstRow` first.
    private let output: UnsafeMutablePointer<Float>
    private let firstRow: Int
    private let rowFloats: Int
    /// Two lines for each row of a pair.
    private let lines: UnsafeMutablePointer<SIMD4<Float>>
    /// The first row of a pair, already copied into its lines, waiting for the second.
    private var pending: Int?

    /// - Parameter output: where image row y goes: `output + (y − firstRow) · rowFloats`.
    init(width: Int, box: SpatialSteps.ExtendedBox, passes: Int, output: UnsafeMutablePointer<Float>, firstRow: Int = 0)
    {
        (self.width, self.box, self.passes, self.output, self.firstRow) = (width, box, passes, output, firstRow)
        rowFloats = PackedRGB.rowFloats(width)
        pad = box.radius + 1
        lineLength = width + 2 * pad
        lines = .allocate(capacity: 4 * lineLength)
    }

    deinit { lines.deallocate() }

    /// Where the next row is to be written (`width` pixels), so the step before writes it in place, not copied.
    var nextRow: UnsafeMutablePointer<SIMD4<Float>> { (pending == nil ? lines : lines + 2 * lineLength) + pad }

    /// Row `y` has been written to `nextRow` (rows come in order); blurs it, with the row before it, once it
    /// has a pair. Returns `y` when rows up to it are now in `output`, else nil.
    @discardableResult
    func rowWritten(_ y: Int) -> Int? {
        guard let first = pending else {
            pending = y
            return nil
        }
        blurPair(first, y)
        pending = nil
        return y
    }

    /// Blurs the band's last row when it has no pair. Returns that row, or nil when there was none.
    @discardableResult
    func flush() -> Int? {
        guard let first = pending else { return nil }
        blurPair(first, first)
        pending = nil
        return first
    }

    /// The passes on rows `a` and `b` (in lines 0–1 and 2–3; `a == b` uses lines 0–1 for both); the last pass
    /// writes the output rows (`PackedRGB`).
    private func blurPair(_ a: Int, _ b: Int) {
        let width = width, pad = pad, lineLength = lineLength
        let linesA = lines, linesB = a == b ? lines : lines + 2 * lineLength
        for pass in 0..<passes {
            let pa = linesA + (pass % 2) * lineLength + pad, pb = linesB + (pass % 2) * lineLength + pad
            for x in 1...pad {
                pa[-x] = pa[0]
                pa[width - 1 + x] = pa[width - 1]
                pb[-x] = pb[0]
                pb[width - 1 + x] = pb[width - 1]
            }
            if pass == passes - 1 {
                let outA = output + (a - firstRow) * rowFloats, outB = output + (b - firstRow) * rowFloats
                blurPass(pa, pb) { x, ca, cb in
                    PackedRGB.store(ca, outA, x)
                    PackedRGB.store(cb, outB, x)
                }
            } else {
                let next = ((pass + 1) % 2) * lineLength + pad
                let outA = linesA + next, outB = linesB + next
                blurPass(pa, pb) { x, ca, cb in
                    outA[x] = ca
                    outB[x] = cb
                }
            }
        }
    }

    /// One pass along the padded lines `pa` and `pb`, handing pixel x of both to `put(x, a, b)` in order of x.
    @inline(always)
    private func blurPass(
        _ pa: UnsafePointer<SIMD4<Float>>, _ pb: UnsafePointer<SIMD4<Float>>,
        _ put: (Int, SIMD4<Float>, SIMD4<Float>) -> Void
    ) {
        let r = box.radius, alpha = Float(box.endWeight), scale = Float(1 / box.normaliser)
        if r == 0 {
            // A three-tap filter: no running sum, so no chain of dependent adds.
            let beforeA = pa - 1, beforeB = pb - 1
            for x in 0..<width {
                put(
                    x, (pa[x] + (beforeA[x] + beforeA[x &+ 2]) * alpha) * scale,
                    (pb[x] + (beforeB[x] + beforeB[x &+ 2]) * alpha) * scale)
            }
            return
        }
        var sumA = SIMD4<Float>.zero, sumB = SIMD4<Float>.zero
        for d in -r...r {
            sumA = sumA + pa[d]
            sumB = sumB + pb[d]
        }
        // Pixel x reads the samples x − r − 1 (just before its window; x − r, leaving it, is the one after) and
        // x + r + 1 (entering it) through pointers set once, so the loop has no index arithmetic and no overflow
        // checks, and its sums stay in registers.
        let beforeA = pa - (r + 1), enteringA = pa + (r + 1), beforeB = pb - (r + 1), enteringB = pb + (r + 1)
        for x in 0..<width {
            put(
                x, (sumA + (beforeA[x] + enteringA[x]) * alpha) * scale,
                (sumB + (beforeB[x] + enteringB[x]) * alpha) * scale)
            // One dependent add per sample (the difference does not wait for the sum).
            sumA = sumA + (enteringA[x] - beforeA[x &+ 1])
            sumB = sumB + (enteringB[x] - beforeB[x &+ 1])
        }
    }
}
