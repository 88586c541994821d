#if canImport(Glibc)
    import Glibc
#endif

/// The file of the running program, whatever name it was started by: `filterz` runs `filterz-full` under its
/// own name, so `argv[0]` may be a bare `filterz` that says nothing of where the binaries are.
public enum RunningExecutable {
    /// The absolute path of the running executable (`/proc/self/exe`, symbolic links resolved), or nil when the
    /// system does not tell.
    public static var path: String? {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let length = readlink("/proc/self/exe", &buffer, buffer.count - 1)
        guard length > 0 else { return nil }
        return String(decoding: buffer[0..<length].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// The folder holding the running executable, ending in `/`, or nil when the system does not tell.
    public static var folder: String? {
        guard let path, let slash = path.lastIndex(of: "/") else { return nil }
        return String(path[...slash])
    }
}
