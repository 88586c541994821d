import HLS

/// The delivery directives of a playlist request (RFC 8216bis §6.2.5): `_HLS_msn=M`, `_HLS_part=N` (blocking
/// reload, §6.2.5.2) and `_HLS_skip=YES|v2` (delta update, §6.2.5.1).
public struct DeliveryDirectives: Sendable, Hashable {
    public enum Skip: String, Sendable, Hashable {
        /// Skip old media segments.
        case segments = "YES"
        /// Skip old media segments and old EXT-X-DATERANGE tags.
        case segmentsAndDateRanges = "v2"
    }

    /// `_HLS_msn`: hold until the playlist holds this media sequence number.
    public var mediaSequence: Int?
    /// `_HLS_part`: … and this partial segment of it.
    public var part: Int?
    public var skip: Skip?

    public init(mediaSequence: Int? = nil, part: Int? = nil, skip: Skip? = nil) {
        self.mediaSequence = mediaSequence
        self.part = part
        self.skip = skip
    }

    /// True when the request holds no directive.
    public var isEmpty: Bool { mediaSequence == nil && part == nil && skip == nil }

    /// Reads the directives from decoded query parameters; a malformed value, or `_HLS_part` without `_HLS_msn`,
    /// is a refusal (400).
    public static func parse(_ query: [String: String]) -> Result<DeliveryDirectives, RequestRefusal> {
        var directives = DeliveryDirectives()
        if let text = query["_HLS_msn"] {
            guard let value = Self.count(text) else { return .failure(.badRequest("_HLS_msn is not a whole number")) }
            directives.mediaSequence = value
        }
        if let text = query["_HLS_part"] {
            guard let value = Self.count(text) else { return .failure(.badRequest("_HLS_part is not a whole number")) }
            guard directives.mediaSequence != nil else { return .failure(.badRequest("_HLS_part without _HLS_msn")) }
            directives.part = value
        }
        if let text = query["_HLS_skip"] {
            guard let skip = Skip(rawValue: text) else {
                return .failure(.badRequest("_HLS_skip is neither YES nor v2"))
            }
            directives.skip = skip
        }
        return .success(directives)
    }

    /// Digits only (media sequence numbers are decimal integers, §4.4.3.2), at most the largest sequence number
    /// a player counts (`PlayerLimits.maximumSequenceNumber`, 16 digits).
    private static func count(_ text: String) -> Int? {
        guard !text.isEmpty, text.utf8.count <= 16, text.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }),
            let value = Int(text), value <= PlayerLimits.maximumSequenceNumber
        else { return nil }
        return value
    }
}
