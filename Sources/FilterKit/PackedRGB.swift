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

    /// Writes `c` as the pixel at `p` (lanes 0–2; lane 3 lands on the float after the pixel).
    @inline(always)
    static func store(_ c: SIMD4<Float>, at p: UnsafeMutablePointer<Float>) {
        UnsafeMutableRawPointer(p).storeBytes(of: c, as: SIMD4<Float>.self)
    }

    /// The pixel at `p` in lanes 0–2 (lane 3 is the float after it: ignore it).
    @inline(always)
    static func load(_ p: UnsafePointer<Float>) -> SIMD4<Float> {
        UnsafeRawPointer(p).loadUnaligned(as: SIMD4<Float>.self)
    }
}
