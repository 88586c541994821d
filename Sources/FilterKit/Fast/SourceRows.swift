import Parallel
import Synchronization

/// The source RGBA rows of a frame, and the colour steps that read them: a whole frame to bytes (colour-only
/// presets), or one row at a time to the floats the spatial steps start from.
struct SourceRows: @unchecked Sendable {  // reads the caller's source bytes, which outlive every use
    let bytes: UnsafePointer<UInt8>
    let stride: Int
    let width: Int, height: Int, threads: LentThreads

    /// Applies `step` to every pixel and writes RGBA bytes (alpha copied from the source), split by rows (one
    /// specialised loop per kind of step).
    func colour(_ step: ColourStep, into output: UnsafeMutablePointer<UInt8>, stride outputStride: Int) {
        switch step {
        case .none: colour(ByteScale(), into: output, stride: outputStride)
        case .lookupTable(let lut): colour(LUTView(lut), into: output, stride: outputStride)
        case .perPixel(let pipeline): colour(pipeline, into: output, stride: outputStride)
        }
    }

    private func colour<Kernel: ColourKernel>(
        _ kernel: Kernel, into output: UnsafeMutablePointer<UInt8>,
        stride outputStride: Int
    ) {
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
    func fineColours(_ step: ColourStep, table: ExactByteTable?, row y: Int, into d: UnsafeMutablePointer<SIMD4<Float>>)
    {
        fineColours(step, table: table, row: y) { x, c in d[x] = c }
    }

    /// The same row as `PackedRGB` floats (the pixels written in order, so each one's spilled lane is overwritten
    /// by the next; the last spills one float past the pixels).
    @inline(always)
    func fineColours(_ step: ColourStep, table: ExactByteTable?, row y: Int, packed d: UnsafeMutablePointer<Float>) {
        // The bytes `PackedRGB.store` writes, as one 16-byte copy that is inlined into the pixel loop.
        fineColours(step, table: table, row: y) { x, c in
            withUnsafeBytes(of: c) {
                UnsafeMutableRawPointer(d + 3 &* x).copyMemory(from: $0.baseAddress!, byteCount: 16)
            }
        }
    }

    /// Hands pixel x of row `y` after the colour steps to `put(x, colour)`, in order of x.
    @inline(always)
    private func fineColours(_ step: ColourStep, table: ExactByteTable?, row y: Int, _ put: (Int, SIMD4<Float>) -> Void)
    {
        if let table { return table.fineColours(self, row: y, put) }
        switch step {
        case .none: fineColours(ByteScale(), row: y, put)
        case .lookupTable(let lut): fineColours(FineColour.Rounded(kernel: LUTView(lut)), row: y, put)
        case .perPixel(let pipeline): fineColours(FineColour.Rounded(kernel: pipeline), row: y, put)
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
