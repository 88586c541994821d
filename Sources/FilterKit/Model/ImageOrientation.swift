/// How a stored picture is turned to be seen upright: the eight values of the EXIF/TIFF Orientation tag
/// (TIFF 6.0 §Orientation, CIPA DC-008 §4.6.4), named by what a viewer does to the stored pixels.
///
///     let upright = ImageOrientation(exifValue: 6)?.apply(to: decoded)   // a 4032 × 3024 frame becomes 3024 × 4032
///
/// For a stored picture S of width w and height h, the upright picture U (w × h for 1–4, h × w for 5–8) is:
/// 1 U(x, y) = S(x, y); 2 S(w−1−x, y); 3 S(w−1−x, h−1−y); 4 S(x, h−1−y); 5 S(y, x); 6 S(y, h−1−x);
/// 7 S(w−1−y, h−1−x); 8 S(w−1−y, x).
public enum ImageOrientation: Int, Sendable, Hashable, CaseIterable {
    case up = 1
    case mirrored = 2
    case rotated180 = 3
    case mirroredVertically = 4
    /// Transposed: mirrored horizontally, then rotated 270° clockwise.
    case transposed = 5
    case rotated90Clockwise = 6
    /// Transversed: mirrored horizontally, then rotated 90° clockwise.
    case transversed = 7
    case rotated270Clockwise = 8

    /// The orientation an EXIF Orientation value means; nil outside 1–8 (readers then treat the picture as upright).
    public init?(exifValue: Int) { self.init(rawValue: exifValue) }

    /// True for 5–8, which swap width and height.
    public var swapsSides: Bool { rawValue >= 5 }

    /// The upright copy of an `.rgba` frame (a YUV frame is returned unchanged: camera and video frames are
    /// upright already). Pure; the output rows are packed.
    public func apply(to frame: Frame) -> Frame {
        guard self != .up || frame.planes[0].bytesPerRow != frame.width * 4, frame.format == .rgba else { return frame }
        let w = frame.width, h = frame.height
        let (outWidth, outHeight) = swapsSides ? (h, w) : (w, h)
        let source = frame.planes[0]
        let stride = source.bytesPerRow
        var bytes = [UInt8](repeating: 0, count: outWidth * outHeight * 4)
        // Where output pixel (x, y) reads: start + x·dx + y·dy, in source pixels' byte offsets.
        let (start, dx, dy): (Int, Int, Int)
        switch self {
        case .up: (start, dx, dy) = (0, 4, stride)
        case .mirrored: (start, dx, dy) = (4 * (w - 1), -4, stride)
        case .rotated180: (start, dx, dy) = (4 * (w - 1) + stride * (h - 1), -4, -stride)
        case .mirroredVertically: (start, dx, dy) = (stride * (h - 1), 4, -stride)
        case .transposed: (start, dx, dy) = (0, stride, 4)
        case .rotated90Clockwise: (start, dx, dy) = (stride * (h - 1), -stride, 4)
        case .transversed: (start, dx, dy) = (4 * (w - 1) + stride * (h - 1), -stride, -4)
        case .rotated270Clockwise: (start, dx, dy) = (4 * (w - 1), stride, -4)
        }
        source.bytes.withUnsafeBytes { raw in
            bytes.withUnsafeMutableBytes { out in
                guard let s = raw.baseAddress, let d = out.baseAddress else { return }
                // In tiles, so a rotation's reads down the source columns stay within cached rows.
                let tile = 64
                for tileY in Swift.stride(from: 0, to: outHeight, by: tile) {
                    for tileX in Swift.stride(from: 0, to: outWidth, by: tile) {
                        for y in tileY..<min(outHeight, tileY + tile) {
                            var from = start + y * dy + tileX * dx
                            let row = d + y * outWidth * 4
                            for x in tileX..<min(outWidth, tileX + tile) {
                                row.storeBytes(
                                    of: s.loadUnaligned(fromByteOffset: from, as: UInt32.self),
                                    toByteOffset: 4 * x, as: UInt32.self)
                                from += dx
                            }
                        }
                    }
                }
            }
        }
        return Frame(
            format: .rgba, width: outWidth, height: outHeight,
            planes: [Frame.Plane(width: outWidth, height: outHeight, bytesPerRow: outWidth * 4, bytes: bytes)])
    }
}
