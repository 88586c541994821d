// Re-exports libheif (Debian bookworm: libheif-dev 1.15.1, built with libde265 and dav1d/aom decoders and x265
// and aom encoders) to Swift. Only the `Photos` adapter imports it.
#ifndef FILTERZ_CHEIF_SHIM_H
#define FILTERZ_CHEIF_SHIM_H
#include <stddef.h>
#include <stdint.h>
#include <libheif/heif.h>
#endif
