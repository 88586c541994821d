#if canImport(Glibc)
    import Glibc
#endif

/// One version of a file: inode, size and modification time to the nanosecond. A file rewritten in place or
/// renamed into place gets a new stamp, so whatever was made from the old version (a parsed playlist, a
/// prepared answer) is known to be out of date.
struct FileStamp: Sendable, Hashable {
    var inode: UInt64
    var size: Int64
    var modifiedSeconds: Int64
    var modifiedNanoseconds: Int64

    init(inode: UInt64, size: Int64, modifiedSeconds: Int64, modifiedNanoseconds: Int64) {
        self.inode = inode
        self.size = size
        self.modifiedSeconds = modifiedSeconds
        self.modifiedNanoseconds = modifiedNanoseconds
    }

    init(_ info: stat) {
        self.init(
            inode: UInt64(info.st_ino), size: Int64(info.st_size), modifiedSeconds: Int64(info.st_mtim.tv_sec),
            modifiedNanoseconds: Int64(info.st_mtim.tv_nsec))
    }

    /// The stamp of an open file now; nil when it cannot be examined.
    init?(of file: OpenFile) {
        var info = stat()
        guard fstat(file.fileDescriptor, &info) == 0 else { return nil }
        self.init(info)
    }
}
