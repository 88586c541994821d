import Glibc

/// For a large playlist file, the memory the parse is about to fill comes in 2 MiB pages rather than 4 KiB ones.
///
/// A fresh process pays a page fault for every page it first touches; for a 12 MB playlist the input, the
/// segments and the tag positions are about 30 MB: some 7,500 pages of 4 KiB, against 15 of 2 MiB, in a process
/// that does little else. Here the heap is
/// grown once by three times the file size, marked for transparent huge pages (honoured when the kernel's
/// setting is `madvise` or `always`, harmless otherwise), and kept: large blocks come from the heap rather
/// than mappings of their own, both parser threads allocate from it, and it is never trimmed. The process
/// ends right after the inspection, so keeping the memory costs nothing.
enum HeapAhead {
    /// Below this size nothing changes.
    static let minimumFileBytes = 1 << 20

    /// Prepares the heap for reading and parsing the regular file at `path` (nothing for other paths, or for a
    /// file over `maximumBytes`, which is refused unread).
    static func prepare(forFile path: String, maximumBytes: Int) {
        var status = stat()
        guard stat(path, &status) == 0, status.st_mode & S_IFMT == S_IFREG,
            Int(status.st_size) >= minimumFileBytes, Int(status.st_size) <= maximumBytes
        else { return }
        let bytes = Int(status.st_size) * 3
        _ = mallopt(-3, Int32(clamping: 1 << 30))  // M_MMAP_THRESHOLD: large blocks from the heap
        _ = mallopt(-1, Int32.max)  // M_TRIM_THRESHOLD: never give the top back
        _ = mallopt(-8, 1)  // M_ARENA_MAX: the parser's second thread allocates from the same heap
        guard let block = malloc(bytes) else { return }
        let page = 2 << 20
        let start = (Int(bitPattern: block) + page - 1) & ~(page - 1)
        let end = (Int(bitPattern: block) + bytes) & ~(page - 1)
        if end > start { _ = madvise(UnsafeMutableRawPointer(bitPattern: start), end - start, 14) }  // MADV_HUGEPAGE
        free(block)
    }
}

/// glibc's `mallopt` (`<malloc.h>` is not in the Glibc module).
@_silgen_name("mallopt")
private func mallopt(_ parameter: Int32, _ value: Int32) -> Int32
