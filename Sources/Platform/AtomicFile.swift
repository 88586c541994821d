#if canImport(Glibc)
    import Glibc
#endif

/// Writes files that a server or player may be reading: the bytes go to a temporary name in the same
/// folder, then `rename(2)` puts them in place in one step, so a reader sees the old file or the whole
/// new one, never a half-written one (and a crash leaves at most a stray `.tmp` file).
///
/// The temporary file is created exclusively (`O_CREAT | O_EXCL`, which never follows a symbolic link) under an
/// unpredictable name (`.name.<random>.tmp`, 64 bits from `getrandom`): a link or file planted in the folder
/// under any name is never written through, and two writers of the same name never share a temporary file.
/// `rename(2)` replaces a symbolic link at `path` itself, not its target.
public enum AtomicFile {
    /// Why a file could not be written.
    public struct WriteError: Error, CustomStringConvertible {
        public var path: String
        public var reason: String
        public var description: String { "cannot write \(path): \(reason)" }
    }

    /// Writes `bytes` to `path` with file mode `mode` (whatever the umask). `durable`: synced to the disk
    /// before it takes its name, so that after a power loss the name holds the whole file (for keys: a segment
    /// encrypted with a key is never on disk without it).
    public static func write(
        _ bytes: [UInt8], to path: String, mode: mode_t = 0o644, durable: Bool = false
    ) throws(WriteError) {
        let (temporary, descriptor) = try createTemporary(for: path, mode: mode)
        var offset = 0
        var failure: Int32 = 0
        if mode != 0o644 && fchmod(descriptor, mode) != 0 { failure = errno }
        bytes.withUnsafeBufferPointer { buffer in
            while failure == 0, offset < buffer.count, let base = buffer.baseAddress {
                let written = Glibc.write(descriptor, base + offset, buffer.count - offset)
                if written < 0 {
                    if errno == EINTR { continue }
                    failure = errno
                    return
                }
                offset += written
            }
        }
        if failure == 0 && durable && fsync(descriptor) != 0 { failure = errno }
        close(descriptor)
        if failure != 0 {
            unlink(temporary)
            throw WriteError(path: path, reason: String(cString: strerror(failure)))
        }
        guard rename(temporary, path) == 0 else {
            let reason = String(cString: strerror(errno))
            unlink(temporary)
            throw WriteError(path: path, reason: reason)
        }
    }

    public static func write(_ text: String, to path: String) throws(WriteError) {
        try write(Array(text.utf8), to: path)
    }

    /// A new file for `path`'s bytes, created exclusively under a fresh `temporaryName` (another name is drawn
    /// if one exists, however it got there).
    static func createTemporary(for path: String, mode: mode_t) throws(WriteError) -> (String, Int32) {
        for _ in 0..<16 {
            let temporary = temporaryName(for: path)
            let descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, mode)
            if descriptor >= 0 { return (temporary, descriptor) }
            guard errno == EEXIST else { throw WriteError(path: path, reason: String(cString: strerror(errno))) }
        }
        throw WriteError(path: path, reason: "no unused temporary name beside it")
    }

    /// `folder/.name.<16 hex digits>.tmp`: hidden, in the same folder (rename is atomic only within one file
    /// system), different at each call (64 random bits from the system's generator, `getrandom`).
    public static func temporaryName(for path: String) -> String {
        var generator = SystemRandomNumberGenerator()
        let digits = String(generator.next(), radix: 16)
        let random = String(repeating: "0", count: 16 - digits.count) + digits
        guard let slash = path.lastIndex(of: "/") else { return ".\(path).\(random).tmp" }
        return String(path[...slash]) + "." + path[path.index(after: slash)...] + ".\(random).tmp"
    }

    /// Creates `path` and its parents (like `mkdir -p`), those it creates with `mode`.
    public static func makeFolder(_ path: String, mode: mode_t = 0o755) throws(WriteError) {
        var current = path.hasPrefix("/") ? "" : "."
        for component in path.split(separator: "/") {
            current += "/" + component
            if mkdir(current, mode) != 0 && errno != EEXIST {
                throw WriteError(path: path, reason: String(cString: strerror(errno)))
            }
        }
    }

    /// Removes a file if it exists.
    public static func remove(_ path: String) { unlink(path) }
}
