// Linux system calls that Glibc's Swift module does not expose: openat2(2) for opening files strictly below a
// folder, statx(2) for birth times, epoll(7), eventfd(2), accept4(2) and sendfile(2) for the event loops,
// inotify(7) for learning of new files, and SIOCOUTQ for what a client has not yet taken of an answer.
#ifndef FILTERZ_CLINUX_SHIM_H
#define FILTERZ_CLINUX_SHIM_H
#include <stdint.h>
#include <string.h>
#include <fcntl.h>
#include <unistd.h>
#include <sys/types.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/stat.h>
#include <sys/eventfd.h>
#include <sys/epoll.h>
#include <sys/sendfile.h>
#include <sys/inotify.h>
#include <poll.h>
#include <sys/ioctl.h>
#include <linux/sockios.h>
#include <linux/stat.h>
#include <linux/openat2.h>

/// Swaps the two existing paths `from` and `to` in one step (renameat2 RENAME_EXCHANGE), so a reader sees one
/// or the other, never neither. Returns 0, or -1 with errno (EINVAL or ENOSYS where the file system or kernel
/// cannot exchange).
static inline int filterz_rename_exchange(const char *from, const char *to) {
    return (int)syscall(SYS_renameat2, AT_FDCWD, from, AT_FDCWD, to, 1u << 1 /* RENAME_EXCHANGE */);
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

/// A non-blocking, close-on-exec eventfd, or -1 with errno.
static inline int filterz_eventfd(void) { return eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC); }

/// accept4(2) with SOCK_NONBLOCK | SOCK_CLOEXEC (through syscall: the declaration needs _GNU_SOURCE).
static inline int filterz_accept(int fd, struct sockaddr *address, socklen_t *length) {
    return (int)syscall(SYS_accept4, fd, address, length, SOCK_NONBLOCK | SOCK_CLOEXEC);
}

/// The bytes in TCP socket `fd`'s send queue that the peer has not acknowledged yet (SIOCOUTQ), or -1 with errno.
static inline int filterz_send_queue_bytes(int fd) {
    int bytes = 0;
    return ioctl(fd, SIOCOUTQ, &bytes) == 0 ? bytes : -1;
}
#endif
