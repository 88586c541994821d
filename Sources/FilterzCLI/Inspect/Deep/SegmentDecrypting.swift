import CLIKit
import Encryption

/// Decrypts one encrypted segment (EXT-X-KEY METHOD=AES-128: AES-128-CBC with PKCS#7 padding) before it is
/// probed. `inspect --deep` takes one; without it, encrypted segments with a usable key are loaded and
/// counted but not measured.
protocol SegmentDecrypting: Sendable {
    /// The clear bytes of `segment`, encrypted with the 16-byte `key` and 16-byte `iv`.
    func decrypt(_ segment: [UInt8], key: [UInt8], iv: [UInt8]) throws(CLIError) -> [UInt8]
}

/// AES-128-CBC with PKCS#7 padding through the `Encryption` module (libcrypto): a wrong key shows up as bad
/// padding, or as bytes that do not demux.
struct AES128SegmentDecryptor: SegmentDecrypting {
    func decrypt(_ segment: [UInt8], key: [UInt8], iv: [UInt8]) throws(CLIError) -> [UInt8] {
        do {
            return try AES128CBC.decrypt(segment, key: key, iv: iv)
        } catch {
            throw .failure(error.description)
        }
    }
}
