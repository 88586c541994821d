// Re-exports libpng 1.6 (Debian bookworm: libpng-dev 1.6.39) to Swift: the simplified `png_image` API, which
// reports errors in `png_image.message` and a return value. (The full API reports them by longjmp, which must not
// cross Swift frames.) Only the `Photos` adapter imports it.
#ifndef FILTERZ_CPNG_SHIM_H
#define FILTERZ_CPNG_SHIM_H
#include <stddef.h>
#include <png.h>

/// The bytes per row of a `png_image` in its `format` (`PNG_IMAGE_ROW_STRIDE` is a macro).
static inline size_t filterz_png_row_bytes(const png_image *image) {
    return (size_t)PNG_IMAGE_ROW_STRIDE(*image) * PNG_IMAGE_PIXEL_COMPONENT_SIZE(image->format);
}

/// The simplified API's pixel formats and flags this toolkit uses (macros built from other macros).
static const png_uint_32 filterz_png_format_rgba = PNG_FORMAT_RGBA;
static const png_uint_32 filterz_png_format_rgb = PNG_FORMAT_RGB;
static const png_uint_32 filterz_png_flag_16bit_srgb = PNG_IMAGE_FLAG_16BIT_sRGB;
#endif
