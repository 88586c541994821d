/// The validators of one version of a file: its `ETag` and `Last-Modified`, from size and modification time.
///
/// The tag is strong and changes whenever the size or the nanosecond modification time changes, so a live
/// playlist rewritten twice within a second still gets a new tag: `"<mtime seconds hex>.<nanoseconds hex>-<size hex>"`.
public struct Validators: Sendable, Hashable {
    public var entityTag: String
    /// Whole seconds since the epoch (what `Last-Modified` can express: a modification time outside the years
    /// 1970–9999 is kept as the nearest of them, `HTTPDate.clamped`, so conditions compare what was sent).
    public var lastModifiedSeconds: Int64

    public init(size: Int64, modifiedSeconds: Int64, modifiedNanoseconds: Int64) {
        entityTag =
            "\"\(String(modifiedSeconds, radix: 16)).\(String(modifiedNanoseconds, radix: 16))-\(String(size, radix: 16))\""
        lastModifiedSeconds = HTTPDate.clamped(modifiedSeconds)
    }

    public init(entityTag: String, lastModifiedSeconds: Int64) {
        self.entityTag = entityTag
        self.lastModifiedSeconds = lastModifiedSeconds
    }

    /// The `Last-Modified` header value.
    public var lastModified: String { HTTPDate.format(lastModifiedSeconds) }

    /// The same validators for a variant of the body (e.g. a playlist rewritten with a token): a different tag.
    public func variant(_ discriminator: String) -> Validators {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325  // FNV-1a
        for byte in discriminator.utf8 {
            hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3
        }
        var copy = self
        copy.entityTag = String(entityTag.dropLast()) + "-" + String(hash, radix: 16) + "\""
        return copy
    }

    /// False when a precondition of the request fails and the answer must be 412 (RFC 9110 §13.1.1, §13.1.4,
    /// evaluated in the order of §13.2.2): `If-Match` (strong comparison, `*` matches any version) decides when
    /// present; otherwise `If-Unmodified-Since` (a version modified after the date fails; a date that does not
    /// parse is ignored).
    public func preconditionsHold(ifMatch: String?, ifUnmodifiedSince: String?) -> Bool {
        if let ifMatch {
            let wanted = ifMatch.split(separator: ",").map { $0.trimmingSpaces() }
            return wanted.contains { $0 == "*" || (!$0.hasPrefix("W/") && $0 == Substring(entityTag)) }
        }
        if let ifUnmodifiedSince, let since = HTTPDate.parse(ifUnmodifiedSince) {
            return lastModifiedSeconds <= since
        }
        return true
    }

    /// The same for an answer made afresh for each request, with no entity tag or modification date (the
    /// catalogue API's): only `If-Match: *` can hold (RFC 9110 §13.1.1), and `If-Unmodified-Since` is ignored
    /// (§13.1.4: nothing to compare it with).
    public static func preconditionsHoldWithoutValidators(ifMatch: String?) -> Bool {
        guard let ifMatch else { return true }
        return ifMatch.split(separator: ",").contains { $0.trimmingSpaces() == "*" }
    }

    /// True when a GET/HEAD with these request headers may be answered 304 Not Modified (RFC 9110 §13.1.2–3):
    /// `If-None-Match` (weak comparison, `*` matches) decides when present; otherwise `If-Modified-Since`.
    public func isNotModified(ifNoneMatch: String?, ifModifiedSince: String?) -> Bool {
        if let ifNoneMatch {
            let wanted = ifNoneMatch.split(separator: ",").map { $0.trimmingSpaces() }
            return wanted.contains { $0 == "*" || Self.opaque($0) == Self.opaque(Substring(entityTag)) }
        }
        if let ifModifiedSince, let since = HTTPDate.parse(ifModifiedSince) {
            return lastModifiedSeconds <= since
        }
        return false
    }

    /// True when `If-Range` allows a partial answer (absent, or naming this exact version).
    public func allowsRange(ifRange: String?) -> Bool {
        guard let ifRange = ifRange.map({ Substring($0).trimmingSpaces() }) else { return true }
        if ifRange.hasPrefix("\"") { return ifRange == entityTag }
        if let date = HTTPDate.parse(String(ifRange)) { return date == lastModifiedSeconds }
        return false
    }

    private static func opaque(_ tag: Substring) -> Substring { tag.hasPrefix("W/") ? tag.dropFirst(2) : tag }
}
