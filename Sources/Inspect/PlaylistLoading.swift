import CLIKit
import Glibc
import HLS
import Notation

/// Where inspected playlists come from: a file path, an http(s) URL, or `-` for standard input. The lean
/// `filterz` reads files only (``PlaylistFile``); `filterz-full`'s loader adds HTTP.
public protocol PlaylistLoading: Sendable {
    /// The bytes at `location`; `readStandardInput` is used for `-`. Every failure is a `CLIError.input` whose
    /// one-line message names the file or URL (or standard input).
    func load(_ location: String, readStandardInput: (_ limit: Int) -> [UInt8]) throws(CLIError) -> [UInt8]
}

extension PlaylistLoading {
    /// The bytes of `location`, a resource that the playlist at `playlist` names (already resolved against it),
    /// after ``PlaylistLocation/admit(_:namedBy:)``.
    public func load(_ location: String, namedBy playlist: String) throws(CLIError) -> [UInt8] {
        try PlaylistLocation.admit(location, namedBy: playlist)
        return try load(PlaylistLocation.loadablePath(location), readStandardInput: { _ in [] })
    }
}

/// How a location names its resource.
public enum PlaylistLocation {
    /// True when `location` is an http or https URL (anything else is a file path or `-`).
    public static func isHTTP(_ location: String) -> Bool {
        let lower = location.prefix(8).lowercased()
        return lower.hasPrefix("http://") || lower.hasPrefix("https://")
    }

    /// The rule every loader applies to a resource a playlist names (child playlist, segment, init section, key):
    /// a playlist loaded over http(s) may only name http(s) resources, as browsers and hls.js allow, so that a
    /// remote playlist cannot make us read a local file (a `file:` URI, or a redirect there, which the HTTP
    /// client refuses). Relative URIs resolved against an http(s) base are http(s). A local playlist (a file or
    /// standard input) may name local files.
    public static func admit(_ location: String, namedBy playlist: String) throws(CLIError) {
        guard isHTTP(playlist), !isHTTP(location) else { return }
        throw .input(
            "\(playlist) names \(location): a playlist loaded over HTTP(S) may only name http(s) resources, "
                + "not local files")
    }

    /// Where a resolved location is read from: a URL stays as it is; a file reference loses its query and
    /// fragment (`720p/index.m3u8?token=x` is the file `720p/index.m3u8`), since tokens only mean something to an
    /// HTTP origin, and a `file:` URI becomes its path.
    public static func loadablePath(_ location: String) -> String {
        if isHTTP(location) { return location }
        let reference = URIReference(location)
        if reference.scheme?.lowercased() == "file" { return reference.path }
        if reference.scheme == nil { return PercentEncoding.percentDecoded(reference.path) ?? reference.path }
        return location
    }
}

/// Playlists from files and standard input only.
public struct PlaylistFile: PlaylistLoading {
    /// The largest file accepted, in bytes (playlists are text; this bounds memory on hostile input).
    public var maximumBytes: Int

    public init(maximumBytes: Int = 64 << 20) { self.maximumBytes = maximumBytes }

    public func load(_ location: String, readStandardInput: (_ limit: Int) -> [UInt8]) throws(CLIError) -> [UInt8] {
        if location == "-" { return try Self.standardInput(readStandardInput, maximumBytes: maximumBytes) }
        return try Self.read(location, maximumBytes: maximumBytes)
    }

    /// Standard input through `readStandardInput`, refused as soon as it passes `maximumBytes` (no more is read).
    public static func standardInput(
        _ readStandardInput: (_ limit: Int) -> [UInt8], maximumBytes: Int
    ) throws(CLIError) -> [UInt8] {
        let bytes = readStandardInput(maximumBytes + 1)
        guard bytes.count <= maximumBytes else {
            throw .input("standard input: larger than the limit of \(maximumBytes) bytes")
        }
        return bytes
    }

    /// The bytes of the file at `path`, refused past `maximumBytes`: read straight into the array, at most one
    /// byte past the limit, so that a huge file, a FIFO or a device that never ends is not read whole. A regular
    /// file is read into one array of its size (no second copy). `kind` names what a folder is not.
    public static func read(_ path: String, maximumBytes: Int, kind: String = "a playlist") throws(CLIError)
        -> [UInt8]
    {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else {
            switch errno {
            case ENOENT, ENOTDIR: throw .input("\(path): no such file")
            case EACCES: throw .input("\(path): cannot be read (permission denied)")
            default: throw .input("\(path): cannot be read (\(String(cString: strerror(errno))))")
            }
        }
        defer { close(descriptor) }
        var status = stat()
        let size = fstat(descriptor, &status) == 0 ? Int(status.st_size) : 0
        if status.st_mode & S_IFMT == S_IFDIR { throw .input("\(path): is a directory, not \(kind)") }
        let limit = maximumBytes + 1
        var bytes: [UInt8] = []
        var capacity = min(limit, max(size + 1, 64 << 10))
        while true {
            // Capacity grows by doubling; only the bytes read are ever initialised.
            var failure: Int32 = 0
            let filledBefore = bytes.count
            let grown = [UInt8](unsafeUninitializedCapacity: capacity) { buffer, initialised in
                guard let base = buffer.baseAddress else { return }
                Self.adviseHugePages(UnsafeMutableRawBufferPointer(buffer))
                bytes.withUnsafeBufferPointer { old in
                    if let oldBase = old.baseAddress { base.update(from: oldBase, count: old.count) }
                }
                var filled = filledBefore
                while filled < buffer.count {
                    let count = Glibc.read(descriptor, base + filled, buffer.count - filled)
                    if count < 0 {
                        if errno == EINTR { continue }
                        failure = errno
                        break
                    }
                    if count == 0 { break }
                    filled += count
                }
                initialised = filled
            }
            if failure != 0 { throw .input("\(path): cannot be read (\(String(cString: strerror(failure))))") }
            bytes = grown
            guard bytes.count <= maximumBytes else {
                throw .input("\(path): larger than the limit of \(maximumBytes) bytes")
            }
            // Short of the capacity: the end of the file.
            if bytes.count < capacity { return bytes }
            capacity = min(limit, capacity * 2)
        }
    }

    /// Asks the kernel to back the whole 2 MiB pages inside `buffer` with huge pages (transparent huge pages
    /// in `madvise` mode, the Debian default): a 12 MB playlist is then read into 6 pages instead of 3,000,
    /// each of which costs a page fault. Only a hint; ignored where unsupported.
    static func adviseHugePages(_ buffer: UnsafeMutableRawBufferPointer) {
        let hugePage = 2 << 20
        guard let base = buffer.baseAddress, buffer.count >= 2 * hugePage else { return }
        let start = (Int(bitPattern: base) + hugePage - 1) & ~(hugePage - 1)
        let end = (Int(bitPattern: base) + buffer.count) & ~(hugePage - 1)
        guard end > start, let aligned = UnsafeMutableRawPointer(bitPattern: start) else { return }
        _ = madvise(aligned, end - start, MADV_HUGEPAGE)
    }
}
