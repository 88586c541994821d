internal import CFFmpeg

/// Makes a rendition's picture from the shared source YUV 4:2:0 picture, written straight into the encoder's
/// frame: a plane copy at the source size, else `AreaDownscaler` on each plane (luma at the rendition's
/// size, chroma at half of it). Confined to the rendition's thread (it owns a scratch row).
final class YUV420Downscaler {
    let sourceWidth: Int, sourceHeight: Int
    let width: Int, height: Int
    /// Luma and chroma downscalers, nil at the source size (a copy).
    private let planes: (luma: AreaDownscaler, chroma: AreaDownscaler)?
    private var rowSums: [UInt16]

    /// A downscaler from `sourceWidth` × `sourceHeight` to `width` × `height`, or nil if either axis grows.
    init?(from sourceWidth: Int, _ sourceHeight: Int, to width: Int, _ height: Int) {
        self.sourceWidth = sourceWidth
        self.sourceHeight = sourceHeight
        self.width = width
        self.height = height
        if sourceWidth == width && sourceHeight == height {
            planes = nil
        } else {
            guard let luma = AreaDownscaler(from: sourceWidth, sourceHeight, to: width, height),
                  let chroma = AreaDownscaler(
                      from: (sourceWidth + 1) / 2, (sourceHeight + 1) / 2, to: (width + 1) / 2, (height + 1) / 2)
            else { return nil }
            planes = (luma, chroma)
        }
        rowSums = [UInt16](repeating: 0, count: sourceWidth)
    }

    /// Writes `picture` (`.yuv420p` at the source size) into `frame`'s planes (YUV 4:2:0 at the rendition size).
    func scale(_ picture: Picture, into frame: MediaFrame) {
        precondition(picture.layout == .yuv420p && picture.width == sourceWidth && picture.height == sourceHeight)
        precondition(frame.width == width && frame.height == height)
        for index in 0..<3 {
            let source = picture.planes[index]
            let rows = index == 0 ? height : (height + 1) / 2, columns = index == 0 ? width : (width + 1) / 2
            source.bytes.withUnsafeBufferPointer { bytes in
                guard let planes else {
                    frame.copyIntoPlane(index, from: bytes, sourceStride: source.bytesPerRow, bytesPerRow: columns, rows: rows)
                    return
                }
                let (destination, stride) = frame.plane(index)
                guard let destination, let base = bytes.baseAddress else { return }
                rowSums.withUnsafeMutableBufferPointer { sums in
                    (index == 0 ? planes.luma : planes.chroma).scale(
                        base, sourceStride: source.bytesPerRow, into: destination, destinationStride: stride,
                        rowSums: sums.baseAddress!)
                }
            }
        }
    }
}
