internal import CHeif

/// Owns a libheif HEVC encoder (x265 on Debian; `heif_encoder_release` in `deinit`).
final class HeifEncoder {
    let pointer: OpaquePointer

    init(context: HeifContext, quality: Int) throws(PhotoError) {
        var encoder: OpaquePointer?
        try check(
            heif_context_get_encoder_for_format(context.pointer, heif_compression_HEVC, &encoder),
            "heif_context_get_encoder_for_format")
        guard let encoder else {
            throw .library(name: "libheif", function: "heif_context_get_encoder_for_format", message: "no HEVC encoder")
        }
        pointer = encoder
        heif_encoder_set_logging_level(encoder, 0)
        try check(heif_encoder_set_lossy_quality(encoder, Int32(quality)), "heif_encoder_set_lossy_quality")
    }

    deinit { heif_encoder_release(pointer) }
}
