internal import CHeif

/// Owns a `heif_image` (released in `deinit`): decoded pixels, or pixels to encode.
final class HeifImage {
    let pointer: OpaquePointer

    init(_ pointer: OpaquePointer) { self.pointer = pointer }
    deinit { heif_image_release(pointer) }

    /// A new interleaved 8-bit RGBA (or RGB) image to fill.
    convenience init(width: Int, height: Int, alpha: Bool) throws(PhotoError) {
        var image: OpaquePointer?
        let chroma = alpha ? heif_chroma_interleaved_RGBA : heif_chroma_interleaved_RGB
        try check(
            heif_image_create(Int32(width), Int32(height), heif_colorspace_RGB, chroma, &image), "heif_image_create")
        guard let image else { throw .library(name: "libheif", function: "heif_image_create", message: "no image") }
        self.init(image)
        try check(
            heif_image_add_plane(image, heif_channel_interleaved, Int32(width), Int32(height), 8),
            "heif_image_add_plane")
    }

    var width: Int { Int(heif_image_get_width(pointer, heif_channel_interleaved)) }
    var height: Int { Int(heif_image_get_height(pointer, heif_channel_interleaved)) }

    /// The interleaved plane's rows, read-only: pointer and bytes per row.
    func plane() throws(PhotoError) -> (UnsafePointer<UInt8>, Int) {
        var stride: Int32 = 0
        guard let data = heif_image_get_plane_readonly(pointer, heif_channel_interleaved, &stride) else {
            throw .library(name: "libheif", function: "heif_image_get_plane_readonly", message: "no interleaved plane")
        }
        return (data, Int(stride))
    }

    /// The interleaved plane's rows, to write.
    func mutablePlane() throws(PhotoError) -> (UnsafeMutablePointer<UInt8>, Int) {
        var stride: Int32 = 0
        guard let data = heif_image_get_plane(pointer, heif_channel_interleaved, &stride) else {
            throw .library(name: "libheif", function: "heif_image_get_plane", message: "no interleaved plane")
        }
        return (data, Int(stride))
    }

    func setICCProfile(_ profile: [UInt8]) throws(PhotoError) {
        try check(
            profile.withUnsafeBytes { heif_image_set_raw_color_profile(pointer, "prof", $0.baseAddress, $0.count) },
            "heif_image_set_raw_color_profile")
    }
}
