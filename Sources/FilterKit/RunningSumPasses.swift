/// A sample the running-sum passes can average: a `SIMD4<Float>` pixel or a `Float` luma value.
protocol PassSample {
    static var zero: Self { get }
    static func + (lhs: Self, rhs: Self) -> Self
    static func - (lhs: Self, rhs: Self) -> Self
    static func * (lhs: Self, rhs: Float) -> Self
}

extension SIMD4: PassSample where Scalar == Float {}
extension Float: PassSample {}

/// The spatial steps of the fast path on a width × height buffer, as running sums (O(1) per pixel
/// whatever the radius), each pass split by rows across `threads` cores. Edges are clamped.
struct Planar {
    let width: Int, height: Int, threads: Int
    let pool: ScratchPool
    var count: Int { width * height }

    /// One extended-box pass along each row per box, in place; `prepare(row, y)`, when given, changes each row
    /// in place before its first pass. Rows go in pairs: the two running sums are independent chains of adds,
    /// so each waits on its previous add half as often as one row alone would. Each pass reads an edge-padded
    /// line and writes the next pass's line (two lines per row taking turns; the row is copied in once) or,
    /// for the last pass, the row. A band's odd last row is paired with itself (same lines, same values).
    func horizontal<V: PassSample>(_ buffer: UnsafeMutablePointer<V>, _ boxes: [SpatialSteps.ExtendedBox],
                                   prepare: ((UnsafeMutablePointer<V>, Int) -> Void)? = nil) {
        guard let widest = boxes.map(\.radius).max() else { return }
        let pad = widest + 1, lineLength = width + 2 * pad
        RowBands.run(count: height, threads: threads) { rows in
            let lines = UnsafeMutablePointer<V>.allocate(capacity: 4 * lineLength)
            defer { lines.deallocate() }
            for y in Swift.stride(from: rows.lowerBound, to: rows.upperBound, by: 2) {
                let y2 = min(y + 1, rows.upperBound - 1)
                let rowA = buffer + y * width, rowB = buffer + y2 * width
                let linesA = lines, linesB = y2 == y ? lines : lines + 2 * lineLength
                prepare?(rowA, y)
                if y2 != y { prepare?(rowB, y2) }
                (linesA + pad).update(from: rowA, count: width)
                (linesB + pad).update(from: rowB, count: width)
                for (pass, box) in boxes.enumerated() {
                    let pa = linesA + (pass % 2) * lineLength + pad, pb = linesB + (pass % 2) * lineLength + pad
                    let last = pass == boxes.count - 1, next = ((pass + 1) % 2) * lineLength + pad
                    let outA = last ? rowA : linesA + next, outB = last ? rowB : linesB + next
                    for x in 1...pad {
                        pa[-x] = pa[0]
                        pa[width - 1 + x] = pa[width - 1]
                        pb[-x] = pb[0]
                        pb[width - 1 + x] = pb[width - 1]
                    }
                    let r = box.radius, alpha = Float(box.endWeight), scale = Float(1 / box.normaliser)
                    if r == 0 {
                        // A three-tap filter: no running sum, so no chain of dependent adds (and it vectorises).
                        for x in 0..<width { outA[x] = (pa[x] + (pa[x - 1] + pa[x + 1]) * alpha) * scale }
                        for x in 0..<width { outB[x] = (pb[x] + (pb[x - 1] + pb[x + 1]) * alpha) * scale }
                        continue
                    }
                    var sumA = V.zero, sumB = V.zero
                    for d in -r...r {
                        sumA = sumA + pa[d]
                        sumB = sumB + pb[d]
                    }
                    for x in 0..<width {
                        outA[x] = (sumA + (pa[x - r - 1] + pa[x + r + 1]) * alpha) * scale
                        outB[x] = (sumB + (pb[x - r - 1] + pb[x + r + 1]) * alpha) * scale
                        // One dependent add per sample (the difference does not wait for the sum).
                        sumA = sumA + (pa[x + r + 1] - pa[x - r])
                        sumB = sumB + (pb[x + r + 1] - pb[x - r])
                    }
                }
            }
        }
    }

    /// Rows per block of a vertical pass: each block restarts its running sums, so the result does not
    /// depend on how many threads share the blocks.
    static let verticalBlockRows = 64

    /// One extended-box pass down `columns` columns, from `source` into `target` (different buffers, each
    /// with its own row stride in elements), over every block of `verticalBlockRows` rows.
    @inline(__always)
    func vertical<V: PassSample>(_ source: UnsafePointer<V>, stride sourceStride: Int,
                                 into target: UnsafeMutablePointer<V>, stride targetStride: Int, columns: Int,
                                 sum: UnsafeMutablePointer<V>, _ box: SpatialSteps.ExtendedBox) {
        let r = box.radius, alpha = Float(box.endWeight), scale = Float(1 / box.normaliser)
        let last = height - 1, blockRows = Self.verticalBlockRows
        func row(_ y: Int) -> UnsafePointer<V> { source + min(max(y, 0), last) * sourceStride }
        if r == 0 {
            // A three-tap filter (as in `horizontal`).
            for y in 0..<height {
                let above = row(y - 1), centre = row(y), below = row(y + 1), out = target + y * targetStride
                for x in 0..<columns { out[x] = (centre[x] + (above[x] + below[x]) * alpha) * scale }
            }
            return
        }
        var start = 0
        while start < height {
            let rows = start..<min(height, start + blockRows)
            for x in 0..<columns { sum[x] = .zero }
            for d in -r...r {
                let s = row(rows.lowerBound + d)
                for x in 0..<columns { sum[x] = sum[x] + s[x] }
            }
            for y in rows {
                let above = row(y - r - 1), below = row(y + r + 1), leaving = row(y - r), out = target + y * targetStride
                for x in 0..<columns {
                    out[x] = (sum[x] + (above[x] + below[x]) * alpha) * scale
                    sum[x] = sum[x] + (below[x] - leaving[x])
                }
            }
            start += blockRows
        }
    }

    /// `passes` extended-box passes per axis on `buffer`, `scratch` the same size; returns the buffer holding
    /// the result (`scratch`; nil with `finish`). The vertical passes run on strips of columns narrow enough that a strip's
    /// intermediate passes stay in cache (one read of `buffer`, one write of `scratch`); each block of
    /// `verticalBlockRows` rows restarts its running sums, so the result does not depend on the thread count.
    /// `prepare` is handed to the first horizontal pass. With `finish`, the last vertical pass writes each strip
    /// to a cached buffer and calls `finish(first column, columns, strip, strip stride)` instead of writing
    /// `scratch` (then not needed).
    @discardableResult
    func blur<V: PassSample>(_ buffer: UnsafeMutablePointer<V>, scratch: UnsafeMutablePointer<V>?,
                             _ box: SpatialSteps.ExtendedBox, passes: Int,
                             prepare: ((UnsafeMutablePointer<V>, Int) -> Void)? = nil,
                             finish: ((Int, Int, UnsafePointer<V>, Int) -> Void)? = nil) -> UnsafeMutablePointer<V>? {
        precondition(scratch != nil || finish != nil, "the last vertical pass writes to scratch or to finish")
        horizontal(buffer, Array(repeating: box, count: passes), prepare: prepare)
        let stripColumns = max(8, 512 / MemoryLayout<V>.stride)
        let strips = (width + stripColumns - 1) / stripColumns
        let width = self.width, height = self.height
        RowBands.run(count: strips, threads: threads) { stripRange in
            let temporary = UnsafeMutablePointer<V>.allocate(capacity: 2 * stripColumns * height)
            let sum = UnsafeMutablePointer<V>.allocate(capacity: stripColumns)
            defer {
                temporary.deallocate()
                sum.deallocate()
            }
            for strip in stripRange {
                let x0 = strip * stripColumns, columns = min(stripColumns, width - x0)
                // The strip is first copied out of `buffer` by a plain copy: its rows lie a whole row apart (a new
                // page each, which the prefetchers do not follow), and a copy keeps many more of those loads in
                // flight than the first pass's arithmetic did. The passes then alternate between the temporaries.
                var from = temporary + (passes % 2) * stripColumns * height, fromStride = stripColumns
                for y in 0..<height { (from + y * stripColumns).update(from: buffer + x0 + y * width, count: columns) }
                for pass in 0..<passes {
                    let intoScratch = pass == passes - 1 && finish == nil
                    let to = intoScratch ? scratch! + x0 : temporary + ((pass + passes + 1) % 2) * stripColumns * height
                    let toStride = intoScratch ? width : stripColumns
                    vertical(from, stride: fromStride, into: to, stride: toStride, columns: columns, sum: sum, box)
                    from = to
                    fromStride = toStride
                }
                finish?(x0, columns, from, fromStride)
            }
        }
        return scratch
    }

    /// The Gaussian blur step (`SpatialSteps`): three extended-box passes per axis, with the sharpen mask
    /// added to each row first when given; hands over the result strip by strip (`finish`, see `blur`).
    /// `image` is blurred horizontally in place.
    func gaussian(_ image: UnsafeMutablePointer<SIMD4<Float>>, box: SpatialSteps.ExtendedBox, adding mask: SharpenMask? = nil,
                  finish: @escaping (Int, Int, UnsafePointer<SIMD4<Float>>, Int) -> Void) {
        let prepare = mask.map { mask in { (row: UnsafeMutablePointer<SIMD4<Float>>, y: Int) in mask.add(to: row, row: y) } }
        blur(image, scratch: nil, box, passes: SpatialSteps.blurPasses, prepare: prepare, finish: finish)
    }

    /// The self-guided filter of He et al. per channel (`SpatialSteps`) of the image whose rows `colours(y, row)`
    /// writes (the colour step, run here so the unfiltered image never goes to memory), into `output`, and the
    /// output's luma into `luma` when given (for the sharpen mask), each band of rows in one sweep down the
    /// frame: (1) row means of I and I²; (2) their column means, then a and
    /// b; (3) row means of a and b; (4) their column means, then `out = mean(a)·I + mean(b)`. Means are
    /// (2r+1)-sample windows with clamped edges, summed directly, so a row's output does not depend on where
    /// the bands start. Stages 1 and 3 keep their last 2r+1 rows in small rings (row y in slot y mod 2r+1) that
    /// stay in cache, as do the rows of I (for stage 4); a band recomputes only the 2r rows of stage 1 and r
    /// rows of stage 3 above it.
    func guidedFilter(_ colours: (Int, UnsafeMutablePointer<SIMD4<Float>>) -> Void,
                      into output: UnsafeMutablePointer<SIMD4<Float>>, epsilon: Float, luma: LumaBuffers?) {
        let r = SpatialSteps.noiseRadius, width = width, height = height, last = height - 1, window = 2 * r + 1
        let inverse = 1 / Float(window), eps = SIMD4<Float>(repeating: epsilon)
        RowBands.run(count: height, threads: threads) { band in
            // Rings of `window` rows: stage 1 (means of I and I²), stage 3 (means of a and b), and I.
            let ring = UnsafeMutablePointer<SIMD4<Float>>.allocate(capacity: 5 * window * width)
            let line = UnsafeMutablePointer<SIMD4<Float>>.allocate(capacity: 2 * (width + 2 * r + 2))
            defer {
                ring.deallocate()
                line.deallocate()
            }
            let meanI = ring, meanSquare = ring + window * width, a = ring + 2 * window * width, b = ring + 3 * window * width
            let image = ring + 4 * window * width
            func slot(_ base: UnsafeMutablePointer<SIMD4<Float>>, _ y: Int) -> UnsafeMutablePointer<SIMD4<Float>> {
                base + (min(max(y, 0), last) % window) * width
            }
            /// The column windows around row `y` of the rings `p` and `q`.
            func windows(_ p: UnsafeMutablePointer<SIMD4<Float>>, _ q: UnsafeMutablePointer<SIMD4<Float>>,
                         around y: Int) -> (ColumnWindow, ColumnWindow) {
                (ColumnWindow { slot(p, y + $0 - r) }, ColumnWindow { slot(q, y + $0 - r) })
            }
            /// Stage 1 for row y (after the colour step).
            func stage1(_ y: Int) {
                let row = slot(image, y)
                colours(y, row)
                rowMeans(into: slot(meanI, y), slot(meanSquare, y), radius: r, inverse: inverse, line: line) { i, square in
                    for x in 0..<width {
                        let v = row[x]
                        i[x] = v
                        square[x] = v * v
                    }
                }
            }
            /// Stages 2 and 3 for row y (stage 1 done up to row y + r).
            func stage23(_ y: Int) {
                let (rowsI, rowsSquare) = windows(meanI, meanSquare, around: y)
                rowMeans(into: slot(a, y), slot(b, y), radius: r, inverse: inverse, line: line) { ta, tb in
                    for x in 0..<width {
                        let m = rowsI.sum(x) * inverse, q = rowsSquare.sum(x) * inverse
                        let variance = q - m * m
                        let coefficient = variance / (variance + eps)
                        ta[x] = coefficient
                        tb[x] = m - coefficient * m
                    }
                }
            }
            // Sweep: stage 1 for row t, stages 2–3 for row t − r, stage 4 for row t − 2r.
            let first = band.lowerBound
            for t in (first - 2 * r)..<(band.upperBound + 2 * r) {
                if t >= 0 && t < height { stage1(t) }
                let u = t - r
                if u >= max(0, first - r) && u < height { stage23(u) }
                let y = t - 2 * r
                guard band.contains(y) else { continue }
                // Stage 4: column means of a and b, then the output.
                let source = slot(image, y), target = output + y * width
                let (rowsA, rowsB) = windows(a, b, around: y)
                for x in 0..<width {
                    let meanA = rowsA.sum(x) * inverse, meanB = rowsB.sum(x) * inverse
                    target[x] = meanA * source[x] + meanB
                }
                luma?.store(target, y: y)
            }
        }
    }

    /// Row-wise (2r+1) box means of two rows of samples that `fill(a, b)` writes to `a[0..<width]` and
    /// `b[0..<width]` (inside an edge-padded `line` of 2 · (width + 2r + 2) samples, so the rows are computed
    /// straight into it), edges clamped, into `outA`, `outB`.
    @inline(__always)
    private func rowMeans(into outA: UnsafeMutablePointer<SIMD4<Float>>, _ outB: UnsafeMutablePointer<SIMD4<Float>>,
                          radius r: Int, inverse: Float, line: UnsafeMutablePointer<SIMD4<Float>>,
                          _ fill: (UnsafeMutablePointer<SIMD4<Float>>, UnsafeMutablePointer<SIMD4<Float>>) -> Void) {
        let pa = line + r + 1, pb = line + (width + 2 * r + 2) + r + 1
        fill(pa, pb)
        for x in 1...(r + 1) {
            pa[-x] = pa[0]
            pb[-x] = pb[0]
            pa[width - 1 + x] = pa[width - 1]
            pb[width - 1 + x] = pb[width - 1]
        }
        var sumA = SIMD4<Float>.zero, sumB = SIMD4<Float>.zero
        for d in -r...r {
            sumA += pa[d]
            sumB += pb[d]
        }
        for x in 0..<width {
            outA[x] = sumA * inverse
            outB[x] = sumB * inverse
            sumA += pa[x + r + 1] - pa[x - r]
            sumB += pb[x + r + 1] - pb[x - r]
        }
    }

    /// The unsharp mask on luma (`SpatialSteps`) of the image whose luma `buffers` holds (every row stored),
    /// to be added row by row (`SharpenMask.add`); the mask owns the buffers from here.
    func sharpenMask(_ buffers: LumaBuffers, amount: Float) -> SharpenMask {
        let blurred = buffers.blurred
        let smooth = blur(blurred, scratch: blurred + count, SpatialSteps.ExtendedBox(sigma: SpatialSteps.sharpenSigma),
                          passes: SpatialSteps.blurPasses)!
        return SharpenMask(luma: buffers.luma, smooth: UnsafePointer(smooth), blurred: blurred, width: width,
                           count: count, amount: amount)
    }
}

/// The sharpen step's input: the image's Rec. 709 luma, stored row by row by whichever pass writes the image
/// (so no pass reads the image back for it), twice: `luma` keeps it, `blurred` (2 · count floats, from the
/// `ScratchPool`) is blurred in place by `Planar.sharpenMask`.
struct LumaBuffers: @unchecked Sendable {  // raw buffers the render call owns; rows are stored by disjoint bands
    let luma: UnsafeMutablePointer<Float>
    let blurred: UnsafeMutablePointer<Float>
    let width: Int
    let weights: SIMD4<Float>

    init(width: Int, height: Int, pool: ScratchPool) {
        self.width = width
        luma = pool.take(Float.self, count: width * height)
        blurred = pool.take(Float.self, count: 2 * width * height)
        let w = ColourScience.lumaWeights
        weights = SIMD4<Float>(Float(w.x), Float(w.y), Float(w.z), 0)
    }

    /// Stores the luma of image row `y`.
    @inline(always)
    func store(_ row: UnsafePointer<SIMD4<Float>>, y: Int) {
        let l = luma + y * width, b = blurred + y * width, weights = weights
        for x in 0..<width {
            let value = (row[x] * weights).sum()
            l[x] = value
            b[x] = value
        }
    }
}

/// The five rows of a guided-filter column window (r = `SpatialSteps.noiseRadius` = 2), as five values rather
/// than an array: the inner loop then keeps the row pointers in registers and loads only samples.
struct ColumnWindow {
    let r0, r1, r2, r3, r4: UnsafePointer<SIMD4<Float>>

    /// `row(d)` is the d-th row of the window, d in 0…4.
    @inline(__always)
    init(_ row: (Int) -> UnsafeMutablePointer<SIMD4<Float>>) {
        precondition(SpatialSteps.noiseRadius == 2, "ColumnWindow holds the 2r + 1 = 5 rows of r = 2")
        (r0, r1, r2, r3, r4) = (UnsafePointer(row(0)), UnsafePointer(row(1)), UnsafePointer(row(2)),
                                UnsafePointer(row(3)), UnsafePointer(row(4)))
    }

    /// The sum of column `x` over the window, top row first.
    @inline(always)
    func sum(_ x: Int) -> SIMD4<Float> { r0[x] + r1[x] + r2[x] + r3[x] + r4[x] }
}

/// The sharpen step's luma and blurred luma for a frame, in buffers from the `ScratchPool`: `add` puts
/// `amount · (Y − Ŷ)` on every channel of one row.
struct SharpenMask: @unchecked Sendable {  // read-only raw buffers the render call owns
    let luma: UnsafeMutablePointer<Float>
    let smooth: UnsafePointer<Float>
    /// The pool buffer that holds `smooth` (2 · count floats).
    let blurred: UnsafeMutablePointer<Float>
    let width: Int, count: Int
    let amount: Float

    @inline(always)
    func add(to row: UnsafeMutablePointer<SIMD4<Float>>, row y: Int) {
        let l = luma + y * width, s = smooth + y * width, amount = amount
        for x in 0..<width { row[x] = row[x] + SIMD4(repeating: amount * (l[x] - s[x])) }
    }

    func release(to pool: ScratchPool) {
        pool.give(luma, count: count)
        pool.give(blurred, count: 2 * count)
    }
}
