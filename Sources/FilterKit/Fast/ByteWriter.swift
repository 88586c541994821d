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
    init(
        source: SourceRows, alpha: UInt8?, rowHasAlpha: UnsafePointer<Bool>? = nil, output: UnsafeMutablePointer<UInt8>,
        outputStride: Int, vignette: Double, pool: ScratchPool
    ) {
        (self.source, sourceStride, self.output, self.outputStride) = (
            source.bytes, source.stride, output, outputStride
        )
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
        // pixel, so the gains are computed as four-lane vectors and not as a scalar chain per lane. Same
        // arithmetic per pixel.
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
