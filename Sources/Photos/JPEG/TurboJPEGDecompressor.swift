internal import CTurboJPEG

/// Owns a TurboJPEG decompressor handle (`tjInitDecompress`, freed by `tjDestroy` in `deinit`). One per decode:
/// a handle is not to be shared between threads.
final class TurboJPEGDecompressor {
    private let handle: tjhandle

    init() throws(PhotoError) {
        guard let handle = tjInitDecompress() else {
            throw .library(
                name: "libjpeg-turbo", function: "tjInitDecompress", message: String(cString: tjGetErrorStr2(nil)))
        }
        self.handle = handle
    }

    deinit { tjDestroy(handle) }

    struct Header {
        var width: Int, height: Int
        /// TJSAMP_* (chrominance subsampling), or -1 when unknown.
        var subsampling: Int32
        /// TJCS_* (the JPEG colour space).
        var colourSpace: Int32
        var isCMYK: Bool { colourSpace == Int32(TJCS_CMYK.rawValue) || colourSpace == Int32(TJCS_YCCK.rawValue) }
    }

    func header(_ jpeg: [UInt8]) throws(PhotoError) -> Header {
        var width: Int32 = 0, height: Int32 = 0, subsampling: Int32 = 0, colourSpace: Int32 = 0
        let status = jpeg.withUnsafeBufferPointer { buffer in
            tjDecompressHeader3(
                handle, buffer.baseAddress, UInt(buffer.count), &width, &height, &subsampling, &colourSpace)
        }
        if status != 0 { throw error("tjDecompressHeader3") }
        return Header(width: Int(width), height: Int(height), subsampling: subsampling, colourSpace: colourSpace)
    }

    /// Decodes into `output` (`width × height × 4` RGBA bytes, rows packed). Returns libjpeg's warning when the
    /// data was damaged but decoded (corrupt data is a warning to libjpeg, which fills in what it cannot read).
    /// Progressive JPEGs are limited to 500 scans (`TJFLAG_LIMITSCANS`), a bound against hostile files.
    func decodeRGBA(_ jpeg: [UInt8], width: Int, height: Int, into output: inout [UInt8]) throws(PhotoError) -> String?
    {
        let status = jpeg.withUnsafeBufferPointer { source in
            output.withUnsafeMutableBufferPointer { destination in
                tjDecompress2(
                    handle, source.baseAddress, UInt(source.count), destination.baseAddress, Int32(width),
                    Int32(width * 4), Int32(height), Int32(TJPF_RGBA.rawValue), TJFLAG_LIMITSCANS | TJFLAG_ACCURATEDCT)
            }
        }
        guard status != 0 else { return nil }
        if tjGetErrorCode(handle) == Int32(TJERR_WARNING.rawValue) { return String(cString: tjGetErrorStr2(handle)) }
        throw error("tjDecompress2")
    }

    private func error(_ function: String) -> PhotoError {
        .library(name: "libjpeg-turbo", function: function, message: String(cString: tjGetErrorStr2(handle)))
    }
}
