// zlib (Debian zlib1g-dev), for gzip-compressed playlists and the compressed ICC profile of PNG's iCCP chunk.
#ifndef FILTERZ_CZLIB_SHIM_H
#define FILTERZ_CZLIB_SHIM_H
#include <zlib.h>

/// deflateInit2 is a macro over deflateInit2_ (it passes the library version and the stream's size).
static inline int filterz_deflate_init_gzip(z_stream *stream, int level) {
    return deflateInit2(stream, level, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY);
}
#endif
