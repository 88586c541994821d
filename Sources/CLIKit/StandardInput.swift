#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The process's standard input.
public enum StandardInput {
    /// Standard input as bytes (for `-` arguments), up to its end or `limit` bytes, whichever comes first, so a
    /// caller bounds its memory by asking for one byte more than it accepts.
    public static func bytes(upTo limit: Int) -> [UInt8] {
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65536)
        while bytes.count < limit {
            let count = read(0, &buffer, min(buffer.count, limit - bytes.count))
            if count > 0 {
                bytes.append(contentsOf: buffer[0..<count])
            } else if count < 0 && errno == EINTR {
                continue
            } else {
                break
            }
        }
        return bytes
    }
}
