internal import CCrypto

#if canImport(Glibc)
    import Glibc
#endif

/// A 16-byte AES-128 content key from the kernel's CSPRNG (`getrandom(2)`, which blocks only until the pool
/// is first seeded at boot).
public struct ContentKey: Hashable, Sendable {
    public let bytes: [UInt8]

    /// - Throws: `EncryptionError.badLength` unless `bytes` holds exactly 16 bytes.
    public init(bytes: [UInt8]) throws(EncryptionError) {
        guard bytes.count == AES128CBC.keyBytes else { throw .badLength(what: "key", bytes: bytes.count) }
        self.bytes = bytes
    }

    /// A fresh random key.
    public static func random() throws(EncryptionError) -> ContentKey {
        try ContentKey(bytes: try RandomBytes.make(AES128CBC.keyBytes))
    }
}

/// Bytes from the kernel's CSPRNG.
public enum RandomBytes {
    /// `count` random bytes (`getrandom(2)` with no flags, retried on EINTR and short reads).
    public static func make(_ count: Int) throws(EncryptionError) -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: count)
        var filled = 0
        while filled < count {
            let got = bytes.withUnsafeMutableBytes { buffer in
                guard let base = buffer.baseAddress else { return 0 }
                return getrandom(base + filled, count - filled, 0)
            }
            if got < 0 {
                if errno == EINTR { continue }
                throw .randomSource(errno: errno)
            }
            filled += got
        }
        return bytes
    }
}
