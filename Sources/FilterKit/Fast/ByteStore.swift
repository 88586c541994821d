/// The fast path's last step on whole vectors: float pixels (0…1 nominal, lane 3 ignored) to RGBA bytes,
/// four pixels per 16-byte store, alpha copied from the source pixels or one constant.
///
/// Each lane is clamped to 0…1 (`clamp01`, branch-free; the generic `pointwiseMin`/`pointwiseMax` stay calls
/// with NaN handling per lane), scaled to 0…255
/// and rounded to the nearest code, ties to even, by adding 1.5 · 2²³: the code is then the low byte of the
/// sum's bit pattern, so the truncation to bytes is the conversion. Same arithmetic per lane as
/// `FastRenderer.code`, so the bytes equal the one-pixel `FastRenderer.storeBytes`, with no scalar clamp,
/// conversion and shift per channel.
enum ByteStore {
    /// Where the alpha bytes come from.
    enum Alpha {
        /// The same alpha for every pixel.
        case constant(UInt8)
        /// Pixel x takes the alpha `source[4x + 3]` (the source pixels of the run being written).
        case source(UnsafePointer<UInt8>)
    }

    /// Writes `count` pixels, `pixel(x)` for x in `0..<count`, as RGBA bytes to `output`, with `alpha`.
    @inline(always)
    static func store(
        _ count: Int, alpha: Alpha, to output: UnsafeMutablePointer<UInt8>, _ pixel: (Int) -> SIMD4<Float>
    ) {
        store(
            count, alpha: alpha, to: output, four: { (pixel($0), pixel($0 &+ 1), pixel($0 &+ 2), pixel($0 &+ 3)) },
            pixel)
    }

    /// The same, with `four(x)` giving pixels x … x + 3 (x a multiple of 4) when it can share work between them.
    @inline(always)
    static func store(
        _ count: Int, alpha: Alpha, to output: UnsafeMutablePointer<UInt8>,
        four quad: (Int) -> (SIMD4<Float>, SIMD4<Float>, SIMD4<Float>, SIMD4<Float>),
        _ pixel: (Int) -> SIMD4<Float>
    ) {
        let whole = count & ~3
        switch alpha {
        case .constant(let value):
            let words = SIMD4<UInt32>(repeating: UInt32(value) << 24)
            for x in Swift.stride(from: 0, to: whole, by: 4) {
                let p = quad(x)
                four(p.0, p.1, p.2, p.3, alphaWords: words, to: output + 4 * x)
            }
            for x in whole..<count { FastRenderer.storeBytes(pixel(x), alpha: value, to: output + 4 * x) }
        case .source(let source):
            for x in Swift.stride(from: 0, to: whole, by: 4) {
                let p = quad(x)
                four(p.0, p.1, p.2, p.3, alphaFrom: source + 4 * x, to: output + 4 * x)
            }
            for x in whole..<count { FastRenderer.storeBytes(pixel(x), alpha: source[4 * x + 3], to: output + 4 * x) }
        }
    }

    /// Four pixels to 16 bytes at `output`, alpha from the four source pixels at `source`.
    @inline(always)
    static func four(
        _ p0: SIMD4<Float>, _ p1: SIMD4<Float>, _ p2: SIMD4<Float>, _ p3: SIMD4<Float>,
        alphaFrom source: UnsafePointer<UInt8>, to output: UnsafeMutablePointer<UInt8>
    ) {
        four(p0, p1, p2, p3, alphaWords: UnsafeRawPointer(source).loadUnaligned(as: SIMD4<UInt32>.self), to: output)
    }

    /// Four pixels to 16 bytes at `output`, alpha from byte 3 of each of `alphaWords` (four RGBA pixels read as
    /// little-endian words; the other bytes are ignored).
    @inline(always)
    static func four(
        _ p0: SIMD4<Float>, _ p1: SIMD4<Float>, _ p2: SIMD4<Float>, _ p3: SIMD4<Float>,
        alphaWords: SIMD4<UInt32>, to output: UnsafeMutablePointer<UInt8>
    ) {
        let codes = SIMD16<UInt32>(
            lowHalf: SIMD8(lowHalf: bits(p0), highHalf: bits(p1)),
            highHalf: SIMD8(lowHalf: bits(p2), highHalf: bits(p3)))
        let colour = unsafeBitCast(SIMD16<UInt8>(truncatingIfNeeded: codes), to: SIMD4<UInt32>.self)
        let rgba = (colour & 0x00FF_FFFF) | (alphaWords & 0xFF00_0000)  // little-endian: byte 3 of each word is alpha
        UnsafeMutableRawPointer(output).storeBytes(of: rgba, as: SIMD4<UInt32>.self)
    }

    /// The pixel's lanes clamped, scaled and rounded; the code is the low byte of each lane.
    @inline(always)
    static func bits(_ c: SIMD4<Float>) -> SIMD4<UInt32> {
        unsafeBitCast(clamp01(c) * 255 + 12_582_912, to: SIMD4<UInt32>.self)
    }
}
