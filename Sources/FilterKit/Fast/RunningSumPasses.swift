/// The spatial steps of the fast path on a width × height frame that run down columns, as running sums (O(1)
/// per pixel whatever the radius), on one band of rows or one strip of columns at a time (the caller spreads them
/// across cores): the blur's vertical passes and the guided filter (noise reduction). Edges are clamped. The
/// row-wise steps stream per band (`HorizontalBlur`, `SharpenRows`).
struct Planar {
    let width: Int, height: Int

    /// Rows per block of a vertical pass: each block restarts its running sums, so the result does not
    /// depend on how many threads share the blocks.
    static let verticalBlockRows = 64

    /// Columns per strip of the blur's vertical passes. 128: each strip row copied, and each finished row stored,
    /// is 1.5 KB and 512 bytes in a row (narrower strips keep the rings in L1 but turn the copies and stores into
    /// short runs a frame row apart).
    static var stripColumns: Int { 128 }

    /// The strips `verticalBlur(strip:…)` takes, left to right.
    var verticalStrips: Int { (width + Self.stripColumns - 1) / Self.stripColumns }

    /// The blur's `passes` vertical extended-box passes on strip `stripIndex` (`stripColumns` columns) of `buffer`
    /// (already blurred along its rows; `PackedRGB` rows), all passes in one sweep down the strip: pass p computes
    /// row y + (passes − p)(r + 1) when the last pass computes row y, so each pass finds the 2r + 3 rows it reads
    /// in the small ring the pass before it writes (row y in slot y mod `ringRows`; they stay in cache), and hands
    /// each row of the last pass over as `finish(first column, columns, y, row)` (`PackedRGB`). A pass adds and
    /// scales rows element by element, four floats at a time whatever pixel and channel they belong to. Each block
    /// of `verticalBlockRows` rows restarts its running sums, so the result does not depend on the thread count.
    /// `rowsWritten(y)` returns once row y of `buffer` is written, with the last row of the written run from y on
    /// (the window's last row when the buffer is complete), so the sweep can follow rows still being written.
    ///
    /// `buffer` holds the image rows `window` (its first row is image row `window.lowerBound`), and the sweep
    /// finishes the rows `rows` (`BlurSections`: `rows` starts on a block, `window` covers what the passes read);
    /// pass p starts `passes − 1 − p` blocks above `rows`, on a restart of its sums, and the passes run in step from
    /// there, so every row is computed as in a sweep of the whole frame.
    func verticalBlur(
        strip stripIndex: Int, of buffer: UnsafePointer<Float>, rows: Range<Int>, window: Range<Int>,
        _ box: SpatialSteps.ExtendedBox, passes: Int, scratch: ScratchPool, rowsWritten: (Int) -> Int,
        finish: (Int, Int, Int, UnsafePointer<Float>) -> Void
    ) {
        let stripQuads = PackedRGB.rowFloats(Self.stripColumns) / 4
        let width = self.width, height = self.height, last = height - 1, rowFloats = PackedRGB.rowFloats(width)
        let r = box.radius, alpha = Float(box.endWeight), scale = Float(1 / box.normaliser)
        // 2r + 3 rows in steady state; at the top, pass 0 runs (passes − 1)(r + 1) rows ahead of the last.
        let ringRows = max(2 * r + 3, (passes - 1) * (r + 1) + 1), blockRows = Self.verticalBlockRows
        // The strip's rows, then per pass a ring of rows and a row of running sums, from the pool. Every float a
        // pass reads has been written first (the strip rows up to `quads` quads below; ring rows by the pass before).
        let first = window.lowerBound
        let stripCount = stripQuads * window.count, ringsCount = passes * (ringRows + 1) * stripQuads
        let strip = scratch.take(SIMD4<Float>.self, count: stripCount)
        let rings = scratch.take(SIMD4<Float>.self, count: ringsCount)
        defer {
            scratch.give(strip, count: stripCount)
            scratch.give(rings, count: ringsCount)
        }
        /// Row `y` (clamped) of the input of pass `pass` (0-based): the strip, or the previous pass's ring.
        func input(_ pass: Int, _ y: Int) -> UnsafeMutablePointer<SIMD4<Float>> {
            let y = min(max(y, 0), last)
            return pass == 0
                ? strip + (y - first) * stripQuads : rings + ((pass - 1) * (ringRows + 1) + y % ringRows) * stripQuads
        }
        let x0 = stripIndex * Self.stripColumns, columns = min(Self.stripColumns, width - x0)
        let quads = (3 * columns + 3) / 4
        // The strip's rows are copied out of `buffer` by a plain copy, as many written rows at a time as there
        // are: they lie a whole row apart (a new page each, which the prefetchers do not follow), and a copy
        // keeps many more of those loads in flight than the first pass's arithmetic would. A narrow strip's last
        // quad has floats past its pixels: zeroed, so they stay finite.
        let tail = 4 * quads - 3 * columns
        var copied = first  // the next row of the strip to copy
        func copy(through row: Int) {
            while copied <= row {
                let written = rowsWritten(copied)
                for y in copied...written {
                    let out = UnsafeMutableRawPointer(strip + (y - first) * stripQuads)
                    out.copyMemory(
                        from: buffer + (y - first) * rowFloats + 3 * x0,
                        byteCount: 3 * columns * MemoryLayout<Float>.stride)
                    if tail > 0 {
                        (out.assumingMemoryBound(to: Float.self) + 3 * columns).initialize(repeating: 0, count: tail)
                    }
                }
                copied = written + 1
            }
        }
        // The next row of each pass: pass p starts passes − 1 − p blocks above `rows` (a restart of its sums).
        var next = (0..<passes).map { max(0, rows.lowerBound - (passes - 1 - $0) * blockRows) }
        // y is the row the last pass reaches; pass p runs (passes − 1 − p)(r + 1) rows ahead of it.
        for y in (next[0] - (passes - 1) * (r + 1))..<rows.upperBound {
            // Pass 0 reads up to r + 1 rows below the last row it computes.
            copy(through: min(y + (passes - 1) * (r + 1) + r + 1, window.upperBound - 1))
            for pass in 0..<passes {
                let ring = rings + pass * (ringRows + 1) * stripQuads, sum = ring + ringRows * stripQuads
                let upTo = min(y + (passes - 1 - pass) * (r + 1), last)
                while next[pass] <= upTo {
                    let z = next[pass], out = ring + (z % ringRows) * stripQuads
                    if r == 0 {
                        // A three-tap filter: no running sum.
                        let above = input(pass, z - 1), centre = input(pass, z), below = input(pass, z + 1)
                        for x in 0..<quads { out[x] = (centre[x] + (above[x] + below[x]) * alpha) * scale }
                    } else {
                        if z % blockRows == 0 {
                            for x in 0..<quads { sum[x] = .zero }
                            for d in -r...r {
                                let s = input(pass, z + d)
                                for x in 0..<quads { sum[x] = sum[x] + s[x] }
                            }
                        }
                        let above = input(pass, z - r - 1), below = input(pass, z + r + 1)
                        let leaving = input(pass, z - r)
                        for x in 0..<quads {
                            out[x] = (sum[x] + (above[x] + below[x]) * alpha) * scale
                            sum[x] = sum[x] + (below[x] - leaving[x])
                        }
                    }
                    if pass == passes - 1 {
                        finish(x0, columns, z, UnsafeRawPointer(out).assumingMemoryBound(to: Float.self))
                    }
                    next[pass] += 1
                }
            }
        }
    }

    /// The self-guided filter of He et al. per channel (`SpatialSteps`) of the image whose rows `colours(y, row)`
    /// writes (the colour step, run here so the unfiltered image never goes to memory), for the rows `rows`,
    /// in one sweep down the frame: (1) row means of I and I²; (2) their column means, then a and b; (3) row
    /// means of a and b; (4) their column means, then `out = mean(a)·I + mean(b)`, written to `target(y)` and
    /// announced by `rowDone(y)`, row after row. Means are (2r+1)-sample windows with clamped edges, summed
    /// directly, so a row's output does not depend on where `rows` starts. Stages 1 and 3 keep their last 2r+1
    /// rows in small rings (row y in slot y mod 2r+1) that stay in cache, as do the rows of I (for stage 4); a
    /// sweep recomputes only the 2r rows of stage 1 and r rows of stage 3 above `rows`.
    ///
    /// Every row is `PackedRGB` (the rows `colours` writes and `target` gives too): the running sums along a
    /// row (stages 1 and 3) go pixel by pixel, but the column means and the per-sample arithmetic of stages 2 and 4
    /// (a division among them) go four floats at a time whatever pixel and channel they belong to, a quarter fewer
    /// vector operations than `SIMD4` pixels with an unused lane; each float sees the same operations in the same
    /// order, so the results are the same.
    func guidedFilter(
        rows band: Range<Int>, _ colours: (Int, UnsafeMutablePointer<Float>) -> Void,
        epsilon: Float, target: (Int) -> UnsafeMutablePointer<Float>, rowDone: (Int) -> Void
    ) {
        let r = SpatialSteps.noiseRadius, width = width, height = height, last = height - 1, window = 2 * r + 1
        let inverse = 1 / Float(window), eps = SIMD4<Float>(repeating: epsilon)
        let rowFloats = PackedRGB.rowFloats(width), quads = rowFloats / 4
        // Rings of `window` rows: stage 1 (means of I and I²), stage 3 (means of a and b), and I. Rows of I (and
        // the lines of stage 3) are padded with r + 1 copies of their edge pixels, so the row means read them in
        // place; a padded row holds the `rowFloats` floats the four-float loops read from its first pixel. Every
        // row starts 16-byte aligned (its first pixel after `pad` floats, a multiple of 4), so those loops load
        // and store whole aligned vectors.
        let pad = (3 * (r + 1) + 3) & ~3, paddedFloats = pad + PackedRGB.rowFloats(width + r + 1)
        let ringFloats = 4 * window * rowFloats + window * paddedFloats
        let ring = PackedRGB.allocateFloats(ringFloats)
        // Zeroed: the floats past a row's pixels, which the four-float loops also read, stay finite.
        ring.initialize(repeating: 0, count: ringFloats)
        let line = PackedRGB.allocateFloats(2 * paddedFloats)
        defer {
            ring.deallocate()
            line.deallocate()
        }
        let meanI = ring, meanSquare = ring + window * rowFloats, a = ring + 2 * window * rowFloats
        let b = ring + 3 * window * rowFloats, image = ring + 4 * window * rowFloats
        /// Row `y` (clamped) of I in its ring, after its left padding.
        func imageRow(_ y: Int) -> UnsafeMutablePointer<Float> {
            image + (min(max(y, 0), last) % window) * paddedFloats + pad
        }
        func slot(_ base: UnsafeMutablePointer<Float>, _ y: Int) -> UnsafeMutablePointer<Float> {
            base + (min(max(y, 0), last) % window) * rowFloats
        }
        /// The column windows around row `y` of the rings `p` and `q`.
        func windows(
            _ p: UnsafeMutablePointer<Float>, _ q: UnsafeMutablePointer<Float>,
            around y: Int
        ) -> (ColumnWindow, ColumnWindow) {
            (ColumnWindow { slot(p, y + $0 - r) }, ColumnWindow { slot(q, y + $0 - r) })
        }
        /// Stage 1 for row y (after the colour step): the row means of I and I², the squares computed as the
        /// window slides (the same values, in the same order of adds, as summing a row of squares).
        func stage1(_ y: Int) {
            let row = imageRow(y), outI = slot(meanI, y), outSquare = slot(meanSquare, y)
            colours(y, row)
            PackedRGB.padEdges(row, width: width, count: r + 1)
            var sumI = SIMD4<Float>.zero, sumSquare = SIMD4<Float>.zero
            for d in -r...r {
                let c = PackedRGB.load(row, d)
                sumI += c
                sumSquare += c * c
            }
            for x in 0..<width {
                PackedRGB.store(sumI * inverse, outI, x)
                PackedRGB.store(sumSquare * inverse, outSquare, x)
                let entering = PackedRGB.load(row, x &+ r &+ 1), leaving = PackedRGB.load(row, x &- r)
                sumI += entering - leaving
                sumSquare += entering * entering - leaving * leaving
            }
        }
        /// Stages 2 and 3 for row y (stage 1 done up to row y + r).
        func stage23(_ y: Int) {
            let (rowsI, rowsSquare) = windows(meanI, meanSquare, around: y)
            rowMeans(
                into: slot(a, y), slot(b, y), radius: r, inverse: inverse, line: line, pad: pad,
                lineFloats: paddedFloats
            ) { ta, tb in
                let va: UnsafeMutablePointer<SIMD4<Float>> = ColumnWindow.vectors(ta),
                    vb: UnsafeMutablePointer<SIMD4<Float>> = ColumnWindow.vectors(tb)
                for x in 0..<quads {
                    let m = rowsI.sum(x) * inverse, q = rowsSquare.sum(x) * inverse
                    let variance = q - m * m
                    let coefficient = variance / (variance + eps)
                    va[x] = coefficient
                    vb[x] = m - coefficient * m
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
            let source: UnsafePointer<SIMD4<Float>> = ColumnWindow.vectors(imageRow(y))
            let out: UnsafeMutablePointer<SIMD4<Float>> = ColumnWindow.vectors(target(y))
            let (rowsA, rowsB) = windows(a, b, around: y)
            for x in 0..<quads {
                let meanA = rowsA.sum(x) * inverse, meanB = rowsB.sum(x) * inverse
                out[x] = meanA * source[x] + meanB
            }
            rowDone(y)
        }
    }

    /// Row-wise (2r+1) box means of two `PackedRGB` rows of samples that `fill(a, b)` writes to `a` and `b` (their
    /// `rowFloats` floats, inside an edge-padded `line` of two rows of `lineFloats` floats, `pad` floats before the
    /// first pixel, so the rows are computed straight into it), edges clamped, into `outA`, `outB`.
    @inline(__always)
    private func rowMeans(
        into outA: UnsafeMutablePointer<Float>, _ outB: UnsafeMutablePointer<Float>,
        radius r: Int, inverse: Float, line: UnsafeMutablePointer<Float>, pad: Int, lineFloats: Int,
        _ fill: (UnsafeMutablePointer<Float>, UnsafeMutablePointer<Float>) -> Void
    ) {
        let pa = line + pad, pb = line + lineFloats + pad
        fill(pa, pb)
        PackedRGB.padEdges(pa, width: width, count: r + 1)
        PackedRGB.padEdges(pb, width: width, count: r + 1)
        var sumA = SIMD4<Float>.zero, sumB = SIMD4<Float>.zero
        for d in -r...r {
            sumA += PackedRGB.load(pa, d)
            sumB += PackedRGB.load(pb, d)
        }
        for x in 0..<width {
            PackedRGB.store(sumA * inverse, outA, x)
            PackedRGB.store(sumB * inverse, outB, x)
            sumA += PackedRGB.load(pa, x &+ r &+ 1) - PackedRGB.load(pa, x &- r)
            sumB += PackedRGB.load(pb, x &+ r &+ 1) - PackedRGB.load(pb, x &- r)
        }
    }

}
