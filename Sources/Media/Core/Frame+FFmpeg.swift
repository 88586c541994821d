internal import CFFmpeg
import FilterKit

/// What libav needs of a FilterKit `Frame` (packed RGBA or planar YUV 4:2:0, each plane with its stride): its
/// pixel format and its planes as libswscale takes them. Frames handed between the pipeline's threads share
/// their plane arrays (copy-on-write), so a filtered frame goes to every rendition without a copy.
extension Frame {
    var pixelFormat: AVPixelFormat { format == .rgba ? AV_PIX_FMT_RGBA : AV_PIX_FMT_YUV420P }

    /// Calls `body` with plane base pointers and strides as libswscale wants them (4 entries each).
    func withPlanePointers<R>(
        _ body: ([UnsafePointer<UInt8>?], [Int32]) throws -> R
    ) rethrows -> R {
        func nest(_ index: Int, _ pointers: [UnsafePointer<UInt8>?]) throws -> R {
            if index == planes.count {
                let padded = pointers + Array(repeating: nil, count: 4 - pointers.count)
                let strides = planes.map { Int32($0.bytesPerRow) } + Array(repeating: 0, count: 4 - planes.count)
                return try body(padded, strides)
            }
            return try planes[index].bytes.withUnsafeBufferPointer { buffer in
                try nest(index + 1, pointers + [buffer.baseAddress])
            }
        }
        return try nest(0, [])
    }
}

extension Scaler {
    /// Scales (and converts) a frame of the scaler's source size and format into `destination`.
    func scale(_ picture: Frame, into destination: MediaFrame) throws(FFmpegError) {
        let dst = destination.pointer
        let result = picture.withPlanePointers { sources, strides in
            withUnsafePointer(to: &dst.pointee.data) { dstData in
                dstData.withMemoryRebound(to: UnsafeMutablePointer<UInt8>?.self, capacity: 8) { dstPlanes in
                    withUnsafePointer(to: &dst.pointee.linesize) { dstSizes in
                        dstSizes.withMemoryRebound(to: Int32.self, capacity: 8) { dstStrides in
                            sws_scale(context, sources, strides, 0, Int32(picture.height), dstPlanes, dstStrides)
                        }
                    }
                }
            }
        }
        try check(result, "sws_scale")
    }
}
