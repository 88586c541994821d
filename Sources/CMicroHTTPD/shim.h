// Re-exports libmicrohttpd (0.9.75, Debian bookworm) to Swift, plus the few C helpers Swift cannot express:
// variadic calls (MHD_start_daemon, MHD_get_*_info), callback options, and openat2(2) for the path guard.
#ifndef FILTERZ_CMICROHTTPD_SHIM_H
#define FILTERZ_CMICROHTTPD_SHIM_H
#include <stdarg.h>
#include <stdint.h>
#include <string.h>
#include <fcntl.h>
#include <unistd.h>
#include <sys/types.h>
#include <sys/select.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/stat.h>
#include <linux/stat.h>
#include <linux/openat2.h>
#include <microhttpd.h>

/// Starts a daemon with an options array terminated by MHD_OPTION_END (MHD_start_daemon is variadic).
/// `accept_policy` is asked about every accepted connection (MHD_NO closes it at once); `handler_cls` is given to
/// it too.
static inline struct MHD_Daemon *filterz_mhd_start_daemon(
    unsigned int flags, uint16_t port, MHD_AcceptPolicyCallback accept_policy, MHD_AccessHandlerCallback handler,
    void *handler_cls, const struct MHD_OptionItem *options) {
    return MHD_start_daemon(flags, port, accept_policy, handler_cls, handler, handler_cls, MHD_OPTION_ARRAY, options,
                            MHD_OPTION_END);
}

/// An option with an integer value and/or a pointer.
static inline struct MHD_OptionItem filterz_mhd_option(enum MHD_OPTION option, intptr_t value, void *pointer) {
    struct MHD_OptionItem item = {option, value, pointer};
    return item;
}

/// Leaves the path and the query arguments exactly as the client sent them (percent escapes and all), so the
/// path guard decodes them once, itself.
static inline size_t filterz_mhd_keep_escapes(void *cls, struct MHD_Connection *connection, char *s) {
    (void)cls;
    (void)connection;
    return strlen(s);
}

static inline struct MHD_OptionItem filterz_mhd_option_keep_escapes(void) {
    return filterz_mhd_option(MHD_OPTION_UNESCAPE_CALLBACK, (intptr_t)&filterz_mhd_keep_escapes, NULL);
}

static inline struct MHD_OptionItem filterz_mhd_option_notify_completed(MHD_RequestCompletedCallback callback,
                                                                       void *cls) {
    return filterz_mhd_option(MHD_OPTION_NOTIFY_COMPLETED, (intptr_t)callback, cls);
}

static inline struct MHD_OptionItem filterz_mhd_option_notify_connection(MHD_NotifyConnectionCallback callback,
                                                                        void *cls) {
    return filterz_mhd_option(MHD_OPTION_NOTIFY_CONNECTION, (intptr_t)callback, cls);
}

/// The peer address of a connection, or NULL.
static inline const struct sockaddr *filterz_mhd_client_address(struct MHD_Connection *connection) {
    const union MHD_ConnectionInfo *info = MHD_get_connection_info(connection, MHD_CONNECTION_INFO_CLIENT_ADDRESS);
    return info ? info->client_addr : NULL;
}

/// The port the daemon listens on (useful after binding port 0), or 0.
static inline uint16_t filterz_mhd_bound_port(struct MHD_Daemon *daemon) {
    const union MHD_DaemonInfo *info = MHD_get_daemon_info(daemon, MHD_DAEMON_INFO_BIND_PORT);
    return info ? info->port : 0;
}

/// Opens `path` (relative) below the directory `dirfd` for reading, following symbolic links only while they
/// stay beneath it (openat2 RESOLVE_BENEATH). Returns the descriptor, or -1 with errno (EXDEV when the path
/// would escape, ENOSYS on kernels older than 5.6).
static inline int filterz_open_beneath(int dirfd, const char *path) {
    struct open_how how;
    memset(&how, 0, sizeof how);
    how.flags = O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK;
    how.resolve = RESOLVE_BENEATH | RESOLVE_NO_MAGICLINKS;
    return (int)syscall(SYS_openat2, dirfd, path, &how, sizeof how);
}
/// The birth time of `path` (statx STATX_BTIME) in nanoseconds since the epoch, or the modification time when
/// the file system does not record births; -1 when `path` cannot be examined.
static inline int64_t filterz_birth_time_nanoseconds(const char *path) {
    struct statx info;
    if (syscall(SYS_statx, AT_FDCWD, path, 0, STATX_BTIME | STATX_MTIME, &info) != 0) return -1;
    if ((info.stx_mask & STATX_BTIME) && info.stx_btime.tv_sec > 0) return (int64_t)info.stx_btime.tv_sec * 1000000000 + info.stx_btime.tv_nsec;
    return (int64_t)info.stx_mtime.tv_sec * 1000000000 + info.stx_mtime.tv_nsec;
}
#endif
