internal import CFFmpeg

/// An owned `SwsContext` (libswscale): converts pictures between sizes and pixel formats.
///
/// One scaler serves one (source size, format) → (destination size, format) pair; it is freed in
/// `deinit`. Confined to one task (not `Sendable`).
public final class Scaler {
    let context: OpaquePointer
    let sourceWidth: Int, sourceHeight: Int
    let destinationWidth: Int, destinationHeight: Int
    let destinationFormat: AVPixelFormat

    /// The Y′CbCr matrix of a conversion between RGB and YUV (libswscale's own default is BT.601).
    enum Matrix {
        /// Standard definition, and JPEG (JFIF) pictures.
        case bt601
        /// HD video: what the encoders write in the stream's colour description.
        case bt709
    }

    /// A scaler using bilinear interpolation (libswscale's good speed/quality trade-off for video
    /// downscaling by less than 2×, which is what a ladder does). `matrix` matters only between RGB and YUV;
    /// the range (full for RGB and `YUVJ`, limited for other YUV) follows the formats.
    init(
        from sourceWidth: Int, _ sourceHeight: Int, _ sourceFormat: AVPixelFormat,
        to destinationWidth: Int, _ destinationHeight: Int, _ destinationFormat: AVPixelFormat,
        matrix: Matrix = .bt709
    ) throws(FFmpegError) {
        guard
            let context = sws_getContext(
                Int32(sourceWidth), Int32(sourceHeight), sourceFormat,
                Int32(destinationWidth), Int32(destinationHeight), destinationFormat,
                Int32(SWS_BILINEAR), nil, nil, nil)
        else { throw .allocationFailed("sws_getContext") }
        if matrix == .bt709 { Self.useBT709(context) }
        self.context = context
        self.sourceWidth = sourceWidth
        self.sourceHeight = sourceHeight
        self.destinationWidth = destinationWidth
        self.destinationHeight = destinationHeight
        self.destinationFormat = destinationFormat
    }

    deinit { sws_freeContext(context) }

    /// Switches a context's matrices to BT.709, keeping the ranges libswscale chose from the formats.
    private static func useBT709(_ context: OpaquePointer) {
        var inverse: UnsafeMutablePointer<Int32>?, table: UnsafeMutablePointer<Int32>?
        var sourceRange: Int32 = 0, destinationRange: Int32 = 0, brightness: Int32 = 0, contrast: Int32 = 0
        var saturation: Int32 = 0
        guard
            sws_getColorspaceDetails(
                context, &inverse, &sourceRange, &table, &destinationRange, &brightness, &contrast, &saturation) >= 0
        else { return }  // not a conversion the matrices apply to
        let coefficients = sws_getCoefficients(SWS_CS_ITU709)
        sws_setColorspaceDetails(
            context, coefficients, sourceRange, coefficients, destinationRange, brightness, contrast, saturation)
    }

    /// Scales `source` into `destination`, which must already have buffers of the destination size and format.
    func scale(_ source: MediaFrame, into destination: MediaFrame) throws(FFmpegError) {
        let src = source.pointer, dst = destination.pointer
        let result = withUnsafePointer(to: &src.pointee.data) { srcData in
            srcData.withMemoryRebound(to: UnsafePointer<UInt8>?.self, capacity: 8) { srcPlanes in
                withUnsafePointer(to: &src.pointee.linesize) { srcSizes in
                    srcSizes.withMemoryRebound(to: Int32.self, capacity: 8) { srcStrides in
                        withUnsafePointer(to: &dst.pointee.data) { dstData in
                            dstData.withMemoryRebound(to: UnsafeMutablePointer<UInt8>?.self, capacity: 8) { dstPlanes in
                                withUnsafePointer(to: &dst.pointee.linesize) { dstSizes in
                                    dstSizes.withMemoryRebound(to: Int32.self, capacity: 8) { dstStrides in
                                        sws_scale(
                                            context, srcPlanes, srcStrides, 0, Int32(sourceHeight), dstPlanes,
                                            dstStrides)
                                    }
                                }
                            }
                        }
                    }
                }
            }
        }
        try check(result, "sws_scale")
        destination.pointer.pointee.pts = source.pointer.pointee.pts
    }
}
