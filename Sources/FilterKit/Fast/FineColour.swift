/// The colour steps' output kept finer than 8 bits for the spatial steps that follow: G in 11 bits, R and
/// B in 10, packed in one `UInt32` (R in bits 0–9, G in 10–20, B in 21–30; bit 31 is always clear, so
/// `ExactByteTable` can mark a missing entry with all bits set), each channel clamped to 0…1 and rounded
/// to the nearest of 1023 (G: 2047) steps.
///
/// Why: presets with spatial steps map their colours through an `ExactByteTable` of these codes, so every
/// frame's colour step is one table load; the per-pixel pass rounds its output the same way (`Rounded`), so
/// the two give the same floats by construction. The rounding error is at most 0.063 code values in G and
/// 0.125 in R and B (half of 255/2047 and 255/1023), well inside the ±1 contract with the reference even after
/// sharpening (which amplifies luma differences at most 1 + 2·sharpness times).
enum FineColour {
    /// Computed, not stored: a stored `static let` is a lazy global, checked (`swift_once`) on every decode.
    static var unit: SIMD4<Float> { SIMD4(1 / 1023, 1 / 2047, 1 / 1023, 0) }

    /// `c` (lanes 0–2) clamped to 0…1 and rounded to the nearest step (ties to even), packed.
    @inline(always)
    static func encode(_ c: SIMD4<Float>) -> UInt32 {
        FastRenderer.code(c.x, scale: 1023) | FastRenderer.code(c.y, scale: 2047) << 10
            | FastRenderer.code(c.z, scale: 1023) << 21
    }

    /// The colour a packed code stands for (lane 3 is 0): each lane masks its channel's bits in place (no
    /// shifts), and `fieldUnit` scales the field by `unit` and undoes its position (lane ≥ 1: the field is
    /// c · 2^k, and c · 2^k · (unit · 2^−k) rounds as c · unit does, since the powers of two are exact).
    @inline(always)
    static func decode(_ v: UInt32) -> SIMD4<Float> {
        let fields = SIMD4<UInt32>(repeating: v) & SIMD4(1023, 2047 << 10, 1023 << 21, 0)
        return SIMD4<Float>(SIMD4<Int32>(truncatingIfNeeded: fields)) * fieldUnit
    }

    /// `unit` divided by each field's position, 2⁰, 2¹⁰ and 2²¹.
    static var fieldUnit: SIMD4<Float> { unit * SIMD4(1, 1 / 1024, 1 / 2_097_152, 0) }

    /// A colour kernel whose output is rounded to fine codes (`decode(encode(c))`), as the table gives it.
    struct Rounded<Kernel: ColourKernel>: ColourKernel {
        let kernel: Kernel

        @inline(always) func callAsFunction(_ r: UInt8, _ g: UInt8, _ b: UInt8) -> SIMD4<Float> {
            decode(encode(kernel(r, g, b)))
        }

        @inline(always)
        func four(_ p: UnsafePointer<UInt8>) -> (SIMD4<Float>, SIMD4<Float>, SIMD4<Float>, SIMD4<Float>) {
            let c = kernel.four(p)
            return (decode(encode(c.0)), decode(encode(c.1)), decode(encode(c.2)), decode(encode(c.3)))
        }
    }
}
