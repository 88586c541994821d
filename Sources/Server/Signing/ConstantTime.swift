internal import CCrypto

/// Comparisons of secrets that take the same time wherever the first difference is (OpenSSL `CRYPTO_memcmp`).
enum ConstantTime {
    /// True when `a` and `b` are the same bytes; only their lengths can leak through timing.
    static func equal(_ a: [UInt8], _ b: [UInt8]) -> Bool {
        guard a.count == b.count else { return false }
        guard !a.isEmpty else { return true }
        return CRYPTO_memcmp(a, b, a.count) == 0
    }
}
