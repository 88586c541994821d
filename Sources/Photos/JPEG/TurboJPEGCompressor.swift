internal import CTurboJPEG

/// Owns a TurboJPEG compressor handle (`tjInitCompress`, freed by `tjDestroy` in `deinit`).
final class TurboJPEGCompressor {
    private let handle: tjhandle

    init() throws(PhotoError) {
        guard let handle = tjInitCompress() else {
            throw .library(
                name: "libjpeg-turbo", function: "tjInitCompress", message: String(cString: tjGetErrorStr2(nil)))
        }
        self.handle = handle
    }

    deinit { tjDestroy(handle) }

    /// Chrominance subsampling of the output.
    enum Subsampling {
        case s444, s422, s420
        var value: Int32 {
            switch self {
            case .s444: Int32(TJSAMP_444.rawValue)
            case .s422: Int32(TJSAMP_422.rawValue)
            case .s420: Int32(TJSAMP_420.rawValue)
            }
        }
    }

    /// Encodes RGBA rows (alpha ignored) as a baseline JPEG of `quality` (1–100), accurate DCT.
    func compress(
        rgba: [UInt8], width: Int, height: Int, bytesPerRow: Int, quality: Int,
        subsampling: Subsampling
    ) throws(PhotoError) -> [UInt8] {
        var buffer: UnsafeMutablePointer<UInt8>?
        var size: UInt = 0
        let status = rgba.withUnsafeBufferPointer { source in
            tjCompress2(
                handle, source.baseAddress, Int32(width), Int32(bytesPerRow), Int32(height), Int32(TJPF_RGBA.rawValue),
                &buffer, &size, subsampling.value, Int32(quality), TJFLAG_ACCURATEDCT)
        }
        defer { if let buffer { tjFree(buffer) } }
        guard status == 0, let buffer else {
            throw .library(
                name: "libjpeg-turbo", function: "tjCompress2", message: String(cString: tjGetErrorStr2(handle)))
        }
        return Array(UnsafeBufferPointer(start: buffer, count: Int(size)))
    }
}
