/// RGBA → YUV 4:2:0 for the encoders, in integer fixed point: BT.709 (the matrix the streams declare),
/// limited range, each chroma sample the mean of its 2 × 2 block (the last column and row repeat on odd
/// sizes). It writes the three planes straight into the picture the renditions share, in one pass over
/// the RGBA bytes; libswscale (`Scaler`, the reference the tests compare with) took about twice as long
/// and needed a copy out of its frame afterwards.
enum YUV420Conversion {
    // Luma: 219/255 · (Kr, Kg, Kb) in 1/2¹⁵ (sum 28142 = 219/255 · 2¹⁵).
    private static let yR: Int32 = 5983, yG: Int32 = 20127, yB: Int32 = 2032
    // Chroma from sums of 4 samples: 224/255 · coefficient / 4 in 1/2¹⁶ (each row sums to 0).
    private static let cbR: Int32 = -1649, cbG: Int32 = -5547, cbB: Int32 = 7196
    private static let crR: Int32 = 7196, crG: Int32 = -6536, crB: Int32 = -660

    /// `picture` (`.rgba`) as a new `.yuv420p` picture with tightly packed planes.
    static func yuv420(from picture: Picture) -> Picture {
        precondition(picture.layout == .rgba)
        let width = picture.width, height = picture.height, stride = picture.planes[0].bytesPerRow
        let chromaWidth = (width + 1) / 2, chromaHeight = (height + 1) / 2
        var cb = [UInt8](), cr = [UInt8]()
        let luma = [UInt8](unsafeUninitializedCapacity: width * height) { lumaBuffer, lumaCount in
            cb = [UInt8](unsafeUninitializedCapacity: chromaWidth * chromaHeight) { cbBuffer, cbCount in
                cr = [UInt8](unsafeUninitializedCapacity: chromaWidth * chromaHeight) { crBuffer, crCount in
                    picture.planes[0].bytes.withUnsafeBufferPointer { rgba in
                        convert(
                            rgba.baseAddress!, stride: stride, width: width, height: height, luma: lumaBuffer.baseAddress!,
                            cb: cbBuffer.baseAddress!, cr: crBuffer.baseAddress!)
                    }
                    crCount = chromaWidth * chromaHeight
                }
                cbCount = chromaWidth * chromaHeight
            }
            lumaCount = width * height
        }
        return Picture(
            layout: .yuv420p, width: width, height: height,
            planes: [.init(bytes: luma, bytesPerRow: width), .init(bytes: cb, bytesPerRow: chromaWidth),
                     .init(bytes: cr, bytesPerRow: chromaWidth)])
    }

    private static func convert(
        _ rgba: UnsafePointer<UInt8>, stride: Int, width: Int, height: Int, luma: UnsafeMutablePointer<UInt8>,
        cb: UnsafeMutablePointer<UInt8>, cr: UnsafeMutablePointer<UInt8>
    ) {
        let chromaWidth = (width + 1) / 2
        for cy in 0..<(height + 1) / 2 {
            let y0 = 2 * cy, y1 = min(2 * cy + 1, height - 1)
            let row0 = rgba + y0 * stride, row1 = rgba + y1 * stride
            let luma0 = luma + y0 * width, luma1 = luma + y1 * width
            let cbRow = cb + cy * chromaWidth, crRow = cr + cy * chromaWidth
            for cx in 0..<chromaWidth {
                let x0 = 2 * cx, x1 = min(2 * cx + 1, width - 1)
                let a = row0 + 4 * x0, b = row0 + 4 * x1, c = row1 + 4 * x0, d = row1 + 4 * x1
                let r = (Int32(a[0]), Int32(b[0]), Int32(c[0]), Int32(d[0]))
                let g = (Int32(a[1]), Int32(b[1]), Int32(c[1]), Int32(d[1]))
                let bl = (Int32(a[2]), Int32(b[2]), Int32(c[2]), Int32(d[2]))
                // Written for the odd last column and row too: the repeated sample writes the same value.
                luma0[x0] = lumaByte(r.0, g.0, bl.0)
                luma0[x1] = lumaByte(r.1, g.1, bl.1)
                luma1[x0] = lumaByte(r.2, g.2, bl.2)
                luma1[x1] = lumaByte(r.3, g.3, bl.3)
                let sr = r.0 + r.1 + r.2 + r.3, sg = g.0 + g.1 + g.2 + g.3, sb = bl.0 + bl.1 + bl.2 + bl.3
                cbRow[cx] = UInt8(truncatingIfNeeded: (cbR * sr + cbG * sg + cbB * sb + 128 << 16 + 1 << 15) >> 16)
                crRow[cx] = UInt8(truncatingIfNeeded: (crR * sr + crG * sg + crB * sb + 128 << 16 + 1 << 15) >> 16)
            }
        }
    }

    @inline(__always)
    private static func lumaByte(_ r: Int32, _ g: Int32, _ b: Int32) -> UInt8 {
        UInt8(truncatingIfNeeded: (yR * r + yG * g + yB * b + 16 << 15 + 1 << 14) >> 15)
    }
}
