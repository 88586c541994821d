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

    /// One extended-box pass along each row per box, in place (each row is copied to an edge-padded line
    /// first); `prepare(row, y)`, when given, changes each row in place before its first pass.
    func horizontal<V: PassSample>(_ buffer: UnsafeMutablePointer<V>, _ boxes: [SpatialSteps.ExtendedBox],
                                   prepare: ((UnsafeMutablePointer<V>, Int) -> Void)? = nil) {
        guard let widest = boxes.map(\.radius).max() else { return }
        let pad = widest + 1
        RowBands.run(count: height, threads: threads) { rows in
            let line = UnsafeMutablePointer<V>.allocate(capacity: width + 2 * pad)
            defer { line.deallocate() }
            for y in rows {
                let row = buffer + y * width
                prepare?(row, y)
                for box in boxes {
                    let p = line + pad
                    for x in 0..<width { p[x] = row[x] }
                    for x in 1...pad {
                        p[-x] = row[0]
                        p[width - 1 + x] = row[width - 1]
                    }
                    let r = box.radius, alpha = Float(box.endWeight), scale = Float(1 / box.normaliser)
                    var sum = V.zero
                    for d in -r...r { sum = sum + p[d] }
                    for x in 0..<width {
                        let ends = (p[x - r - 1] + p[x + r + 1]) * alpha
                        row[x] = (sum + ends) * scale
                        sum = sum + p[x + r + 1] - p[x - r]
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
                    sum[x] = sum[x] + below[x] - leaving[x]
                }
            }
            start += blockRows
        }
    }

    /// `passes` extended-box passes per axis on `buffer`, `scratch` the same size; returns the buffer holding
    /// the result (`scratch`). The vertical passes run on strips of columns narrow enough that a strip's
    /// intermediate passes stay in cache (one read of `buffer`, one write of `scratch`); each block of
    /// `verticalBlockRows` rows restarts its running sums, so the result does not depend on the thread count.
    /// `prepare` is handed to the first horizontal pass. With `finish`, the last vertical pass writes each strip
    /// to a cached buffer and calls `finish(first column, columns, strip, strip stride)` instead of writing
    /// `scratch` (then left untouched).
    @discardableResult
    func blur<V: PassSample>(_ buffer: UnsafeMutablePointer<V>, scratch: UnsafeMutablePointer<V>,
                             _ box: SpatialSteps.ExtendedBox, passes: Int,
                             prepare: ((UnsafeMutablePointer<V>, Int) -> Void)? = nil,
                             finish: ((Int, Int, UnsafePointer<V>, Int) -> Void)? = nil) -> UnsafeMutablePointer<V> {
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
                var from = UnsafeMutablePointer(buffer + x0), fromStride = width
                for pass in 0..<passes {
                    let intoScratch = pass == passes - 1 && finish == nil
                    let to = intoScratch ? scratch + x0 : temporary + (pass % 2) * stripColumns * height
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
    /// added to each row first when given. Without `finish`, returns the buffer holding the result (`scratch`);
    /// with it, hands over the result strip by strip (see `blur`).
    @discardableResult
    func gaussian(_ image: UnsafeMutablePointer<SIMD4<Float>>, scratch: UnsafeMutablePointer<SIMD4<Float>>,
                  box: SpatialSteps.ExtendedBox, adding mask: SharpenMask? = nil,
                  finish: ((Int, Int, UnsafePointer<SIMD4<Float>>, Int) -> Void)? = nil)
        -> UnsafeMutablePointer<SIMD4<Float>> {
        let prepare = mask.map { mask in { (row: UnsafeMutablePointer<SIMD4<Float>>, y: Int) in mask.add(to: row, row: y) } }
        return blur(image, scratch: scratch, box, passes: SpatialSteps.blurPasses, prepare: prepare, finish: finish)
    }

    /// Runs `body(index range)` over every pixel, split by rows.
    func forEachPixel(_ body: (Range<Int>) -> Void) {
        RowBands.run(count: height, threads: threads) { rows in body(rows.lowerBound * width..<rows.upperBound * width) }
    }

    /// Rows per band of the guided filter: each band computes its own margins, so the result does not depend
    /// on how many threads share the bands, and a band's intermediate rows stay in cache.
    static let guidedBandRows = 16

    /// The self-guided filter of He et al. per channel (`SpatialSteps`), from `image` into `output`, band by
    /// band of `guidedBandRows` rows: (1) row means of I and I² for the band and 2r rows either side;
    /// (2) their column means, then a and b, for the band and r rows either side; (3) row means of a and b;
    /// (4) their column means, then `out = mean(a)·I + mean(b)`. Means are (2r+1)-sample windows with clamped
    /// edges; the intermediate rows live in per-thread band buffers, indexed by (clamped) frame row.
    func guidedFilter(_ image: UnsafePointer<SIMD4<Float>>, into output: UnsafeMutablePointer<SIMD4<Float>>,
                      epsilon: Float) {
        let r = SpatialSteps.noiseRadius, width = width, height = height, last = height - 1
        let inverse = 1 / Float(2 * r + 1), eps = SIMD4<Float>(repeating: epsilon)
        let bandRows = Self.guidedBandRows, bands = (height + bandRows - 1) / bandRows
        let capacity = (bandRows + 4 * r) * width
        RowBands.run(count: bands, threads: threads) { bandRange in
            let meanI = UnsafeMutablePointer<SIMD4<Float>>.allocate(capacity: capacity)
            let meanSquare = UnsafeMutablePointer<SIMD4<Float>>.allocate(capacity: capacity)
            let a = UnsafeMutablePointer<SIMD4<Float>>.allocate(capacity: capacity)
            let b = UnsafeMutablePointer<SIMD4<Float>>.allocate(capacity: capacity)
            let line = UnsafeMutablePointer<SIMD4<Float>>.allocate(capacity: 2 * (width + 2 * r + 2))
            // The 2r+1 rows of a column window, for each of the two quantities being averaged.
            let windowA = UnsafeMutablePointer<UnsafeMutablePointer<SIMD4<Float>>>.allocate(capacity: 2 * r + 1)
            let windowB = UnsafeMutablePointer<UnsafeMutablePointer<SIMD4<Float>>>.allocate(capacity: 2 * r + 1)
            defer {
                for buffer in [meanI, meanSquare, a, b, line] { buffer.deallocate() }
                windowA.deallocate()
                windowB.deallocate()
            }
            for band in bandRange {
                let y0 = band * bandRows, y1 = min(height, y0 + bandRows)
                // Frame rows held by the stage-1 buffers (from `first1`) and the a, b buffers (from `firstAB`).
                let first1 = max(0, y0 - 2 * r), firstAB = max(0, y0 - r)
                func row(_ base: UnsafeMutablePointer<SIMD4<Float>>, _ first: Int, _ y: Int) -> UnsafeMutablePointer<SIMD4<Float>> {
                    base + (min(max(y, 0), last) - first) * width
                }
                /// Points the windows at the 2r+1 rows around `y` of `p` and `q` (buffers starting at row `first`).
                func windows(_ p: UnsafeMutablePointer<SIMD4<Float>>, _ q: UnsafeMutablePointer<SIMD4<Float>>,
                             _ first: Int, around y: Int) {
                    for d in 0...(2 * r) {
                        windowA[d] = row(p, first, y + d - r)
                        windowB[d] = row(q, first, y + d - r)
                    }
                }
                /// The means of column `x` over the windows.
                @inline(__always) func means(_ x: Int) -> (SIMD4<Float>, SIMD4<Float>) {
                    var sumA = SIMD4<Float>.zero, sumB = SIMD4<Float>.zero
                    for d in 0...(2 * r) {
                        sumA += windowA[d][x]
                        sumB += windowB[d][x]
                    }
                    return (sumA * inverse, sumB * inverse)
                }
                // (1) row means of I and I².
                for y in first1..<min(height, y1 + 2 * r) {
                    rowMeans(image + y * width, square: true, into: row(meanI, first1, y), row(meanSquare, first1, y),
                             radius: r, inverse: inverse, line: line)
                }
                // (2) column means, then a = var / (var + ε), b = m − a·m.
                for y in firstAB..<min(height, y1 + r) {
                    let ta = row(a, firstAB, y), tb = row(b, firstAB, y)
                    windows(meanI, meanSquare, first1, around: y)
                    for x in 0..<width {
                        let (m, q) = means(x)
                        let variance = q - m * m
                        let coefficient = variance / (variance + eps)
                        ta[x] = coefficient
                        tb[x] = m - coefficient * m
                    }
                    // (3) row means of a and b, in place.
                    rowMeans(ta, square: false, into: ta, tb, radius: r, inverse: inverse, line: line, second: tb)
                }
                // (4) column means of a and b, then the output.
                for y in y0..<y1 {
                    let source = image + y * width, target = output + y * width
                    windows(a, b, firstAB, around: y)
                    for x in 0..<width {
                        let (meanA, meanB) = means(x)
                        target[x] = meanA * source[x] + meanB
                    }
                }
            }
        }
    }

    /// Row-wise (2r+1) box means of `a` and `second` (or of `a` and `a²` when `square`), edges clamped, into
    /// `outA`, `outB` (which may be the inputs: each row is copied to an edge-padded `line` first; `line`
    /// holds 2 · (width + 2r + 2) samples).
    @inline(__always)
    private func rowMeans(_ a: UnsafePointer<SIMD4<Float>>, square: Bool,
                          into outA: UnsafeMutablePointer<SIMD4<Float>>, _ outB: UnsafeMutablePointer<SIMD4<Float>>,
                          radius r: Int, inverse: Float, line: UnsafeMutablePointer<SIMD4<Float>>,
                          second: UnsafePointer<SIMD4<Float>>? = nil) {
        let pa = line + r + 1, pb = line + (width + 2 * r + 2) + r + 1
        if let second {
            for x in 0..<width {
                pa[x] = a[x]
                pb[x] = second[x]
            }
        } else {
            for x in 0..<width {
                let v = a[x]
                pa[x] = v
                pb[x] = v * v
            }
        }
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

    /// The unsharp mask on luma (`SpatialSteps`) of `image`, to be added row by row (`SharpenMask.add`).
    func sharpenMask(_ image: UnsafePointer<SIMD4<Float>>, amount: Float) -> SharpenMask {
        let luma = pool.take(Float.self, count: count)
        let blurred = pool.take(Float.self, count: 2 * count)
        let w = ColourScience.lumaWeights
        let weights = SIMD4<Float>(Float(w.x), Float(w.y), Float(w.z), 0)
        forEachPixel { range in
            for i in range {
                let y = (image[i] * weights).sum()
                luma[i] = y
                blurred[i] = y
            }
        }
        let smooth = blur(blurred, scratch: blurred + count, SpatialSteps.ExtendedBox(sigma: SpatialSteps.sharpenSigma),
                          passes: SpatialSteps.blurPasses)
        return SharpenMask(luma: luma, smooth: UnsafePointer(smooth), blurred: blurred, width: width, count: count,
                           amount: amount)
    }
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
