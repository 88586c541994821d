/// RGBA → YUV 4:2:0, the one converter (the encoders, the camera's `.yuv420p` frames, the renderer's YUV path):
/// BT.709 (the matrix the streams declare), limited range, each chroma sample the mean of its 2 × 2 block (the
/// last column and row repeat on odd sizes), in integer fixed point, in one pass over the RGBA bytes straight
/// into the planes of the destination frame (for the encoders, the frame the renditions share).
///
/// Two implementations of the same arithmetic: `referenceYUV420(from:)`, one 2 × 2 block at a time, is the
/// readable one; `convert(_:into:)` works on 16 pixels of two rows at a time in `SIMD16<Int32>` lanes and
/// reuses the destination's buffers (the encoders' hot path). Tests hold them byte-identical, within one code
/// value of the BT.709 formulas in `Float` and of libswscale set to BT.709.
public enum YUV420Conversion {
    // Luma: 219/255 · (Kr, Kg, Kb) in 1/2¹⁵ (sum 28142 = 219/255 · 2¹⁵).
    private static let yR: Int32 = 5983, yG: Int32 = 20127, yB: Int32 = 2032
    // Chroma from sums of 4 samples: 224/255 · coefficient / 4 in 1/2¹⁶ (each row sums to 0).
    private static let cbR: Int32 = -1649, cbG: Int32 = -5547, cbB: Int32 = 7196
    private static let crR: Int32 = 7196, crG: Int32 = -6536, crB: Int32 = -660
    /// Offset and rounding of luma (16 in 1/2¹⁵, plus a half) and chroma (128 in 1/2¹⁶, plus a half).
    private static let lumaBias: Int32 = 16 << 15 + 1 << 14, chromaBias: Int32 = 128 << 16 + 1 << 15

    /// `picture` (`.rgba`) as a new `.yuv420p` picture with tightly packed planes.
    public static func yuv420(from picture: Frame) -> Frame {
        var yuv = Frame(yuv420Width: picture.width, height: picture.height)
        convert(picture, into: &yuv)
        return yuv
    }

    /// Converts `picture` (`.rgba`) into `yuv`, reusing its plane buffers when nobody else holds them (a
    /// ring of pictures the encoders have released costs no allocation); a `yuv` of another size or layout
    /// is replaced by a fresh one. Byte-identical to `referenceYUV420(from:)`.
    public static func convert(_ picture: Frame, into yuv: inout Frame) {
        precondition(picture.format == .rgba)
        let width = picture.width, height = picture.height
        if yuv.format != .yuv420p || yuv.width != width || yuv.height != height || yuv.planes.count != 3
            || yuv.planes[0].bytesPerRow != width
        {
            yuv = Frame(yuv420Width: width, height: height)
        }
        let stride = picture.planes[0].bytesPerRow, chromaWidth = yuv.planes[1].bytesPerRow
        picture.planes[0].bytes.withUnsafeBufferPointer { rgba in
            yuv.withMutableYUVPlanes { luma, cb, cr in
                for cy in 0..<(height + 1) / 2 {
                    let y0 = 2 * cy, y1 = min(2 * cy + 1, height - 1)
                    convertRowPair(
                        rgba.baseAddress! + y0 * stride, rgba.baseAddress! + y1 * stride, width: width,
                        luma0: luma + y0 * width, luma1: luma + y1 * width,
                        cb: cb + cy * chromaWidth, cr: cr + cy * chromaWidth)
                }
            }
        }
    }

    /// The straightforward conversion, one 2 × 2 block at a time: what `convert(_:into:)` must equal.
    public static func referenceYUV420(from picture: Frame) -> Frame {
        precondition(picture.format == .rgba)
        let width = picture.width, height = picture.height, stride = picture.planes[0].bytesPerRow
        var yuv = Frame(yuv420Width: width, height: height)
        let chromaWidth = yuv.planes[1].bytesPerRow
        picture.planes[0].bytes.withUnsafeBufferPointer { rgba in
            yuv.withMutableYUVPlanes { luma, cb, cr in
                for cy in 0..<(height + 1) / 2 {
                    let y0 = 2 * cy, y1 = min(2 * cy + 1, height - 1)
                    for cx in 0..<chromaWidth {
                        convertBlock(
                            x0: 2 * cx, x1: min(2 * cx + 1, width - 1), cx: cx,
                            row0: rgba.baseAddress! + y0 * stride, row1: rgba.baseAddress! + y1 * stride,
                            luma0: luma + y0 * width, luma1: luma + y1 * width,
                            cb: cb + cy * chromaWidth, cr: cr + cy * chromaWidth)
                    }
                }
            }
        }
        return yuv
    }

    /// Two RGBA rows (the same row twice for the last row of an odd height) → their luma rows and one row
    /// of each chroma plane: 16 pixels at a time, then block by block for the rest.
    private static func convertRowPair(
        _ row0: UnsafePointer<UInt8>, _ row1: UnsafePointer<UInt8>, width: Int,
        luma0: UnsafeMutablePointer<UInt8>, luma1: UnsafeMutablePointer<UInt8>,
        cb: UnsafeMutablePointer<UInt8>, cr: UnsafeMutablePointer<UInt8>
    ) {
        var x = 0
        while x + 16 <= width {
            let top = UnsafeRawPointer(row0 + 4 * x).loadUnaligned(as: SIMD16<Int32>.self)
            let bottom = UnsafeRawPointer(row1 + 4 * x).loadUnaligned(as: SIMD16<Int32>.self)
            let byte = SIMD16<Int32>(repeating: 0xFF)
            let r0 = top & byte, g0 = (top &>> 8) & byte, b0 = (top &>> 16) & byte
            let r1 = bottom & byte, g1 = (bottom &>> 8) & byte, b1 = (bottom &>> 16) & byte
            let lumaTop = (yR &* r0 &+ yG &* g0 &+ yB &* b0 &+ lumaBias) &>> 15
            let lumaBottom = (yR &* r1 &+ yG &* g1 &+ yB &* b1 &+ lumaBias) &>> 15
            UnsafeMutableRawPointer(luma0 + x).storeBytes(
                of: SIMD16<UInt8>(truncatingIfNeeded: lumaTop), as: SIMD16<UInt8>.self)
            UnsafeMutableRawPointer(luma1 + x).storeBytes(
                of: SIMD16<UInt8>(truncatingIfNeeded: lumaBottom), as: SIMD16<UInt8>.self)
            // Sums of each 2 × 2 block: the two rows, then neighbouring columns.
            let r = r0 &+ r1, g = g0 &+ g1, b = b0 &+ b1
            let sr = r.evenHalf &+ r.oddHalf, sg = g.evenHalf &+ g.oddHalf, sb = b.evenHalf &+ b.oddHalf
            let blue = (cbR &* sr &+ cbG &* sg &+ cbB &* sb &+ chromaBias) &>> 16
            let red = (crR &* sr &+ crG &* sg &+ crB &* sb &+ chromaBias) &>> 16
            UnsafeMutableRawPointer(cb + x / 2).storeBytes(
                of: SIMD8<UInt8>(truncatingIfNeeded: blue), as: SIMD8<UInt8>.self)
            UnsafeMutableRawPointer(cr + x / 2).storeBytes(
                of: SIMD8<UInt8>(truncatingIfNeeded: red), as: SIMD8<UInt8>.self)
            x += 16
        }
        for cx in x / 2..<(width + 1) / 2 {
            convertBlock(
                x0: 2 * cx, x1: min(2 * cx + 1, width - 1), cx: cx, row0: row0, row1: row1, luma0: luma0,
                luma1: luma1, cb: cb, cr: cr)
        }
    }

    /// One 2 × 2 block (columns `x0`, `x1` of two rows) → four luma samples and chroma sample `cx`.
    /// Written for the odd last column and row too: the repeated sample writes the same value.
    @inline(__always)
    private static func convertBlock(
        x0: Int, x1: Int, cx: Int, row0: UnsafePointer<UInt8>, row1: UnsafePointer<UInt8>,
        luma0: UnsafeMutablePointer<UInt8>, luma1: UnsafeMutablePointer<UInt8>,
        cb: UnsafeMutablePointer<UInt8>, cr: UnsafeMutablePointer<UInt8>
    ) {
        let a = row0 + 4 * x0, b = row0 + 4 * x1, c = row1 + 4 * x0, d = row1 + 4 * x1
        let r = (Int32(a[0]), Int32(b[0]), Int32(c[0]), Int32(d[0]))
        let g = (Int32(a[1]), Int32(b[1]), Int32(c[1]), Int32(d[1]))
        let bl = (Int32(a[2]), Int32(b[2]), Int32(c[2]), Int32(d[2]))
        luma0[x0] = lumaByte(r.0, g.0, bl.0)
        luma0[x1] = lumaByte(r.1, g.1, bl.1)
        luma1[x0] = lumaByte(r.2, g.2, bl.2)
        luma1[x1] = lumaByte(r.3, g.3, bl.3)
        let sr = r.0 + r.1 + r.2 + r.3, sg = g.0 + g.1 + g.2 + g.3, sb = bl.0 + bl.1 + bl.2 + bl.3
        cb[cx] = UInt8(truncatingIfNeeded: (cbR * sr + cbG * sg + cbB * sb + chromaBias) >> 16)
        cr[cx] = UInt8(truncatingIfNeeded: (crR * sr + crG * sg + crB * sb + chromaBias) >> 16)
    }

    @inline(__always)
    private static func lumaByte(_ r: Int32, _ g: Int32, _ b: Int32) -> UInt8 {
        UInt8(truncatingIfNeeded: (yR * r + yG * g + yB * b + lumaBias) >> 15)
    }
}

extension Frame {
    /// Calls `body` with the base addresses of the three planes of a `.yuv420p` frame, written in place: each
    /// buffer is moved out of the frame meanwhile, so one that nobody else holds is not copied first.
    mutating func withMutableYUVPlanes<R>(
        _ body: (UnsafeMutablePointer<UInt8>, UnsafeMutablePointer<UInt8>, UnsafeMutablePointer<UInt8>) -> R
    ) -> R {
        var luma: [UInt8] = [], cb: [UInt8] = [], cr: [UInt8] = []
        swap(&luma, &planes[0].bytes)
        swap(&cb, &planes[1].bytes)
        swap(&cr, &planes[2].bytes)
        defer {
            swap(&luma, &planes[0].bytes)
            swap(&cb, &planes[1].bytes)
            swap(&cr, &planes[2].bytes)
        }
        return luma.withUnsafeMutableBufferPointer { l in
            cb.withUnsafeMutableBufferPointer { b in
                cr.withUnsafeMutableBufferPointer { r in body(l.baseAddress!, b.baseAddress!, r.baseAddress!) }
            }
        }
    }
}
