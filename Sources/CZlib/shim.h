// Re-exports zlib to Swift, for the compressed ICC profile of PNG's iCCP chunk. Only the `Photos` adapter imports it.
#ifndef FILTERZ_CZLIB_SHIM_H
#define FILTERZ_CZLIB_SHIM_H
#include <zlib.h>
#endif
