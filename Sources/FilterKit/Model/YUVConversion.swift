/// BT.709 limited-range YUV 4:2:0 ↔ gamma-encoded RGBA, for decoder output and encoder input.
///
/// ITU-R BT.709-6: Kr = 0.2126, Kb = 0.0722; Y' = 16 + 219·(Kr R + Kg G + Kb B),
/// Cb = 128 + 224·(B − Y)/1.8556, Cr = 128 + 224·(R − Y)/1.5748 (normalised Y), and the inverse
/// R = Y + 1.5748 Cr, G = Y − 0.18732 Cb − 0.46812 Cr, B = Y + 1.8556 Cb.
/// Chroma is upsampled by repetition (each chroma sample covers its 2×2 block) and downsampled as the mean
/// of the block's RGB (centred siting between the four pixels, edges clamped for odd sizes). A → 255.
public enum YUVConversion {
    /// A YUV 4:2:0 frame as an RGBA frame of the same size.
    public static func toRGBA(_ frame: Frame, threads: Int = 1) -> Frame {
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

    /// Writes an RGBA frame into `output` as YUV 4:2:0 (replacing `output` if its format or size differs).
    public static func fromRGBA(_ frame: Frame, into output: inout Frame, threads: Int = 1) {
        precondition(frame.format == .rgba)
        let width = frame.width, height = frame.height
        if output.format != .yuv420p || output.width != width || output.height != height {
            output = Frame(yuv420Width: width, height: height)
        }
        let source = frame.planes[0]
        let chromaWidth = (width + 1) / 2, chromaHeight = (height + 1) / 2
        let kr: Float = 0.2126, kg: Float = 0.7152, kb: Float = 0.0722
        let yStride = output.planes[0].bytesPerRow, uStride = output.planes[1].bytesPerRow
        let vStride = output.planes[2].bytesPerRow
        var yPlane = output.planes[0].bytes, uPlane = output.planes[1].bytes, vPlane = output.planes[2].bytes
        output.planes[0].bytes = []  // drop the frame's references so the planes are written in place
        output.planes[1].bytes = []
        output.planes[2].bytes = []
        defer {
            output.planes[0].bytes = yPlane
            output.planes[1].bytes = uPlane
            output.planes[2].bytes = vPlane
        }
        source.bytes.withUnsafeBufferPointer { sb in
            yPlane.withUnsafeMutableBufferPointer { yb in
                uPlane.withUnsafeMutableBufferPointer { ub in
                    vPlane.withUnsafeMutableBufferPointer { vb in
                        let s = sb.baseAddress!, yBase = yb.baseAddress!, uBase = ub.baseAddress!
                        let vBase = vb.baseAddress!
                        RowBands.run(count: chromaHeight, threads: threads) { rows in
                            for cy in rows {
                                for cx in 0..<chromaWidth {
                                    var sum = SIMD3<Float>.zero
                                    for dy in 0..<2 {
                                        for dx in 0..<2 {
                                            let x = min(2 * cx + dx, width - 1), y = min(2 * cy + dy, height - 1)
                                            let p = s + y * source.bytesPerRow + x * 4
                                            let rgb = SIMD3<Float>(Float(p[0]), Float(p[1]), Float(p[2])) / 255
                                            sum += rgb
                                            if 2 * cx + dx < width && 2 * cy + dy < height {
                                                let luma = kr * rgb.x + kg * rgb.y + kb * rgb.z
                                                yBase[y * yStride + x] = byte(16 + 219 * luma)
                                            }
                                        }
                                    }
                                    let mean = sum / 4
                                    let luma = kr * mean.x + kg * mean.y + kb * mean.z
                                    uBase[cy * uStride + cx] = byte(128 + 224 * (mean.z - luma) / 1.8556)
                                    vBase[cy * vStride + cx] = byte(128 + 224 * (mean.x - luma) / 1.5748)
                                }
                            }
                        }
                    }
                }
            }
        }
    }

    /// An RGBA frame as a new YUV 4:2:0 frame.
    public static func toYUV420(_ frame: Frame, threads: Int = 1) -> Frame {
        var output = Frame(yuv420Width: frame.width, height: frame.height)
        fromRGBA(frame, into: &output, threads: threads)
        return output
    }

    @inline(__always)
    private static func byte(_ value: Float) -> UInt8 { UInt8(min(max(value + 0.5, 0), 255)) }
}
