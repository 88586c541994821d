internal import CLinux

#if canImport(Glibc)
    import Glibc
#endif

/// The folder being served, opened once; files are opened relative to it so that no path, `..` or symbolic
/// link can lead outside it (openat2 with RESOLVE_BENEATH; a realpath prefix check on kernels before 5.6).
public final class ServedFolder: Sendable {
    /// A regular file opened for reading, with what `stat` said about it.
    public struct File: Sendable {
        public var handle: OpenFile
        public var size: Int64
        public var modifiedSeconds: Int64
        public var modifiedNanoseconds: Int64
        public var inode: UInt64

        var stamp: FileStamp {
            FileStamp(
                inode: inode, size: size, modifiedSeconds: modifiedSeconds, modifiedNanoseconds: modifiedNanoseconds)
        }

        public var validators: Validators {
            Validators(size: size, modifiedSeconds: modifiedSeconds, modifiedNanoseconds: modifiedNanoseconds)
        }
    }

    /// The canonical path of the folder (symbolic links resolved).
    public let path: String
    private let descriptor: Int32

    public init(path: String) throws(ServerError) {
        guard let resolved = realpath(path, nil) else { throw .folderUnreadable(path: path, reason: Self.lastError()) }
        self.path = String(cString: resolved)
        free(resolved)
        let fd = Glibc.open(self.path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard fd >= 0 else { throw .folderUnreadable(path: path, reason: Self.lastError()) }
        descriptor = fd
    }

    deinit { close(descriptor) }

    /// Why `opening` found no file to serve.
    public enum OpenFailure: Error, Equatable {
        /// It does not exist, is not a regular file, is unreadable, or lies outside the folder (all alike, so
        /// nothing outside is revealed).
        case missing
        /// The process (or the system) has no descriptor left to open it with: a matter of load, not of the file.
        case outOfDescriptors
    }

    /// Opens the regular file at `segments` below the folder.
    public func opening(_ segments: [String]) -> Result<File, OpenFailure> {
        guard !segments.isEmpty else { return .failure(.missing) }
        let relative = segments.joined(separator: "/")
        var fd = filterz_open_beneath(descriptor, relative)
        if fd < 0 && errno == ENOSYS { fd = openCheckingRealPath(relative) }
        guard fd >= 0 else { return .failure(errno == EMFILE || errno == ENFILE ? .outOfDescriptors : .missing) }
        let handle = OpenFile(descriptor: fd)
        var info = stat()
        guard fstat(fd, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else { return .failure(.missing) }
        return .success(
            File(
                handle: handle, size: Int64(info.st_size), modifiedSeconds: Int64(info.st_mtim.tv_sec),
                modifiedNanoseconds: Int64(info.st_mtim.tv_nsec), inode: UInt64(info.st_ino)))
    }

    /// The file at `segments` below the folder, nil whatever the reason (see `opening`).
    public func open(_ segments: [String]) -> File? { try? opening(segments).get() }

    /// The version stamp of the file at `relativePath` (symbolic links followed), from one `fstatat` without
    /// opening it; nil when absent or not a regular file. Not a safety check: it only tells whether a file
    /// read earlier through `open(_:)` is still the same version.
    func currentStamp(relativePath: String) -> FileStamp? {
        var info = stat()
        guard fstatat(descriptor, relativePath, &info, 0) == 0, (info.st_mode & S_IFMT) == S_IFREG else { return nil }
        return FileStamp(info)
    }

    /// The absolute path of `segments` below the folder (for directory listings; not a safety check).
    public func absolutePath(_ segments: [String]) -> String {
        ([path] + segments).joined(separator: "/")
    }

    private func openCheckingRealPath(_ relative: String) -> Int32 {
        guard let resolved = realpath(path + "/" + relative, nil) else { return -1 }
        defer { free(resolved) }
        let canonical = String(cString: resolved)
        guard canonical.hasPrefix(path + "/") else {
            errno = EXDEV
            return -1
        }
        return Glibc.open(canonical, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK | O_NOFOLLOW)
    }

    static func lastError() -> String { String(cString: strerror(errno)) }
}
