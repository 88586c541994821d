internal import CCrypto

/// Signs and checks the `token` query parameter that protects a video's files when a secret is configured.
///
/// A token is `<expiry>.<signature>`: the expiry in seconds since the Unix epoch and the lower-case hex
/// HMAC-SHA256 (OpenSSL libcrypto) of `"<video id>\n<expiry>"` under the secret. It opens every file of that one
/// video until it expires, and nothing else.
///
///     let signer = URLSigner(secret: "s3cret")
///     let token = signer.token(videoID: "warm-film", expiresAt: 1_767_225_600)  // "1767225600.9f2c…"
///     signer.isValid(token, videoID: "warm-film", now: 1_767_000_000)             // true
public struct URLSigner: Sendable {
    private let secret: [UInt8]

    public init(secret: String) { self.secret = Array(secret.utf8) }

    /// The token for `videoID` valid until `expiresAt` (seconds since the epoch).
    public func token(videoID: String, expiresAt: Int64) -> String {
        "\(expiresAt)." + hex(signature(videoID: videoID, expiresAt: expiresAt))
    }

    /// True when `token` was made with this secret for `videoID` and has not expired at `now`. Only the exact
    /// form `token(videoID:expiresAt:)` writes is accepted: an expiry with a sign or leading zeros, or a signature
    /// in capitals, is refused even though it names the same numbers (a token has one spelling, so it cannot be
    /// varied to slip past a cache key or a log filter).
    public func isValid(_ token: String?, videoID: String, now: Int64) -> Bool {
        guard let token, let dot = token.firstIndex(of: ".") else { return false }
        let expiryText = token[..<dot]
        guard let expiresAt = Int64(expiryText), String(expiresAt) == expiryText, expiresAt > now else { return false }
        let given = Array(token[token.index(after: dot)...].utf8)
        let expected = Array(hex(signature(videoID: videoID, expiresAt: expiresAt)).utf8)
        return ConstantTime.equal(given, expected)
    }

    /// The root-relative URL of the video's multivariant playlist with a fresh token.
    public func signedMasterURL(videoID: String, expiresAt: Int64) -> String {
        CatalogueURLs.master(videoID: videoID) + "?token=" + token(videoID: videoID, expiresAt: expiresAt)
    }

    private func signature(videoID: String, expiresAt: Int64) -> [UInt8] {
        let message = Array("\(videoID)\n\(expiresAt)".utf8)
        var digest = [UInt8](repeating: 0, count: Int(EVP_MAX_MD_SIZE))
        var length: UInt32 = 0
        let ok = secret.withUnsafeBytes { key in
            message.withUnsafeBytes { data in
                HMAC(
                    EVP_sha256(), key.baseAddress, Int32(key.count), data.bindMemory(to: UInt8.self).baseAddress,
                    data.count, &digest, &length)
            }
        }
        guard ok != nil else { return [] }
        return Array(digest[..<Int(length)])
    }

    private func hex(_ bytes: [UInt8]) -> String {
        let digits = Array("0123456789abcdef".utf8)
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count * 2)
        for byte in bytes {
            out.append(digits[Int(byte >> 4)])
            out.append(digits[Int(byte & 0x0f)])
        }
        return String(decoding: out, as: UTF8.self)
    }
}
