internal import CZlib

/// zlib streams for PNG's iCCP chunk: the profile compressed with deflate (method 0).
enum Zlib {
    /// The deflated `bytes` (zlib format, default level).
    static func compress(_ bytes: [UInt8]) throws(PhotoError) -> [UInt8] {
        var capacity = compressBound(uLong(bytes.count))
        var out = [UInt8](repeating: 0, count: Int(capacity))
        let status = out.withUnsafeMutableBufferPointer { o in
            bytes.withUnsafeBufferPointer { i in
                compress2(o.baseAddress, &capacity, i.baseAddress, uLong(i.count), Z_DEFAULT_COMPRESSION)
            }
        }
        guard status == Z_OK else { throw .library(name: "zlib", function: "compress2", message: message(status)) }
        out.removeSubrange(Int(capacity)...)
        return out
    }

    /// The inflated zlib stream, at most `limit` bytes.
    static func decompress(_ bytes: [UInt8], limit: Int = 64 << 20) throws(PhotoError) -> [UInt8] {
        var capacity = max(1024, bytes.count * 4)
        while true {
            var length = uLongf(capacity)
            var out = [UInt8](repeating: 0, count: capacity)
            let status = out.withUnsafeMutableBufferPointer { o in
                bytes.withUnsafeBufferPointer { i in uncompress(o.baseAddress, &length, i.baseAddress, uLong(i.count)) }
            }
            if status == Z_OK {
                out.removeSubrange(Int(length)...)
                return out
            }
            guard status == Z_BUF_ERROR, capacity < limit else {
                throw .library(
                    name: "zlib", function: "uncompress",
                    message: status == Z_BUF_ERROR ? "more than \(limit) bytes" : message(status))
            }
            capacity = min(limit, capacity * 4)
        }
    }

    static func message(_ status: Int32) -> String {
        switch status {
        case Z_DATA_ERROR: "corrupt data"
        case Z_MEM_ERROR: "out of memory"
        case Z_BUF_ERROR: "output buffer too small"
        default: "error \(status)"
        }
    }
}
