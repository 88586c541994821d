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

    /// A scaler using bilinear interpolation (libswscale's good speed/quality trade-off for video
    /// downscaling by less than 2×, which is what a ladder does).
    init(
        from sourceWidth: Int, _ sourceHeight: Int, _ sourceFormat: AVPixelFormat,
        to destinationWidth: Int, _ destinationHeight: Int, _ destinationFormat: AVPixelFormat
    ) throws(FFmpegError) {
        guard
            let context = sws_getContext(
                Int32(sourceWidth), Int32(sourceHeight), sourceFormat,
                Int32(destinationWidth), Int32(destinationHeight), destinationFormat,
                Int32(SWS_BILINEAR), nil, nil, nil)
        else { throw .allocationFailed("sws_getContext") }
        self.context = context
        self.sourceWidth = sourceWidth
        self.sourceHeight = sourceHeight
        self.destinationWidth = destinationWidth
        self.destinationHeight = destinationHeight
        self.destinationFormat = destinationFormat
    }

    deinit { sws_freeContext(context) }

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
