/// The fast path: the colour steps through the `ColourLUT`, the spatial steps as running-sum passes over
/// `SIMD4<Float>` pixels (lane 3 unused), each pass split by rows across cores. Same formulas as
/// `ReferenceRenderer`, in `Float`.
enum FastRenderer {
    static func render(_ source: Frame.Plane, into output: inout Frame.Plane, width: Int, height: Int,
                       renderer: FilterRenderer) {
        let values = renderer.values, threads = renderer.threads
        let lutView = renderer.lut.map(LUTView.init)
        let pipeline = renderer.pipeline
        source.bytes.withUnsafeBufferPointer { sourceBuffer in
            output.bytes.withUnsafeMutableBufferPointer { outputBuffer in
                let src = sourceBuffer.baseAddress!, dst = outputBuffer.baseAddress!
                let srcStride = source.bytesPerRow, dstStride = output.bytesPerRow
                guard values.hasSpatialAdjustments else {
                    // Colour only: bytes → LUT → bytes, one pass.
                    RowBands.run(count: height, threads: threads) { rows in
                        for y in rows {
                            let s = src + y * srcStride, d = dst + y * dstStride
                            if let lut = lutView {
                                for o in stride(from: 0, to: width * 4, by: 4) {
                                    storeBytes(lut.lookup(s[o], s[o + 1], s[o + 2]), alpha: s[o + 3], to: d + o)
                                }
                            } else if let pipeline {
                                for o in stride(from: 0, to: width * 4, by: 4) {
                                    storeBytes(pipeline.apply(s[o], s[o + 1], s[o + 2]), alpha: s[o + 3], to: d + o)
                                }
                            }
                        }
                    }
                    return
                }
                let count = width * height
                let pool = renderer.scratch
                let image = pool.take(SIMD4<Float>.self, count: count)
                let scratch = pool.take(SIMD4<Float>.self, count: count)
                defer {
                    pool.give(image, count: count)
                    pool.give(scratch, count: count)
                }
                let frame = Planar(width: width, height: height, threads: threads, pool: pool)
                var current = image  // the buffer holding the image so far
                // 1. colour steps (or just bytes → floats).
                RowBands.run(count: height, threads: threads) { rows in
                    let scale = Float(1) / 255
                    for y in rows {
                        let s = src + y * srcStride, d = image + y * width
                        if let lut = lutView {
                            for x in 0..<width { d[x] = lut.lookup(s[4 * x], s[4 * x + 1], s[4 * x + 2]) }
                        } else if let pipeline {
                            for x in 0..<width { d[x] = pipeline.apply(s[4 * x], s[4 * x + 1], s[4 * x + 2]) }
                        } else {
                            for x in 0..<width {
                                d[x] = SIMD4(Float(s[4 * x]), Float(s[4 * x + 1]), Float(s[4 * x + 2]), 0) * scale
                            }
                        }
                    }
                }
                // 2. noise reduction.
                if values.noiseReduction > 0 {
                    frame.guidedFilter(image, scratch: scratch,
                                       epsilon: Float(SpatialSteps.noiseEpsilon(values.noiseReduction)))
                }
                // 3. sharpen.
                if values.sharpness > 0 {
                    frame.sharpen(image, scratch: scratch, amount: Float(values.sharpness))
                }
                // 4. blur.
                if values.blur > 0 {
                    current = frame.gaussian(image, scratch: scratch, box: SpatialSteps.ExtendedBox(sigma: values.blur))
                }
                // 5. vignette and back to bytes.
                let result = current
                let vignette = values.vignette
                let halfDiagonalSquared = (Double(width) * Double(width) + Double(height) * Double(height)) / 4
                let k = Float(SpatialSteps.vignetteScale * vignette)
                RowBands.run(count: height, threads: threads) { rows in
                    // ρ² = dx²/h² + dy²/h²: the column term once per band, the row term once per row.
                    let columnTerm = UnsafeMutablePointer<Float>.allocate(capacity: width)
                    defer { columnTerm.deallocate() }
                    for x in 0..<width {
                        let dx = Float(x) + 0.5 - Float(width) / 2
                        columnTerm[x] = dx * dx / Float(halfDiagonalSquared)
                    }
                    for y in rows {
                        let s = src + y * srcStride, d = dst + y * dstStride, row = result + y * width
                        if vignette > 0 {
                            let dy = Double(y) + 0.5 - Double(height) / 2
                            let dy2 = Float(dy * dy / halfDiagonalSquared)
                            for x in 0..<width {
                                let rho2 = columnTerm[x] + dy2
                                storeBytes(row[x] * (1 - k * rho2 * rho2), alpha: s[x * 4 + 3], to: d + x * 4)
                            }
                        } else {
                            for x in 0..<width { storeBytes(row[x], alpha: s[x * 4 + 3], to: d + x * 4) }
                        }
                    }
                }
            }
        }
    }

    /// Clamps to 0…1, scales to 0…255, rounds half up, and writes R, G, B and the given alpha.
    @inline(__always)
    static func storeBytes(_ c: SIMD4<Float>, alpha: UInt8, to d: UnsafeMutablePointer<UInt8>) {
        // Written out lane by lane: a call to `clamp01` here was not always inlined.
        d[0] = UInt8(truncatingIfNeeded: Int32(min(max(c.x, 0), 1) * 255 + 0.5))
        d[1] = UInt8(truncatingIfNeeded: Int32(min(max(c.y, 0), 1) * 255 + 0.5))
        d[2] = UInt8(truncatingIfNeeded: Int32(min(max(c.z, 0), 1) * 255 + 0.5))
        d[3] = alpha
    }
}

/// Raw-pointer access to a `ColourLUT` for the inner loop (the LUT outlives every use).
struct LUTView {
    let table: UnsafePointer<SIMD4<Float>>
    let offsets: UnsafePointer<SIMD3<Int32>>  // per code: (r, g·n, b·n²) offsets of the cell's lower corner
    let weights: UnsafePointer<SIMD4<Float>>
    let size: Int

    /// The caller keeps `lut` alive while the view is used (the renderer owns it).
    init(_ lut: ColourLUT) {
        size = lut.size
        table = UnsafePointer(lut.tableStorage.pointer)
        offsets = UnsafePointer(lut.offsetStorage.pointer)
        weights = UnsafePointer(lut.weightStorage.pointer)
    }

    /// Trilinear interpolation of the eight nodes around (r, g, b), clamped to 0…1.
    @inline(__always)
    func lookup(_ r: UInt8, _ g: UInt8, _ b: UInt8) -> SIMD4<Float> {
        let n = size
        let base = Int(offsets[Int(r)].x) + Int(offsets[Int(g)].y) + Int(offsets[Int(b)].z)
        let wr = weights[Int(r)].x, wg = weights[Int(g)].y, wb = weights[Int(b)].z
        let p = table + base
        let c00 = p[0] + (p[1] - p[0]) * wr
        let c10 = p[n] + (p[n + 1] - p[n]) * wr
        let c01 = p[n * n] + (p[n * n + 1] - p[n * n]) * wr
        let c11 = p[n * n + n] + (p[n * n + n + 1] - p[n * n + n]) * wr
        let c0 = c00 + (c10 - c00) * wg
        let c1 = c01 + (c11 - c01) * wg
        let c = c0 + (c1 - c0) * wb
        return SIMD4(min(max(c.x, 0), 1), min(max(c.y, 0), 1), min(max(c.z, 0), 1), 0)
    }
}

/// Each lane clamped to 0…1 (scalar min/max: the generic `clamped` is not inlined in the hot loops).
@inline(__always)
func clamp01(_ c: SIMD4<Float>) -> SIMD4<Float> {
    SIMD4(min(max(c.x, 0), 1), min(max(c.y, 0), 1), min(max(c.z, 0), 1), min(max(c.w, 0), 1))
}
