/// A sample the running-sum passes can average: a `SIMD4<Float>` pixel or a `Float` luma value.
protocol PassSample {
    static var zero: Self { get }
    static func + (lhs: Self, rhs: Self) -> Self
    static func - (lhs: Self, rhs: Self) -> Self
    static func * (lhs: Self, rhs: Float) -> Self
}

extension SIMD4: PassSample where Scalar == Float {
    static func * (lhs: SIMD4<Float>, rhs: Float) -> SIMD4<Float> { lhs * SIMD4(repeating: rhs) }
}
extension Float: PassSample {}

/// The spatial steps of the fast path on a width × height buffer, as running sums (O(1) per pixel
/// whatever the radius), each pass split by rows across `threads` cores. Edges are clamped.
struct Planar {
    let width: Int, height: Int, threads: Int
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

    /// One extended-box pass down each column, from `source` into `target` (different buffers).
    func vertical<V: PassSample>(_ source: UnsafePointer<V>, into target: UnsafeMutablePointer<V>,
                                 _ box: SpatialSteps.ExtendedBox) {
        let r = box.radius, alpha = Float(box.endWeight), scale = Float(1 / box.normaliser)
        let last = height - 1
        RowBands.run(count: height, threads: threads) { rows in
            let sum = UnsafeMutablePointer<V>.allocate(capacity: width)
            defer { sum.deallocate() }
            func row(_ y: Int) -> UnsafePointer<V> { source + min(max(y, 0), last) * width }
            for x in 0..<width { sum[x] = .zero }
            for d in -r...r {
                let s = row(rows.lowerBound + d)
                for x in 0..<width { sum[x] = sum[x] + s[x] }
            }
            for y in rows {
                let above = row(y - r - 1), below = row(y + r + 1), leaving = row(y - r), out = target + y * width
                for x in 0..<width {
                    out[x] = (sum[x] + (above[x] + below[x]) * alpha) * scale
                    sum[x] = sum[x] + below[x] - leaving[x]
                }
            }
        }
    }

    /// `passes` extended-box passes per axis on `buffer` (result in `buffer`), `scratch` the same size.
    func blur<V: PassSample>(_ buffer: UnsafeMutablePointer<V>, scratch: UnsafeMutablePointer<V>,
                             _ box: SpatialSteps.ExtendedBox, passes: Int) {
        horizontal(buffer, Array(repeating: box, count: passes))
        var from = buffer, to = scratch
        for _ in 0..<passes {
            vertical(from, into: to, box)
            swap(&from, &to)
        }
        if from != buffer { buffer.update(from: from, count: count) }
    }

    /// The Gaussian blur step (`SpatialSteps`): three extended-box passes per axis.
    func gaussian(_ image: UnsafeMutablePointer<SIMD4<Float>>, scratch: UnsafeMutablePointer<SIMD4<Float>>,
                  box: SpatialSteps.ExtendedBox) {
        blur(image, scratch: scratch, box, passes: SpatialSteps.blurPasses)
    }

    /// Runs `body(index range)` over every pixel, split by rows.
    func forEachPixel(_ body: (Range<Int>) -> Void) {
        RowBands.run(count: height, threads: threads) { rows in body(rows.lowerBound * width..<rows.upperBound * width) }
    }

    /// The self-guided filter of He et al. per channel (`SpatialSteps`), with box means as running sums.
    func guidedFilter(_ image: UnsafeMutablePointer<SIMD4<Float>>, scratch: UnsafeMutablePointer<SIMD4<Float>>,
                      epsilon: Float) {
        let box = SpatialSteps.ExtendedBox(radius: SpatialSteps.noiseRadius, endWeight: 0)
        let mean = UnsafeMutablePointer<SIMD4<Float>>.allocate(capacity: count)
        let squares = UnsafeMutablePointer<SIMD4<Float>>.allocate(capacity: count)
        defer {
            mean.deallocate()
            squares.deallocate()
        }
        forEachPixel { range in
            for i in range {
                mean[i] = image[i]
                squares[i] = image[i] * image[i]
            }
        }
        blur(mean, scratch: scratch, box, passes: 1)
        blur(squares, scratch: scratch, box, passes: 1)
        // a into `mean`'s place is not possible (b needs m), so: a → squares, b → mean.
        let eps = SIMD4<Float>(repeating: epsilon)
        forEachPixel { range in
            for i in range {
                let m = mean[i]
                let variance = squares[i] - m * m
                let a = variance / (variance + eps)
                squares[i] = a
                mean[i] = m - a * m
            }
        }
        blur(squares, scratch: scratch, box, passes: 1)
        blur(mean, scratch: scratch, box, passes: 1)
        forEachPixel { range in
            for i in range { image[i] = squares[i] * image[i] + mean[i] }
        }
    }

    /// Unsharp mask on luma (`SpatialSteps`).
    func sharpen(_ image: UnsafeMutablePointer<SIMD4<Float>>, scratch: UnsafeMutablePointer<SIMD4<Float>>,
                 amount: Float) {
        let luma = UnsafeMutablePointer<Float>.allocate(capacity: count)
        let blurred = UnsafeMutablePointer<Float>.allocate(capacity: 2 * count)
        defer {
            luma.deallocate()
            blurred.deallocate()
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
        blur(blurred, scratch: blurred + count, SpatialSteps.ExtendedBox(sigma: SpatialSteps.sharpenSigma),
             passes: SpatialSteps.blurPasses)
        forEachPixel { range in
            for i in range { image[i] = image[i] + SIMD4(repeating: amount * (luma[i] - blurred[i])) }
        }
    }
}
