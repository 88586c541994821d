// Re-exports libmicrohttpd (0.9.75, Debian bookworm) to Swift.
#ifndef FILTERZ_CMICROHTTPD_SHIM_H
#define FILTERZ_CMICROHTTPD_SHIM_H
#include <stdarg.h>
#include <stdint.h>
#include <sys/types.h>
#include <sys/select.h>
#include <sys/socket.h>
#include <microhttpd.h>
#endif
