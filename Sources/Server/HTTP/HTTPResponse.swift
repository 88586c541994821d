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
