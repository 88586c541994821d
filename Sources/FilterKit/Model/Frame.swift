/// An 8-bit picture as planes of bytes with an explicit stride (bytes per row), the way decoders and
/// encoders hand them over.
///
/// Two layouts:
/// - `.rgba`: one plane of packed R, G, B, A bytes (4 per pixel), gamma-encoded sRGB as the app worked
///   in; A is carried through unchanged. This is the renderer's working format.
/// - `.yuv420p`: three planes Y, Cb, Cr, with Cb and Cr at half width and height (rounded up), BT.709
///   limited range (Y 16…235, C 16…240) — what H.264 encoders take and decoders give.
///
/// Rows may be padded: only the first `width × bytesPerPixel` bytes of each `bytesPerRow` are pixels.
public struct Frame: Sendable, Hashable {
    public enum PixelFormat: String, Sendable, Hashable {
        case rgba
        case yuv420p
    }

    /// One plane: `height` rows of `bytesPerRow` bytes, of which `width` samples (× channels) are pixels.
    public struct Plane: Sendable, Hashable {
        public var width: Int
        public var height: Int
        public var bytesPerRow: Int
        public var bytes: [UInt8]

        public init(width: Int, height: Int, bytesPerRow: Int, bytes: [UInt8]) {
            precondition(bytes.count >= bytesPerRow * height, "plane bytes shorter than bytesPerRow × height")
            self.width = width
            self.height = height
            self.bytesPerRow = bytesPerRow
            self.bytes = bytes
        }

        /// A plane of zeros (or `fill`).
        public init(width: Int, height: Int, bytesPerRow: Int, fill: UInt8 = 0) {
            self.init(
                width: width, height: height, bytesPerRow: bytesPerRow,
                bytes: [UInt8](repeating: fill, count: bytesPerRow * height))
        }
    }

    public var format: PixelFormat
    public var width: Int
    public var height: Int
    public var planes: [Plane]

    public init(format: PixelFormat, width: Int, height: Int, planes: [Plane]) {
        precondition(planes.count == (format == .rgba ? 1 : 3), "wrong number of planes for \(format)")
        self.format = format
        self.width = width
        self.height = height
        self.planes = planes
    }

    /// A black frame (or RGBA `fill`) with tightly packed rows unless `bytesPerRow` asks for padding.
    public init(rgbaWidth width: Int, height: Int, bytesPerRow: Int? = nil) {
        let stride = bytesPerRow ?? width * 4
        precondition(stride >= width * 4)
        var plane = Plane(width: width, height: height, bytesPerRow: stride)
        for y in 0..<height {
            for x in 0..<width { plane.bytes[y * stride + x * 4 + 3] = 255 }
        }
        self.init(format: .rgba, width: width, height: height, planes: [plane])
    }

    /// A black YUV 4:2:0 frame with tightly packed rows.
    public init(yuv420Width width: Int, height: Int) {
        let chromaWidth = (width + 1) / 2, chromaHeight = (height + 1) / 2
        self.init(
            format: .yuv420p, width: width, height: height,
            planes: [
                Plane(width: width, height: height, bytesPerRow: width, fill: 16),
                Plane(width: chromaWidth, height: chromaHeight, bytesPerRow: chromaWidth, fill: 128),
                Plane(width: chromaWidth, height: chromaHeight, bytesPerRow: chromaWidth, fill: 128),
            ])
    }

    /// The RGBA bytes of pixel (x, y) of an `.rgba` frame.
    public func rgba(x: Int, y: Int) -> SIMD4<UInt8> {
        precondition(format == .rgba)
        let plane = planes[0]
        let offset = y * plane.bytesPerRow + x * 4
        return SIMD4(plane.bytes[offset], plane.bytes[offset + 1], plane.bytes[offset + 2], plane.bytes[offset + 3])
    }

    /// Only the pixel bytes, row after row, without padding (for comparisons and encoders that want packed rows).
    public func packedBytes(plane index: Int = 0) -> [UInt8] {
        let plane = planes[index]
        let rowBytes = plane.width * (format == .rgba ? 4 : 1)
        var out = [UInt8]()
        out.reserveCapacity(rowBytes * plane.height)
        for y in 0..<plane.height {
            out.append(contentsOf: plane.bytes[y * plane.bytesPerRow..<(y * plane.bytesPerRow + rowBytes)])
        }
        return out
    }
}
