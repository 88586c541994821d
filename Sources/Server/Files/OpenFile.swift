#if canImport(Glibc)
    import Glibc
#endif

/// A byte range of an open file.
public struct FileRegion: Sendable {
    public var file: OpenFile
    public var offset: Int64
    public var length: Int64
}

/// An open file descriptor with one owner: closed in `deinit`.
public final class OpenFile: @unchecked Sendable {
    private let descriptor: Int32

    public init(descriptor: Int32) { self.descriptor = descriptor }

    deinit {
        if descriptor >= 0 { close(descriptor) }
    }

    /// The descriptor, still owned by this object.
    public var fileDescriptor: Int32 { descriptor }

    /// Reads up to `count` bytes at `offset` (short only at end of file or on error).
    public func read(offset: Int64, count: Int) -> [UInt8] {
        guard count > 0, descriptor >= 0 else { return [] }
        var bytes = [UInt8](repeating: 0, count: count)
        var filled = 0
        while filled < count {
            let got = bytes.withUnsafeMutableBytes { buffer in
                pread(descriptor, buffer.baseAddress! + filled, count - filled, off_t(offset) + off_t(filled))
            }
            if got < 0 && errno == EINTR { continue }
            if got <= 0 { break }
            filled += got
        }
        return Array(bytes[..<filled])
    }
}
