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

    /// One extended-box pass along each row, in place (each row is copied to an edge-padded line first).
    func horizontal<V: PassSample>(_ buffer: UnsafeMutablePointer<V>, _ boxes: [SpatialSteps.ExtendedBox]) {
        guard let widest = boxes.map(\.radius).max() else { return }
        let pad = widest + 1
        RowBands.run(count: height, threads: threads) { rows in
            let line = UnsafeMutablePointer<V>.allocate(capacity: width + 2 * pad)
            defer { line.deallocate() }
            for y in rows {
                let row = buffer + y * width
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
    func blur<V: PassSample>(_ buffer: UnsafeMutablePointer<V>, scratch: UnsafeMutablePointer<V>,
                             _ box: SpatialSteps.ExtendedBox, passes: Int) -> UnsafeMutablePointer<V> {
        horizontal(buffer, Array(repeating: box, count: passes))
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
                    let lastPass = pass == passes - 1
                    let to = lastPass ? scratch + x0 : temporary + (pass % 2) * stripColumns * height
                    let toStride = lastPass ? width : stripColumns
                    vertical(from, stride: fromStride, into: to, stride: toStride, columns: columns, sum: sum, box)
                    from = to
                    fromStride = toStride
                }
            }
        }
        return scratch
    }

    /// The Gaussian blur step (`SpatialSteps`): three extended-box passes per axis. Returns the buffer
    /// holding the result (`image` or `scratch`).
    func gaussian(_ image: UnsafeMutablePointer<SIMD4<Float>>, scratch: UnsafeMutablePointer<SIMD4<Float>>,
                  box: SpatialSteps.ExtendedBox) -> UnsafeMutablePointer<SIMD4<Float>> {
        blur(image, scratch: scratch, box, passes: SpatialSteps.blurPasses)
    }

    /// Runs `body(index range)` over every pixel, split by rows.
    func forEachPixel(_ body: (Range<Int>) -> Void) {
        RowBands.run(count: height, threads: threads) { rows in body(rows.lowerBound * width..<rows.upperBound * width) }
    }

    /// The self-guided filter of He et al. per channel (`SpatialSteps`) in four fused passes:
    /// (1) row sums of I and I²; (2) column sums of those, then a and b per pixel, in the same sweep;
    /// (3) row sums of a and b; (4) column sums of those, then `out = mean(a)·I + mean(b)` written over
    /// `image` in the same sweep. Each column pass reads one pair of buffers and writes another, so blocks
    /// of rows can run in parallel without a separate write-back pass.
    func guidedFilter(_ image: UnsafeMutablePointer<SIMD4<Float>>, scratch: UnsafeMutablePointer<SIMD4<Float>>,
                      epsilon: Float) {
        let r = SpatialSteps.noiseRadius
        let inverse = 1 / Float(2 * r + 1)
        let first = scratch, second = pool.take(SIMD4<Float>.self, count: count)
        let third = pool.take(SIMD4<Float>.self, count: count), fourth = pool.take(SIMD4<Float>.self, count: count)
        defer {
            pool.give(second, count: count)
            pool.give(third, count: count)
            pool.give(fourth, count: count)
        }
        // (1) image → first = row mean of I, second = row mean of I².
        rowMeans(image, image, into: first, second, radius: r, inverse: inverse, square: true)
        // (2) column means of first, second → a into third, b into fourth.
        columnMeans(first, second, radius: r, inverse: inverse, finish: .coefficients(epsilon: epsilon, a: third, b: fourth))
        // (3) row means of a and b, in place.
        rowMeans(third, fourth, into: third, fourth, radius: r, inverse: inverse, square: false)
        // (4) column means, then the output over `image`.
        columnMeans(third, fourth, radius: r, inverse: inverse, finish: .output(image))
    }

    /// Row-wise (2r+1) box means of `a` and `b` (or of `a` and `a²` when `square`), edges clamped, into
    /// `outA`, `outB` (which may be `a`, `b`: each row is copied to an edge-padded line first).
    private func rowMeans(_ a: UnsafeMutablePointer<SIMD4<Float>>, _ b: UnsafeMutablePointer<SIMD4<Float>>,
                          into outA: UnsafeMutablePointer<SIMD4<Float>>, _ outB: UnsafeMutablePointer<SIMD4<Float>>,
                          radius r: Int, inverse: Float, square: Bool) {
        RowBands.run(count: height, threads: threads) { rows in
            let lineA = UnsafeMutablePointer<SIMD4<Float>>.allocate(capacity: width + 2 * r + 2)
            let lineB = UnsafeMutablePointer<SIMD4<Float>>.allocate(capacity: width + 2 * r + 2)
            defer {
                lineA.deallocate()
                lineB.deallocate()
            }
            let pa = lineA + r + 1, pb = lineB + r + 1
            for y in rows {
                let rowA = a + y * width, rowB = b + y * width
                if square {
                    for x in 0..<width {
                        let v = rowA[x]
                        pa[x] = v
                        pb[x] = v * v
                    }
                } else {
                    for x in 0..<width {
                        pa[x] = rowA[x]
                        pb[x] = rowB[x]
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
                let targetA = outA + y * width, targetB = outB + y * width
                for x in 0..<width {
                    targetA[x] = sumA * inverse
                    targetB[x] = sumB * inverse
                    sumA += pa[x + r + 1] - pa[x - r]
                    sumB += pb[x + r + 1] - pb[x - r]
                }
            }
        }
    }

    /// What a column pass of the guided filter does with each pixel's pair of means.
    private enum ColumnFinish {
        /// `a = var / (var + ε)`, `b = m − a·m` from the means of I and I², written to `a` and `b`.
        case coefficients(epsilon: Float, a: UnsafeMutablePointer<SIMD4<Float>>, b: UnsafeMutablePointer<SIMD4<Float>>)
        /// `image = mean(a)·image + mean(b)`.
        case output(UnsafeMutablePointer<SIMD4<Float>>)
    }

    /// Column-wise (2r+1) box means of `a` and `b`, edges clamped, finished per pixel as `finish` says
    /// (into buffers other than `a` and `b`).
    private func columnMeans(_ a: UnsafeMutablePointer<SIMD4<Float>>, _ b: UnsafeMutablePointer<SIMD4<Float>>,
                             radius r: Int, inverse: Float, finish: ColumnFinish) {
        let last = height - 1, blockRows = Self.verticalBlockRows
        let blocks = (height + blockRows - 1) / blockRows
        RowBands.run(count: blocks, threads: threads) { blockRange in
            let sumA = UnsafeMutablePointer<SIMD4<Float>>.allocate(capacity: width)
            let sumB = UnsafeMutablePointer<SIMD4<Float>>.allocate(capacity: width)
            defer {
                sumA.deallocate()
                sumB.deallocate()
            }
            func row(_ base: UnsafeMutablePointer<SIMD4<Float>>, _ y: Int) -> UnsafeMutablePointer<SIMD4<Float>> {
                base + min(max(y, 0), last) * width
            }
            for block in blockRange {
                let rows = (block * blockRows)..<min(height, (block + 1) * blockRows)
                for x in 0..<width {
                    sumA[x] = .zero
                    sumB[x] = .zero
                }
                for d in -r...r {
                    let ra = row(a, rows.lowerBound + d), rb = row(b, rows.lowerBound + d)
                    for x in 0..<width {
                        sumA[x] += ra[x]
                        sumB[x] += rb[x]
                    }
                }
                for y in rows {
                    let inA = row(a, y + r + 1), outA = row(a, y - r), inB = row(b, y + r + 1), outB = row(b, y - r)
                    let offset = y * width
                    switch finish {
                    case let .coefficients(epsilon, targetA, targetB):
                        let eps = SIMD4<Float>(repeating: epsilon)
                        let ta = targetA + offset, tb = targetB + offset
                        for x in 0..<width {
                            let m = sumA[x] * inverse, q = sumB[x] * inverse
                            let variance = q - m * m
                            let coefficient = variance / (variance + eps)
                            ta[x] = coefficient
                            tb[x] = m - coefficient * m
                            sumA[x] += inA[x] - outA[x]
                            sumB[x] += inB[x] - outB[x]
                        }
                    case let .output(image):
                        let target = image + offset
                        for x in 0..<width {
                            let meanA = sumA[x] * inverse, meanB = sumB[x] * inverse
                            target[x] = meanA * target[x] + meanB
                            sumA[x] += inA[x] - outA[x]
                            sumB[x] += inB[x] - outB[x]
                        }
                    }
                }
            }
        }
    }

    /// Unsharp mask on luma (`SpatialSteps`).
    func sharpen(_ image: UnsafeMutablePointer<SIMD4<Float>>, scratch: UnsafeMutablePointer<SIMD4<Float>>,
                 amount: Float) {
        let luma = pool.take(Float.self, count: count)
        let blurred = pool.take(Float.self, count: 2 * count)
        defer {
            pool.give(luma, count: count)
            pool.give(blurred, count: 2 * count)
        }
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
        forEachPixel { range in
            for i in range { image[i] = image[i] + SIMD4(repeating: amount * (luma[i] - smooth[i])) }
        }
    }
}
