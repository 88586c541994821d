import Parallel

/// The fast path: colour-only frames through the `ExactByteTable` when the renderer gives one; otherwise
/// the colour steps through the `ColourLUT`, the spatial steps as running-sum passes (along rows on one
/// `SIMD4<Float>` per pixel; down columns, and the guided filter's per-sample arithmetic, four floats at a time on
/// `PackedRGB` rows), split by rows across cores (`SpatialRender`). Same formulas as `ReferenceRenderer`, in `Float`.
enum FastRenderer {
    static func render(
        _ source: Frame.Plane, into output: inout Frame.Plane, width: Int, height: Int,
        renderer: FilterRenderer, byteTable: ExactByteTable? = nil
    ) {
        let values = renderer.values, threads = renderer.threads
        let sourceStride = source.bytesPerRow, outputStride = output.bytesPerRow
        source.bytes.withUnsafeBufferPointer { sourceBuffer in
            output.bytes.withUnsafeMutableBufferPointer { outputBuffer in
                let src = sourceBuffer.baseAddress!, dst = outputBuffer.baseAddress!
                let rows = SourceRows(
                    bytes: src, stride: sourceStride, width: width, height: height,
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
                SpatialRender(
                    rows: rows, output: dst, outputStride: outputStride, renderer: renderer,
                    byteTable: byteTable
                ).run()
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
