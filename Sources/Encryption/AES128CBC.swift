internal import CCrypto

/// AES-128 in CBC mode with PKCS#7 padding (OpenSSL libcrypto's EVP interface): the cipher of HLS
/// `METHOD=AES-128` (RFC 8216bis §5.2). Pure functions over one buffer, so one segment, one part or one
/// init section is encrypted alike, on whatever thread holds it.
///
///     let key = try ContentKey.random()
///     let sealed = try AES128CBC.encrypt(segmentBytes, key: key.bytes, iv: iv)
///     let opened = try AES128CBC.decrypt(sealed, key: key.bytes, iv: iv)   // == segmentBytes
///
/// The output of `encrypt` is always 1 to 16 bytes longer than its input (a whole block of padding when
/// the input is block-aligned, as PKCS#7 requires).
public enum AES128CBC {
    public static let keyBytes = 16
    public static let blockBytes = 16

    /// The ciphertext of `plaintext` (any length, empty included).
    /// - Throws: `EncryptionError.badLength` for a key or IV that is not 16 bytes, `.libcrypto` when libcrypto fails.
    public static func encrypt(_ plaintext: [UInt8], key: [UInt8], iv: [UInt8]) throws(EncryptionError) -> [UInt8] {
        try run(plaintext, key: key, iv: iv, encrypting: true)
    }

    /// The plaintext of `ciphertext`.
    /// - Throws: `.notBlockAligned` for a length that is not a positive multiple of 16 (a truncated segment),
    ///   `.badPadding` when the last block does not end in valid PKCS#7 padding (the wrong key or IV).
    public static func decrypt(_ ciphertext: [UInt8], key: [UInt8], iv: [UInt8]) throws(EncryptionError) -> [UInt8] {
        guard !ciphertext.isEmpty, ciphertext.count % blockBytes == 0 else {
            throw .notBlockAligned(bytes: ciphertext.count)
        }
        return try run(ciphertext, key: key, iv: iv, encrypting: false)
    }

    private static func run(
        _ input: [UInt8], key: [UInt8], iv: [UInt8], encrypting: Bool
    ) throws(EncryptionError) -> [UInt8] {
        guard key.count == keyBytes else { throw .badLength(what: "key", bytes: key.count) }
        guard iv.count == blockBytes else { throw .badLength(what: "IV", bytes: iv.count) }
        guard let context = EVP_CIPHER_CTX_new() else { throw .libcrypto(function: "EVP_CIPHER_CTX_new") }
        defer { EVP_CIPHER_CTX_free(context) }
        let initialised = key.withUnsafeBufferPointer { k in
            iv.withUnsafeBufferPointer { v in
                EVP_CipherInit_ex(context, EVP_aes_128_cbc(), nil, k.baseAddress, v.baseAddress, encrypting ? 1 : 0)
            }
        }
        guard initialised == 1 else { throw .libcrypto(function: "EVP_CipherInit_ex") }
        var output = [UInt8](repeating: 0, count: input.count + blockBytes)
        var written: Int32 = 0
        var finalBytes: Int32 = 0
        let (updated, finished) = output.withUnsafeMutableBufferPointer { out -> (Int32, Int32) in
            guard let base = out.baseAddress else { return (0, 0) }
            let updated = input.withUnsafeBufferPointer { source in
                EVP_CipherUpdate(context, base, &written, source.baseAddress, Int32(source.count))
            }
            guard updated == 1 else { return (updated, 0) }
            return (updated, EVP_CipherFinal_ex(context, base + Int(written), &finalBytes))
        }
        guard updated == 1 else { throw .libcrypto(function: "EVP_CipherUpdate") }
        guard finished == 1 else {
            if encrypting { throw .libcrypto(function: "EVP_CipherFinal_ex") }
            throw .badPadding
        }
        output.removeLast(output.count - Int(written + finalBytes))
        return output
    }
}
