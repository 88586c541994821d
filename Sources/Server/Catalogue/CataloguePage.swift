import HLS
import JSON

/// Where a client stopped paging: the position of the last video it received in the catalogue order (newest
/// first, then by id). Because it names a position rather than an offset, videos added while a client pages
/// neither repeat nor shift the pages that follow.
///
/// Encoded as `<created-at nanoseconds>.<id as hex>`; `"0"` means "no more pages".
public struct CatalogueCursor: Sendable, Hashable {
    public static let end = "0"

    public var createdAtNanoseconds: Int64
    public var videoID: String

    public init(createdAtNanoseconds: Int64, videoID: String) {
        self.createdAtNanoseconds = createdAtNanoseconds
        self.videoID = videoID
    }

    /// Decodes a cursor this server issued; nil for anything else.
    public init?(encoded: String) {
        let parts = encoded.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 2, let nanoseconds = Int64(parts[0]), nanoseconds >= 0,
            parts[1].count % 2 == 0, !parts[1].isEmpty
        else { return nil }
        var bytes: [UInt8] = []
        var index = parts[1].startIndex
        while index < parts[1].endIndex {
            let next = parts[1].index(index, offsetBy: 2)
            guard let byte = UInt8(parts[1][index..<next], radix: 16) else { return nil }
            bytes.append(byte)
            index = next
        }
        guard let id = String(validating: bytes, as: UTF8.self) else { return nil }
        self.init(createdAtNanoseconds: nanoseconds, videoID: id)
    }

    public var encoded: String {
        let hex = videoID.utf8.map { byte in
            let digits = String(byte, radix: 16)
            return digits.count == 1 ? "0" + digits : digits
        }
        return "\(createdAtNanoseconds)." + hex.joined()
    }

    /// True when `video` comes after this position in the catalogue order.
    func precedes(_ video: CatalogueVideo) -> Bool {
        video.createdAtNanoseconds < createdAtNanoseconds
            || (video.createdAtNanoseconds == createdAtNanoseconds && video.id > videoID)
    }
}

/// One page of `GET /v1/videos`.
public struct CataloguePage: Sendable, Hashable {
    public static let defaultLimit = 10
    public static let maximumLimit = 100

    public var videos: [CatalogueVideo]
    /// The cursor for the next page, or `CatalogueCursor.end`.
    public var nextCursor: String

    /// The `limit` videos after `cursor` (from the start when nil) in catalogue order.
    public init(videos all: [CatalogueVideo], after cursor: CatalogueCursor?, limit: Int) {
        let ordered = all.sorted(by: Self.catalogueOrder)
        let remaining = cursor.map { cursor in ordered.filter { cursor.precedes($0) } } ?? ordered
        self.init(following: remaining[...], limit: limit)
    }

    /// The first `limit` of `remaining`, videos in catalogue order that follow the previous page.
    init(following remaining: ArraySlice<CatalogueVideo>, limit: Int) {
        videos = Array(remaining.prefix(limit))
        if remaining.count > limit, let last = videos.last {
            nextCursor = CatalogueCursor(createdAtNanoseconds: last.createdAtNanoseconds, videoID: last.id).encoded
        } else {
            nextCursor = CatalogueCursor.end
        }
    }

    /// Newest first; ties broken by id.
    public static func catalogueOrder(_ a: CatalogueVideo, _ b: CatalogueVideo) -> Bool {
        a.createdAtNanoseconds != b.createdAtNanoseconds ? a.createdAtNanoseconds > b.createdAtNanoseconds : a.id < b.id
    }

    /// The page as the API answers it; `token` gives each video's token for its thumbnail URL (nil: unsigned).
    public func json(token: (String) -> String? = { _ in nil }) -> JSONValue {
        .object([
            ("data", .array(videos.map { $0.summaryJSON(token: token($0.id)) })), ("next_cursor", .string(nextCursor)),
        ])
    }
}
