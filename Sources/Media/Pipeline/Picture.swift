internal import CFFmpeg

/// An uncompressed picture handed between threads: packed RGBA (the filter's working format) or planar
/// YUV 4:2:0, each plane a byte array with its row stride. A value (copy-on-write arrays), so a filtered
/// frame is shared by every rendition worker without copying.
struct Picture: Sendable {
    enum Layout: Sendable {
        case rgba
        case yuv420p
    }

    struct Plane: Sendable {
        var bytes: [UInt8]
        var bytesPerRow: Int
    }

    var layout: Layout
    var width: Int
    var height: Int
    var planes: [Plane]

    var pixelFormat: AVPixelFormat { layout == .rgba ? AV_PIX_FMT_RGBA : AV_PIX_FMT_YUV420P }

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
    /// Scales (and converts) a `Picture` of the scaler's source size and format into `destination`.
    func scale(_ picture: Picture, into destination: MediaFrame) throws(FFmpegError) {
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
