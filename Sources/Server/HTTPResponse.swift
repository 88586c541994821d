#if canImport(Glibc)
import Glibc
#endif

/// One answer: status, headers and a body that is nothing, bytes, or a region of an open file (sent with
/// sendfile by the adapter, never copied through Swift).
public struct HTTPResponse: Sendable {
    public enum Body: Sendable {
        case empty
        case bytes([UInt8])
        case file(FileRegion)
    }

    public var status: Int
    /// In the order they are sent; names as they should appear on the wire.
    public var headers: [(String, String)]
    public var body: Body
    /// Set on a 200 answer that is the whole of one version of a served file: while that version stays on disk
    /// (and its token stays valid) the same answer holds, so the adapter may give it again without asking.
    var servedFile: ServedFileVersion?

    public init(status: Int, headers: [(String, String)] = [], body: Body = .empty) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    /// The value of the first header called `name` (case-insensitive).
    public func header(_ name: String) -> String? {
        let lower = name.lowercased()
        return headers.first { $0.0.lowercased() == lower }?.1
    }

    /// The body length in bytes.
    public var bodyLength: Int64 {
        switch body {
        case .empty: 0
        case .bytes(let bytes): Int64(bytes.count)
        case .file(let region): region.length
        }
    }

    /// The body as bytes (reads file regions; for tests and small answers).
    public func bodyBytes() -> [UInt8] {
        switch body {
        case .empty: return []
        case .bytes(let bytes): return bytes
        case .file(let region): return region.file.read(offset: region.offset, count: Int(region.length))
        }
    }
}

/// The file version (and the token that opened it) that an answer was made from.
struct ServedFileVersion: Sendable, Hashable {
    /// Below the served folder, `/`-separated.
    var relativePath: String
    var stamp: FileStamp
    var videoID: String?
    var token: String?
}

/// A byte range of an open file.
public struct FileRegion: Sendable {
    public var file: OpenFile
    public var offset: Int64
    public var length: Int64
}

/// An open file descriptor with one owner: closed in `deinit` unless `release()` handed it to someone else
/// (libmicrohttpd closes the descriptors of the responses it was given).
public final class OpenFile: @unchecked Sendable {
    private var descriptor: Int32

    public init(descriptor: Int32) { self.descriptor = descriptor }

    deinit {
        if descriptor >= 0 { close(descriptor) }
    }

    /// The descriptor, still owned by this object.
    public var fileDescriptor: Int32 { descriptor }

    /// Gives up ownership: the caller must close the returned descriptor.
    public func release() -> Int32 {
        let released = descriptor
        descriptor = -1
        return released
    }

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
