import Parallel

/// BT.709 limited-range YUV 4:2:0 → gamma-encoded RGBA, for frames that come as YUV into the renderer (the
/// other way is `YUV420Conversion`, in fixed point).
///
/// ITU-R BT.709-6: Kr = 0.2126, Kb = 0.0722; Y' = 16 + 219·(Kr R + Kg G + Kb B),
/// Cb = 128 + 224·(B − Y)/1.8556, Cr = 128 + 224·(R − Y)/1.5748 (normalised Y), and the inverse used here
/// R = Y + 1.5748 Cr, G = Y − 0.18732 Cb − 0.46812 Cr, B = Y + 1.8556 Cb.
/// Chroma is upsampled by repetition (each chroma sample covers its 2×2 block). A → 255.
public enum YUVConversion {
    /// A YUV 4:2:0 frame as an RGBA frame of the same size.
    public static func toRGBA(_ frame: Frame, threads: LentThreads = .callingThread) -> Frame {
        precondition(frame.format == .yuv420p)
        let width = frame.width, height = frame.height
        var out = Frame(rgbaWidth: width, height: height)
        let yp = frame.planes[0], up = frame.planes[1], vp = frame.planes[2]
        yp.bytes.withUnsafeBufferPointer { yb in
            up.bytes.withUnsafeBufferPointer { ub in
                vp.bytes.withUnsafeBufferPointer { vb in
                    out.planes[0].bytes.withUnsafeMutableBufferPointer { ob in
                        let yBase = yb.baseAddress!, uBase = ub.baseAddress!, vBase = vb.baseAddress!
                        let oBase = ob.baseAddress!
                        RowBands.run(count: height, threads: threads) { rows in
                            for y in rows {
                                let yRow = yBase + y * yp.bytesPerRow, oRow = oBase + y * width * 4
                                let uRow = uBase + (y / 2) * up.bytesPerRow, vRow = vBase + (y / 2) * vp.bytesPerRow
                                for x in 0..<width {
                                    let luma = (Float(yRow[x]) - 16) / 219
                                    let cb = (Float(uRow[x / 2]) - 128) / 224, cr = (Float(vRow[x / 2]) - 128) / 224
                                    let rgb = SIMD4<Float>(
                                        luma + 1.5748 * cr, luma - 0.18732 * cb - 0.46812 * cr,
                                        luma + 1.8556 * cb, 0)
                                    FastRenderer.storeBytes(rgb, alpha: 255, to: oRow + x * 4)
                                }
                            }
                        }
                    }
                }
            }
        }
        return out
    }
}
