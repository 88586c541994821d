/// What went wrong while making keys, encrypting or decrypting, with what a person needs to act on it.
public enum EncryptionError: Error, Equatable, Sendable, CustomStringConvertible {
    /// A key or IV of the wrong length (AES-128 takes exactly 16 bytes of each).
    case badLength(what: String, bytes: Int)
    /// Ciphertext that is not a whole number of 16-byte blocks (a truncated segment), or empty.
    case notBlockAligned(bytes: Int)
    /// The padding after decryption is not PKCS#7: the wrong key or IV, or damaged bytes.
    case badPadding
    /// A libcrypto call failed.
    case libcrypto(function: String)
    /// The kernel's random source failed (`getrandom`), with its errno.
    case randomSource(errno: Int32)
    /// A key file could not be written or read.
    case keyFile(path: String, reason: String)

    public var description: String {
        switch self {
        case .badLength(let what, let bytes): "AES-128 needs a 16-byte \(what), got \(bytes) bytes"
        case .notBlockAligned(let bytes):
            "ciphertext of \(bytes) bytes is not a whole number of 16-byte AES blocks (truncated?)"
        case .badPadding: "decryption gave no valid PKCS#7 padding: wrong key or IV, or damaged bytes"
        case .libcrypto(let function): "libcrypto \(function) failed"
        case .randomSource(let code): "getrandom failed (errno \(code))"
        case .keyFile(let path, let reason): "\(path): \(reason)"
        }
    }
}
