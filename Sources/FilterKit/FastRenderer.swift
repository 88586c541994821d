import Synchronization

/// The fast path: colour-only frames through the `ExactByteTable` when the renderer gives one; otherwise
/// the colour steps through the `ColourLUT`, the spatial steps as running-sum passes (along rows on one
/// `SIMD4<Float>` per pixel; down columns, and the guided filter's per-sample arithmetic, four floats at a time on
/// `PackedRGB` rows), split by rows across cores. Each band of rows streams through
/// colour step → guided filter → sharpen (`SharpenRows`) → the blur's horizontal passes (`HorizontalBlur`)
/// in small rings of rows, so only the horizontally blurred image fills a frame-sized buffer (`PackedRGB`); the blur's
/// vertical passes then run strip by strip, each following the rows as the bands write them (a core done with its
/// bands starts on the strips), and write vignette and bytes as they finish each strip (without a blur, each
/// finished row goes straight to bytes). Same formulas as `ReferenceRenderer`, in `Float`.
enum FastRenderer {
    static func render(_ source: Frame.Plane, into output: inout Frame.Plane, width: Int, height: Int,
                       renderer: FilterRenderer, byteTable: ExactByteTable? = nil) {
        let values = renderer.values, threads = renderer.threads
        let sourceStride = source.bytesPerRow, outputStride = output.bytesPerRow
        source.bytes.withUnsafeBufferPointer { sourceBuffer in
            output.bytes.withUnsafeMutableBufferPointer { outputBuffer in
                let src = sourceBuffer.baseAddress!, dst = outputBuffer.baseAddress!
                let rows = SourceRows(bytes: src, stride: sourceStride, width: width, height: height,
                                      threads: threads)
                guard values.hasSpatialAdjustments else {
                    // Colour only: bytes → colour step → bytes, one pass (a table load per pixel when given the table).
                    if let byteTable {
                        byteTable.apply(rows, into: dst, stride: outputStride)
                    } else {
                        rows.colour(renderer.colourStep, into: dst, stride: outputStride)
                    }
                    return
                }
                // The rows stream through the steps band by band: colour step (inside the guided filter when
                // there is noise reduction) → sharpen → the blur's horizontal passes into the one frame-sized
                // buffer; then its vertical passes, strip by strip, hand each finished row of a strip to the
                // vignette and bytes. Without a blur the finished rows go straight to bytes.
                let count = PackedRGB.rowFloats(width) * height, pool = renderer.scratch
                let blurred = values.blur > 0 ? pool.take(Float.self, count: count) : nil
                defer { if let blurred { pool.give(blurred, count: count) } }
                let frame = Planar(width: width, height: height)
                let blurBox = SpatialSteps.ExtendedBox(sigma: values.blur)
                // One band per core: each band recomputes about ten rows past its edges (the guided filter's and
                // the sharpen mask's windows), and with the strips following the bands (below) a core that ends
                // its band early no longer needs a second band to stay busy (2 threads at 720p, alternated: median
                // wall time per frame 16.3–19.1 ms against 16.6–22.7 ms with two bands per core).
                let bands = RowBands.ranges(count: height, threads: threads, bandsPerThread: 1)
                // Without a blur the row stage writes the bytes, so the source alpha is scanned first. With one,
                // the row stage notes, as it fetches each source row (still in cache), whether all its pixels
                // have the first pixel's alpha, instead of a pass over the source of its own; the byte store
                // writes that alpha as a constant on those rows.
                let firstAlpha = src[3]
                let rowHasFirstAlpha = blurred != nil ? pool.take(Bool.self, count: height) : nil
                defer { if let rowHasFirstAlpha { pool.give(rowHasFirstAlpha, count: height) } }
                let writer = ByteWriter(source: rows, alpha: blurred != nil ? firstAlpha : rows.uniformAlpha(),
                                        rowHasAlpha: rowHasFirstAlpha.map { UnsafePointer($0) }, output: dst,
                                        outputStride: outputStride, vignette: values.vignette, pool: pool)
                defer { writer.release(to: pool) }
                // The vertical passes run as jobs after the bands', each strip following the rows as the bands
                // write them (`RowProgress`), so a core that finishes its bands starts on the strips instead of
                // waiting for the other core's last band. On one thread the jobs run in order, so every row is
                // written before the first strip; on more, even a single band (a one-row frame) needs the progress.
                let progress = blurred != nil && threads > 1 ? RowProgress(bands: bands) : nil
                let strips = blurred != nil ? frame.verticalStrips : 0
                /// The streamed row stage on band `bands[index]`.
                func rowStage(_ index: Int) {
                    let band = bands[index]
                    let sharpen = values.sharpness > 0
                        ? SharpenRows(band: band, width: width, height: height, amount: Float(values.sharpness)) : nil
                    let blur = blurred.map {
                        HorizontalBlur(width: width, box: blurBox, passes: SpatialSteps.blurPasses, output: $0)
                    }
                    let line = UnsafeMutablePointer<SIMD4<Float>>.allocate(capacity: width)
                    /// Without a sharpen mask, the guided filter's output row (`PackedRGB`).
                    let packedLine = PackedRGB.allocateFloats(PackedRGB.rowFloats(width))
                    defer {
                        line.deallocate()
                        packedLine.deallocate()
                    }
                    /// Notes whether the band's row y has the first pixel's alpha throughout (with a blur).
                    func checkAlpha(_ y: Int) {
                        if let rowHasFirstAlpha, band.contains(y) { rowHasFirstAlpha[y] = rows.alpha(firstAlpha, fills: y) }
                    }
                    /// Where row y after every step before the blur is written: the blur's next row, or a line.
                    func destination(_ y: Int) -> UnsafeMutablePointer<SIMD4<Float>> { blur?.nextRow ?? line }
                    /// Row y after every step before the blur, written to `destination(y)`.
                    func finished(_ y: Int, _ row: UnsafeMutablePointer<SIMD4<Float>>) {
                        guard let blur else { return writer.store(row, y: y, x0: 0, count: width) }
                        if let done = blur.rowWritten(y) { progress?.written(through: done, band: index) }
                    }
                    /// Where image row y (after the colour step and the guided filter) is written, `PackedRGB`.
                    func target(_ y: Int) -> UnsafeMutablePointer<Float> { sharpen?.imageRow(y) ?? packedLine }
                    func rowDone(_ y: Int) {
                        if let sharpen {
                            sharpen.rowWritten(y, into: destination, emit: finished)
                        } else {
                            let row = destination(y)
                            for x in 0..<width { row[x] = PackedRGB.load(packedLine, x) }
                            finished(y, row)
                        }
                    }
                    let packedColours = { (y: Int, row: UnsafeMutablePointer<Float>) in
                        rows.fineColours(renderer.colourStep, table: byteTable, row: y, packed: row)
                        checkAlpha(y)
                    }
                    let inputRows = sharpen?.inputRows ?? band
                    if values.noiseReduction > 0 {
                        frame.guidedFilter(rows: inputRows, packedColours,
                                           epsilon: Float(SpatialSteps.noiseEpsilon(values.noiseReduction)),
                                           target: target, rowDone: rowDone)
                    } else if sharpen != nil {
                        for y in inputRows {
                            packedColours(y, target(y))
                            rowDone(y)
                        }
                    } else {
                        for y in inputRows {
                            rows.fineColours(renderer.colourStep, table: byteTable, row: y, into: destination(y))
                            checkAlpha(y)
                            finished(y, destination(y))
                        }
                    }
                    if let done = blur?.flush() { progress?.written(through: done, band: index) }
                }
                RowBands.jobs(bands.count + strips, threads: threads) { job in
                    guard job >= bands.count, let blurred else { return rowStage(job) }
                    frame.verticalBlur(strip: job - bands.count, of: blurred, blurBox, passes: SpatialSteps.blurPasses,
                                       scratch: pool, rowsWritten: { progress?.wait(for: $0) ?? height - 1 }) {
                        x0, columns, y, row in
                        writer.store(packed: row, y: y, x0: x0, count: columns)
                    }
                }
            }
        }
    }

    /// Clamps to 0…1, scales to 0…255, rounds to the nearest code (ties to even) and writes R, G, B and the
    /// given alpha.
    @inline(always)
    static func storeBytes(_ c: SIMD4<Float>, alpha: UInt8, to d: UnsafeMutablePointer<UInt8>) {
        UnsafeMutableRawPointer(d).storeBytes(of: packed(c, alpha: alpha).littleEndian, as: UInt32.self)
    }

    /// The RGBA bytes `storeBytes` writes, as a `UInt32` whose lowest byte is R.
    @inline(always)
    static func packed(_ c: SIMD4<Float>, alpha: UInt8) -> UInt32 {
        code(c.x) | code(c.y) << 8 | code(c.z) << 16 | UInt32(alpha) << 24
    }

    /// `v` clamped to 0…1 times `scale` (at most 2²²), rounded to the nearest integer, ties to even: adding
    /// 1.5 · 2²³ leaves that integer in the low bits of the sum's significand. No checked conversion, no branch.
    @inline(always)
    static func code(_ v: Float, scale: Float = 255) -> UInt32 {
        (clamp(v, 0, 1) * scale + 12_582_912).bitPattern & 0x3F_FFFF
    }
}

/// The last step: vignette (`SpatialSteps.vignetteGain`, in `Float`), clamp, round to bytes, alpha from the
/// source; any run of pixels of a row, so a pass can write its rows as it finishes them.
struct ByteWriter: @unchecked Sendable {  // raw pointers into buffers the render call owns; rows are disjoint
    let source: UnsafePointer<UInt8>, sourceStride: Int
    /// The alpha of every source pixel when they all have the same (`SourceRows.uniformAlpha`), or of those of the
    /// rows marked in `rowHasAlpha`.
    let alpha: UInt8?
    let rowHasAlpha: UnsafePointer<Bool>?
    let output: UnsafeMutablePointer<UInt8>, outputStride: Int
    let height: Int
    let halfDiagonalSquared: Double
    let k: Float
    /// Per column, dx² / (half diagonal)²; nil without a vignette.
    let columnTerm: UnsafeMutablePointer<Float>?
    let width: Int

    /// `alpha`: the alpha of every source pixel when they all have the same, else nil; or, with `rowHasAlpha`, the
    /// alpha of every pixel of the rows y where `rowHasAlpha[y]` (read when row y is stored).
    init(source: SourceRows, alpha: UInt8?, rowHasAlpha: UnsafePointer<Bool>? = nil, output: UnsafeMutablePointer<UInt8>,
         outputStride: Int, vignette: Double, pool: ScratchPool) {
        (self.source, sourceStride, self.output, self.outputStride) = (source.bytes, source.stride, output, outputStride)
        (self.alpha, self.rowHasAlpha) = (alpha, rowHasAlpha)
        let (width, height) = (source.width, source.height)
        (self.width, self.height) = (width, height)
        halfDiagonalSquared = (Double(width) * Double(width) + Double(height) * Double(height)) / 4
        k = Float(SpatialSteps.vignetteScale * vignette)
        guard vignette > 0 else {
            columnTerm = nil
            return
        }
        let term = pool.take(Float.self, count: width)
        for x in 0..<width {
            let dx = Float(x) + 0.5 - Float(width) / 2
            term[x] = dx * dx / Float(halfDiagonalSquared)
        }
        columnTerm = term
    }

    /// The alpha of every pixel of row `y` when it is known to be one value.
    @inline(always)
    private func constantAlpha(_ y: Int) -> UInt8? {
        guard let alpha, rowHasAlpha?[y] ?? true else { return nil }
        return alpha
    }

    func release(to pool: ScratchPool) {
        if let columnTerm { pool.give(columnTerm, count: width) }
    }

    /// Writes pixels `x0 ..< x0 + count` of row `y` from `pixels` (the first of them at `pixels[0]`).
    @inline(always)
    func store(_ pixels: UnsafePointer<SIMD4<Float>>, y: Int, x0: Int, count: Int) {
        store(y: y, x0: x0, count: count) { pixels[$0] }
    }

    /// Writes pixels `x0 ..< x0 + count` of row `y` from `PackedRGB` pixels (the first of them at `packed[0]`).
    @inline(always)
    func store(packed: UnsafePointer<Float>, y: Int, x0: Int, count: Int) {
        store(y: y, x0: x0, count: count) { PackedRGB.load(packed, $0) }
    }

    /// Writes pixels `x0 ..< x0 + count` of row `y`, pixel `x0 + x` being `pixel(x)` (lanes 0–2).
    @inline(always)
    private func store(y: Int, x0: Int, count: Int, _ pixel: (Int) -> SIMD4<Float>) {
        let s = source + y * sourceStride + 4 * x0, d = output + y * outputStride + 4 * x0
        let alpha: ByteStore.Alpha = constantAlpha(y).map { .constant($0) } ?? .source(s)
        guard let columnTerm else {
            ByteStore.store(count, alpha: alpha, to: d, pixel)
            return
        }
        // ρ² = dx²/h² + dy²/h²: the column term per pixel, the row term once per row. The gains of up to
        // `gainRun` pixels go to a small buffer first, four at a time, and the store then reads them one per
        // pixel: computed where each pixel takes its lane, the optimiser turned the four-lane arithmetic into a
        // scalar chain per lane (32 instructions per four pixels instead of 5). Same arithmetic per pixel.
        let dy = Double(y) + 0.5 - Double(height) / 2
        let dy2 = Float(dy * dy / halfDiagonalSquared), k = k
        withUnsafeTemporaryAllocation(of: Float.self, capacity: Self.gainRun) { buffer in
            let gains = buffer.baseAddress!
            for start in Swift.stride(from: 0, to: count, by: Self.gainRun) {
                let run = min(Self.gainRun, count - start), column = columnTerm + x0 + start, whole = run & ~3
                for x in Swift.stride(from: 0, to: whole, by: 4) {
                    let rho2 = UnsafeRawPointer(column + x).loadUnaligned(as: SIMD4<Float>.self) + dy2
                    UnsafeMutableRawPointer(gains + x).storeBytes(of: 1 - k * rho2 * rho2, as: SIMD4<Float>.self)
                }
                for x in whole..<run {
                    let rho2 = column[x] + dy2
                    gains[x] = 1 - k * rho2 * rho2
                }
                let alpha: ByteStore.Alpha = constantAlpha(y).map { .constant($0) } ?? .source(s + 4 * start)
                ByteStore.store(run, alpha: alpha, to: d + 4 * start) { x in pixel(start &+ x) * gains[x] }
            }
        }
    }

    /// Pixels per run of vignette gains (a blur strip's width; 512 bytes, on the stack). Computed, not stored: a
    /// stored `static let` is a lazy global, checked on every use.
    private static var gainRun: Int { 128 }
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
    @inline(always)
    func lookup(_ r: UInt8, _ g: UInt8, _ b: UInt8) -> SIMD4<Float> {
        let c = interpolate(r, g, b)
        return SIMD4(clamp(c.x, 0, 1), clamp(c.y, 0, 1), clamp(c.z, 0, 1), 0)
    }

    /// Trilinear interpolation of the eight nodes around (r, g, b).
    @inline(always)
    func interpolate(_ r: UInt8, _ g: UInt8, _ b: UInt8) -> SIMD4<Float> {
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
        return c0 + (c1 - c0) * wb
    }
}

/// One pixel's colour steps, as the inner loop calls them.
protocol ColourKernel {
    func callAsFunction(_ r: UInt8, _ g: UInt8, _ b: UInt8) -> SIMD4<Float>
    /// Four consecutive RGBA pixels at `p` (the default: one at a time).
    func four(_ p: UnsafePointer<UInt8>) -> (SIMD4<Float>, SIMD4<Float>, SIMD4<Float>, SIMD4<Float>)
}

extension ColourKernel {
    @inline(always)
    func four(_ p: UnsafePointer<UInt8>) -> (SIMD4<Float>, SIMD4<Float>, SIMD4<Float>, SIMD4<Float>) {
        (self(p[0], p[1], p[2]), self(p[4], p[5], p[6]), self(p[8], p[9], p[10]), self(p[12], p[13], p[14]))
    }
}

extension LUTView: ColourKernel {
    @inline(always) func callAsFunction(_ r: UInt8, _ g: UInt8, _ b: UInt8) -> SIMD4<Float> { lookup(r, g, b) }
}

extension ColourPipeline: ColourKernel {
    @inline(always) func callAsFunction(_ r: UInt8, _ g: UInt8, _ b: UInt8) -> SIMD4<Float> { apply(r, g, b) }

    /// Four pixels at once, planar (`Channels`), then back to one `SIMD4` per pixel.
    @inline(always)
    func four(_ p: UnsafePointer<UInt8>) -> (SIMD4<Float>, SIMD4<Float>, SIMD4<Float>, SIMD4<Float>) {
        let c = apply(Channels(rgba: p))
        return (c.pixel(0), c.pixel(1), c.pixel(2), c.pixel(3))
    }
}

/// No colour steps: bytes to 0…1.
struct ByteScale: ColourKernel {
    @inline(always) func callAsFunction(_ r: UInt8, _ g: UInt8, _ b: UInt8) -> SIMD4<Float> {
        SIMD4(Float(r), Float(g), Float(b), 0) * (1 / 255)
    }
}

/// The source RGBA rows of a frame, and the colour steps that read them: a whole frame to bytes (colour-only
/// presets), or one row at a time to the floats the spatial steps start from.
struct SourceRows: @unchecked Sendable {  // reads the caller's source bytes, which outlive every use
    let bytes: UnsafePointer<UInt8>
    let stride: Int
    let width: Int, height: Int, threads: Int

    /// Applies `step` to every pixel and writes RGBA bytes (alpha copied from the source), split by rows (one
    /// specialised loop per kind of step).
    func colour(_ step: ColourStep, into output: UnsafeMutablePointer<UInt8>, stride outputStride: Int) {
        switch step {
        case .none: colour(ByteScale(), into: output, stride: outputStride)
        case let .lookupTable(lut): colour(LUTView(lut), into: output, stride: outputStride)
        case let .perPixel(pipeline): colour(pipeline, into: output, stride: outputStride)
        }
    }

    private func colour<Kernel: ColourKernel>(_ kernel: Kernel, into output: UnsafeMutablePointer<UInt8>,
                                              stride outputStride: Int) {
        let width = width, bytes = bytes, stride = stride
        nonisolated(unsafe) let output = output  // the bands write disjoint rows
        RowBands.run(count: height, threads: threads) { rows in
            for y in rows {
                let s = bytes + y * stride, d = output + y * outputStride
                let whole = width & ~3  // four pixels at a time, then the rest one by one
                for o in Swift.stride(from: 0, to: 4 * whole, by: 16) {
                    let c = kernel.four(s + o)
                    ByteStore.four(c.0, c.1, c.2, c.3, alphaFrom: s + o, to: d + o)
                }
                for x in whole..<width {
                    let o = 4 * x
                    FastRenderer.storeBytes(kernel(s[o], s[o + 1], s[o + 2]), alpha: s[o + 3], to: d + o)
                }
            }
        }
    }

    /// The alpha of every source pixel, or nil when two pixels differ. Camera and decoded frames are opaque, and
    /// the byte store then writes the constant instead of reading the source again, a row apart per strip (a
    /// pattern the prefetchers do not follow).
    func uniformAlpha() -> UInt8? {
        let first = bytes[3]
        let differs = Atomic(false)
        RowBands.run(count: height, threads: threads) { band in
            for y in band where !differs.load(ordering: .relaxed) {
                if !alpha(first, fills: y) { differs.store(true, ordering: .relaxed) }
            }
        }
        return differs.load(ordering: .relaxed) ? nil : first
    }

    /// Whether every pixel of row `y` has alpha `value`.
    @inline(always)
    func alpha(_ value: UInt8, fills y: Int) -> Bool {
        let expected = SIMD4<UInt32>(repeating: UInt32(value) << 24), alphaBits = SIMD4<UInt32>(repeating: 0xFF00_0000)
        let s = UnsafeRawPointer(bytes + y * stride)
        var found = SIMD4<UInt32>.zero  // bits where an alpha differs
        let whole = width & ~3
        for x in Swift.stride(from: 0, to: whole, by: 4) {
            found |= (s.loadUnaligned(fromByteOffset: 4 * x, as: SIMD4<UInt32>.self) & alphaBits) ^ expected
        }
        var same = found == .zero
        for x in whole..<width where s.load(fromByteOffset: 4 * x + 3, as: UInt8.self) != value { same = false }
        return same
    }

    /// Row `y` after the colour steps, as the input of the spatial steps: one `SIMD4<Float>` per pixel (lane 3
    /// is 0), rounded to `FineColour` codes, from the `.fine` `ExactByteTable` when given, else computed per pixel
    /// (rounded the same way, so both give the same floats).
    @inline(always)
    func fineColours(_ step: ColourStep, table: ExactByteTable?, row y: Int, into d: UnsafeMutablePointer<SIMD4<Float>>) {
        fineColours(step, table: table, row: y) { x, c in d[x] = c }
    }

    /// The same row as `PackedRGB` floats (the pixels written in order, so each one's spilled lane is overwritten
    /// by the next; the last spills one float past the pixels).
    @inline(always)
    func fineColours(_ step: ColourStep, table: ExactByteTable?, row y: Int, packed d: UnsafeMutablePointer<Float>) {
        // A 16-byte copy, not `PackedRGB.store`: here the optimiser left its `storeBytes` a call per pixel.
        fineColours(step, table: table, row: y) { x, c in
            withUnsafeBytes(of: c) { UnsafeMutableRawPointer(d + 3 &* x).copyMemory(from: $0.baseAddress!, byteCount: 16) }
        }
    }

    /// Hands pixel x of row `y` after the colour steps to `put(x, colour)`, in order of x.
    @inline(always)
    private func fineColours(_ step: ColourStep, table: ExactByteTable?, row y: Int, _ put: (Int, SIMD4<Float>) -> Void) {
        if let table { return table.fineColours(self, row: y, put) }
        switch step {
        case .none: fineColours(ByteScale(), row: y, put)
        case let .lookupTable(lut): fineColours(FineColour.Rounded(kernel: LUTView(lut)), row: y, put)
        case let .perPixel(pipeline): fineColours(FineColour.Rounded(kernel: pipeline), row: y, put)
        }
    }

    @inline(always)
    private func fineColours<Kernel: ColourKernel>(_ kernel: Kernel, row y: Int, _ put: (Int, SIMD4<Float>) -> Void) {
        let s = bytes + y * stride
        let whole = width & ~3
        for x in Swift.stride(from: 0, to: whole, by: 4) {
            let c = kernel.four(s + 4 * x)
            put(x, c.0)
            put(x + 1, c.1)
            put(x + 2, c.2)
            put(x + 3, c.3)
        }
        for x in whole..<width { put(x, kernel(s[4 * x], s[4 * x + 1], s[4 * x + 2])) }
    }
}

/// `v` clamped to `lower…upper`, written out: the generic `min` and `max` are not always inlined in the hot loops.
@inline(always)
func clamp(_ v: Float, _ lower: Float, _ upper: Float) -> Float { v < lower ? lower : (v > upper ? upper : v) }

/// Each lane clamped to 0…1 (NaN stays NaN, as with `clamp`), without a branch: lane masks from vector
/// compares select 0, 1 or the lane by bitwise operations (per-lane ternaries compiled to compare-and-branch).
@inline(always)
func clamp01(_ c: SIMD4<Float>) -> SIMD4<Float> {
    let bits = unsafeBitCast(c, to: SIMD4<UInt32>.self)
    let below = unsafeBitCast(c .< 0, to: SIMD4<UInt32>.self), above = unsafeBitCast(c .> 1, to: SIMD4<UInt32>.self)
    let one = SIMD4<UInt32>(repeating: Float(1).bitPattern)
    return unsafeBitCast((bits & ~(below | above)) | (one & above), to: SIMD4<Float>.self)
}
