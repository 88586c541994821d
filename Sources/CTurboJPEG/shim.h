// Re-exports libjpeg-turbo's TurboJPEG API (Debian bookworm: libturbojpeg0-dev 2.1.5, the tj* API; the tj3* API
// arrived in 3.0) to Swift. Only the `Photos` adapter imports it.
#ifndef FILTERZ_CTURBOJPEG_SHIM_H
#define FILTERZ_CTURBOJPEG_SHIM_H
#include <stddef.h>
#include <turbojpeg.h>
#endif
