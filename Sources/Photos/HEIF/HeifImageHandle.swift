internal import CHeif

/// Owns a `heif_image_handle` (released in `deinit`): one image of a HEIF file, with its metadata items.
final class HeifImageHandle {
    let pointer: OpaquePointer

    init(_ pointer: OpaquePointer) { self.pointer = pointer }
    deinit { heif_image_handle_release(pointer) }

    /// The size after the file's transformations (rotation, mirroring, crop), as the decoder hands it out.
    var width: Int { Int(heif_image_handle_get_width(pointer)) }
    var height: Int { Int(heif_image_handle_get_height(pointer)) }
    var hasAlpha: Bool { heif_image_handle_has_alpha_channel(pointer) != 0 }
    var lumaBitsPerPixel: Int { Int(heif_image_handle_get_luma_bits_per_pixel(pointer)) }

    /// The metadata items of `type` ("Exif" or "mime"), with their content types.
    func metadata(_ type: String) throws(PhotoError) -> [(contentType: String, bytes: [UInt8])] {
        let count = Int(heif_image_handle_get_number_of_metadata_blocks(pointer, type))
        guard count > 0 else { return [] }
        var ids = [heif_item_id](repeating: 0, count: count)
        let found = Int(heif_image_handle_get_list_of_metadata_block_IDs(pointer, type, &ids, Int32(count)))
        var items: [(String, [UInt8])] = []
        for id in ids.prefix(found) {
            let size = heif_image_handle_get_metadata_size(pointer, id)
            guard size > 0, size <= 64 << 20 else { continue }
            var bytes = [UInt8](repeating: 0, count: size)
            try check(
                bytes.withUnsafeMutableBytes { heif_image_handle_get_metadata(pointer, id, $0.baseAddress) },
                "heif_image_handle_get_metadata")
            let contentType = heif_image_handle_get_metadata_content_type(pointer, id).map { String(cString: $0) } ?? ""
            items.append((contentType, bytes))
        }
        return items
    }

    /// The ICC profile (colour profile type `prof` or `rICC`), or nil (none, or an nclx colour description).
    func iccProfile() throws(PhotoError) -> [UInt8]? {
        let type = heif_image_handle_get_color_profile_type(pointer)
        guard type == heif_color_profile_type_prof || type == heif_color_profile_type_rICC else { return nil }
        let size = heif_image_handle_get_raw_color_profile_size(pointer)
        guard size > 0 else { return nil }
        var bytes = [UInt8](repeating: 0, count: size)
        try check(
            bytes.withUnsafeMutableBytes { heif_image_handle_get_raw_color_profile(pointer, $0.baseAddress) },
            "heif_image_handle_get_raw_color_profile")
        return bytes
    }

    /// Decodes to interleaved 8-bit RGBA with the file's transformations applied (high bit depths reduced to 8).
    func decodeRGBA() throws(PhotoError) -> HeifImage {
        guard let options = heif_decoding_options_alloc() else {
            throw .library(name: "libheif", function: "heif_decoding_options_alloc", message: "out of memory")
        }
        defer { heif_decoding_options_free(options) }
        options.pointee.convert_hdr_to_8bit = 1
        var image: OpaquePointer?
        try check(
            heif_decode_image(pointer, &image, heif_colorspace_RGB, heif_chroma_interleaved_RGBA, options),
            "heif_decode_image")
        guard let image else { throw .library(name: "libheif", function: "heif_decode_image", message: "no image") }
        return HeifImage(image)
    }
}
