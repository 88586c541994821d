import HLS
import JSON
import Notation

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
            (
                "thumbnail_url",
                posterRelativePath.map { .string(CatalogueURLs.file(videoID: id, relativePath: $0) + suffix) } ?? .null
            ),
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
                            (
                                "stream_url",
                                .string(CatalogueURLs.file(videoID: id, relativePath: $0.relativePath) + suffix)
                            ),
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
        let seconds = nanoseconds >= 0 ? nanoseconds / 1_000_000_000 : -((-nanoseconds + 999_999_999) / 1_000_000_000)
        let (days, secondOfDay) = CivilDate.split(secondsSinceEpoch: Int(seconds))
        let (year, month, day) = CivilDate.date(days: days)
        let time = DateTime(
            year: year, month: month, day: day, hour: secondOfDay / 3600, minute: secondOfDay / 60 % 60,
            second: secondOfDay % 60, nanosecond: 0, fractionDigits: 0, utcOffsetMinutes: 0)
        return time.description
    }
}
