/// Rows of pixels as three floats each (R, G, B, no unused lane), the layout of the blurred image between the
/// blur's horizontal and vertical passes: a quarter less memory and, in the vertical passes (which add and
/// scale whole rows element by element, so the layout does not change a single result), a quarter fewer vector
/// operations than `SIMD4<Float>` pixels with their unused lane 3.
///
/// A pixel is written and read as one unaligned `SIMD4<Float>` at float offset 3x: its lane 3 spills into the
/// next pixel's R (written after it, in order along the row) or, at the row's end, into the row's padding.
enum PackedRGB {
    /// Floats per row of `width` pixels: 3 per pixel and 1–4 of padding, a multiple of 4 (so rows stay
    /// 16-byte aligned and a row is a whole number of `SIMD4<Float>`s).
    static func rowFloats(_ width: Int) -> Int { (3 * width + 4) & ~3 }

    /// Uninitialised room for `count` floats starting on a 64-byte boundary, so rows whose offsets are multiples of 4
    /// floats load and store whole aligned vectors. Free it with `deallocate()`.
    static func allocateFloats(_ count: Int) -> UnsafeMutablePointer<Float> {
        UnsafeMutableRawPointer.allocate(byteCount: 4 * count, alignment: 64).bindMemory(
            to: Float.self, capacity: count)
    }

    /// Writes `c` as pixel `x` of the row at `row` (lanes 0–2; lane 3 lands on the float after the pixel).
    @inline(always)
    static func store(_ c: SIMD4<Float>, _ row: UnsafeMutablePointer<Float>, _ x: Int) {
        UnsafeMutableRawPointer(row).storeBytes(of: c, toByteOffset: 12 &* x, as: SIMD4<Float>.self)
    }

    /// Pixel `x` of the row at `row` in lanes 0–2 (lane 3 is the float after it: ignore it). The offsets are
    /// wrapping products (a pixel index of a frame cannot overflow), so the hot loops carry no overflow checks.
    @inline(always)
    static func load(_ row: UnsafePointer<Float>, _ x: Int) -> SIMD4<Float> {
        UnsafeRawPointer(row).loadUnaligned(fromByteOffset: 12 &* x, as: SIMD4<Float>.self)
    }

    /// Copies pixel 0 into the `count` pixels before it and pixel `width − 1` into the `count` after it (the row's
    /// padding), three floats each, so a window reaching past an edge reads the edge pixel.
    @inline(always)
    static func padEdges(_ row: UnsafeMutablePointer<Float>, width: Int, count: Int) {
        let last = 3 * (width - 1)
        for x in 1...count {
            for c in 0..<3 {
                row[c - 3 * x] = row[c]
                row[last + 3 * x + c] = row[last + c]
            }
        }
    }
}
