import HLS

/// One video of the catalogue: a folder of the served directory with a `master.m3u8`, as the app lists it.
public struct CatalogueVideo: Sendable, Hashable {
    /// A rendition the player can be pinned to.
    public struct Quality: Sendable, Hashable {
        /// `720p` (from the variant's RESOLUTION height), or `<kbps>k` without one.
        public var name: String
        /// The media playlist, relative to the video folder.
        public var relativePath: String
    }

    /// A subtitle track.
    public struct Subtitles: Sendable, Hashable {
        public var language: String
        /// The subtitle media playlist, relative to the video folder.
        public var relativePath: String
    }

    /// The folder name.
    public var id: String
    public var title: String
    public var description: String
    /// Sum of the segment durations of the first variant, nil when unknown.
    public var durationSeconds: Double?
    /// The filter preset's name from `filter.json`, when present.
    public var filterName: String?
    /// `poster.jpg` when the folder has one.
    public var posterRelativePath: String?
    public var qualities: [Quality]
    public var subtitles: [Subtitles]
    /// When the folder was created (birth time; modification time where the file system has none).
    public var createdAtNanoseconds: Int64

    public init(
        id: String, title: String, description: String = "", durationSeconds: Double? = nil, filterName: String? = nil,
        posterRelativePath: String? = nil, qualities: [Quality] = [], subtitles: [Subtitles] = [],
        createdAtNanoseconds: Int64
    ) {
        self.id = id
        self.title = title
        self.description = description
        self.durationSeconds = durationSeconds
        self.filterName = filterName
        self.posterRelativePath = posterRelativePath
        self.qualities = qualities
        self.subtitles = subtitles
        self.createdAtNanoseconds = createdAtNanoseconds
    }

    /// The list entry of `GET /v1/videos`; the thumbnail URL carries `token` when one is given.
    public func summaryJSON(token: String? = nil) -> JSONValue {
        let suffix = token.map { "?token=" + CatalogueURLs.encodeSegment($0) } ?? ""
        return .object([
            ("video_id", .string(id)),
            ("title", .string(title)),
            ("description", .string(description)),
            ("duration", durationSeconds.map { .number(($0 * 1000).rounded() / 1000) } ?? .null),
            ("thumbnail_url", posterRelativePath.map { .string(CatalogueURLs.file(videoID: id, relativePath: $0) + suffix) } ?? .null),
            ("available_qualities", .array(qualities.map { .string($0.name) })),
            ("created_at", .string(ISO8601.format(nanoseconds: createdAtNanoseconds))),
        ])
    }

    /// The answer of `GET /v1/videos/{id}/stream`; every URL carries `token` when one is given.
    public func streamJSON(token: String? = nil) -> JSONValue {
        let suffix = token.map { "?token=" + CatalogueURLs.encodeSegment($0) } ?? ""
        return .object([
            ("video_id", .string(id)),
            ("stream_url", .string(CatalogueURLs.master(videoID: id) + suffix)),
            (
                "qualities",
                .array(
                    qualities.map {
                        .object([
                            ("quality", .string($0.name)),
                            ("stream_url", .string(CatalogueURLs.file(videoID: id, relativePath: $0.relativePath) + suffix)),
                        ])
                    })
            ),
            (
                "subtitles",
                .array(
                    subtitles.map {
                        .object([
                            ("language", .string($0.language)),
                            ("url", .string(CatalogueURLs.file(videoID: id, relativePath: $0.relativePath) + suffix)),
                        ])
                    })
            ),
        ])
    }
}

/// `2026-11-29T19:15:44Z` timestamps for the API (UTC, whole seconds).
enum ISO8601 {
    static func format(nanoseconds: Int64) -> String {
        let seconds = floorDivide(nanoseconds, 1_000_000_000)
        let days = floorDivide(seconds, 86_400)
        let secondOfDay = seconds - days * 86_400
        let (year, month, day) = HTTPDate.civil(fromDays: days)
        func two(_ value: Int64) -> String { value < 10 ? "0\(value)" : "\(value)" }
        return "\(year)-\(two(Int64(month)))-\(two(Int64(day)))"
            + "T\(two(secondOfDay / 3600)):\(two(secondOfDay / 60 % 60)):\(two(secondOfDay % 60))Z"
    }

    private static func floorDivide(_ a: Int64, _ b: Int64) -> Int64 { a >= 0 ? a / b : -((-a + b - 1) / b) }
}
