internal import CPNG

#if canImport(Glibc)
    import Glibc
#endif

/// Owns one libpng simplified-API `png_image` (allocated here, so its address stays fixed while libpng holds it;
/// `png_image_free` and the deallocation in `deinit`). libpng reports failures in `message` and a return value.
final class PNGImage {
    private let image: UnsafeMutablePointer<png_image>

    init() {
        image = .allocate(capacity: 1)
        image.initialize(to: png_image())
        image.pointee.version = png_uint_32(PNG_IMAGE_VERSION)
    }

    deinit {
        png_image_free(image)
        image.deallocate()
    }

    private var message: String {
        withUnsafeBytes(of: image.pointee.message) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
    }

    private func error(_ function: String) -> PhotoError {
        .library(name: "libpng", function: function, message: message)
    }

    /// Decodes a PNG file to 8-bit RGBA (palette, grey and tRNS expanded, 16-bit samples taken as sRGB-encoded and
    /// rounded to 8 bits, a gAMA other than sRGB's converted to sRGB; alpha kept, 255 where the file has none).
    /// `admit` is called with IHDR's size before the pixels are allocated.
    static func decodeRGBA(_ png: [UInt8], admit: PhotoLimits.Admission) throws(PhotoError) -> (
        width: Int, height: Int, rgba: [UInt8]
    ) {
        let owner = PNGImage()
        let image = owner.image
        let begun = png.withUnsafeBufferPointer { png_image_begin_read_from_memory(image, $0.baseAddress, $0.count) }
        guard begun != 0 else { throw owner.error("png_image_begin_read_from_memory") }
        let width = Int(image.pointee.width), height = Int(image.pointee.height)
        try admit(width, height)
        image.pointee.format = filterz_png_format_rgba
        image.pointee.flags |= filterz_png_flag_16bit_srgb
        var rgba = [UInt8](repeating: 0, count: width * height * 4)
        let finished = png.withUnsafeBufferPointer { _ in
            rgba.withUnsafeMutableBytes {
                png_image_finish_read(image, nil, $0.baseAddress, png_int_32(width * 4), nil)
            }
        }
        guard finished != 0 else { throw owner.error("png_image_finish_read") }
        return (width, height, rgba)
    }

    /// Encodes 8-bit RGBA rows as a PNG: RGBA, or RGB when `opaque` (every alpha 255) — libpng's default filters and
    /// compression, an sRGB chunk.
    static func encode(rgba: [UInt8], width: Int, height: Int, bytesPerRow: Int, opaque: Bool) throws(PhotoError)
        -> [UInt8]
    {
        let owner = PNGImage()
        let image = owner.image
        image.pointee.width = png_uint_32(width)
        image.pointee.height = png_uint_32(height)
        var pixels = rgba, stride = bytesPerRow
        image.pointee.format = filterz_png_format_rgba
        if opaque {
            // The RGB rows: the simplified API has no format that skips a filler byte.
            pixels = [UInt8](repeating: 0, count: width * height * 3)
            rgba.withUnsafeBufferPointer { source in
                pixels.withUnsafeMutableBufferPointer { rgb in
                    guard let s = source.baseAddress, let d = rgb.baseAddress else { return }
                    for y in 0..<height {
                        let row = s + y * bytesPerRow, out = d + y * width * 3
                        for x in 0..<width {
                            out[3 * x] = row[4 * x]
                            out[3 * x + 1] = row[4 * x + 1]
                            out[3 * x + 2] = row[4 * x + 2]
                        }
                    }
                }
            }
            stride = width * 3
            image.pointee.format = filterz_png_format_rgb
        }
        var memory: UnsafeMutablePointer<CChar>?
        var size = 0
        guard let stream = open_memstream(&memory, &size) else {
            throw .library(name: "libc", function: "open_memstream", message: String(cString: strerror(errno)))
        }
        // The row stride counts components, which are bytes at 8 bits.
        let written = pixels.withUnsafeBytes {
            png_image_write_to_stdio(image, stream, 0, $0.baseAddress, png_int_32(stride), nil)
        }
        fclose(stream)
        defer { free(memory) }
        guard written != 0, let memory else { throw owner.error("png_image_write_to_stdio") }
        return memory.withMemoryRebound(to: UInt8.self, capacity: size) {
            Array(UnsafeBufferPointer(start: $0, count: size))
        }
    }
}
