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
