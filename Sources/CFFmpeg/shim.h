// Re-exports libav (FFmpeg 5.1, Debian bookworm) to Swift, plus the macros Swift cannot import.
#ifndef FILTERZ_CFFMPEG_SHIM_H
#define FILTERZ_CFFMPEG_SHIM_H

#include <libavformat/avformat.h>
#include <libavcodec/avcodec.h>
#include <libavutil/avutil.h>
#include <libavutil/error.h>
#include <libavutil/imgutils.h>
#include <libavutil/opt.h>
#include <libavutil/display.h>
#include <libavutil/channel_layout.h>
#include <libavutil/mathematics.h>
#include <libswscale/swscale.h>
#include <libswresample/swresample.h>

/// `AVERROR(e)`: a POSIX errno as a negative libav error code.
static inline int fz_AVERROR(int e) { return AVERROR(e); }
/// `AVERROR_EOF`.
static inline int fz_AVERROR_EOF(void) { return AVERROR_EOF; }
/// `AVERROR(EAGAIN)`: the codec wants input (or output) before it can go on.
static inline int fz_AVERROR_EAGAIN(void) { return AVERROR(EAGAIN); }
/// `AV_NOPTS_VALUE`: "no timestamp".
static inline int64_t fz_AV_NOPTS_VALUE(void) { return AV_NOPTS_VALUE; }
/// `AV_TIME_BASE_Q`: microseconds.
static inline AVRational fz_AV_TIME_BASE_Q(void) { AVRational q = {1, AV_TIME_BASE}; return q; }

/// `av_strerror` into a caller buffer; returns the buffer.
static inline const char *fz_av_error_string(int code, char *buffer, size_t size) {
    if (av_strerror(code, buffer, size) < 0) {
        snprintf(buffer, size, "libav error %d", code);
    }
    return buffer;
}

/// Silences libav's own logging (we report errors ourselves) or restores it.
static inline void fz_av_log_set_quiet(int quiet) { av_log_set_level(quiet ? AV_LOG_QUIET : AV_LOG_WARNING); }

#endif
