/// What a served file is, judged by its extension: it decides the `Content-Type` and the cache rule.
///
///     FileKind(path: "/v0/seg_00012.ts")   // .segment
///     FileKind(path: "master.m3u8")        // .playlist
///     FileKind(path: "README")             // .other
public enum FileKind: Sendable, Hashable {
    /// `.m3u8`: multivariant or media playlist (which one is decided by parsing it).
    case playlist
    /// `.ts`, `.m4s`, `.aac`: media segments, never rewritten once published.
    case segment
    /// `.mp4`: an fMP4 init section (EXT-X-MAP) or a whole file, never rewritten once published.
    case initSection
    /// `.vtt`: WebVTT subtitle segments.
    case subtitles
    /// `.jpg`/`.jpeg`: posters.
    case image
    /// `.json`: metadata such as `filter.json`.
    case json
    /// `.html`
    case html
    /// Anything else, served as `application/octet-stream`.
    case other

    /// Extension (lower case, without the dot) → kind and MIME type, in the order the nginx config lists them.
    public static let table: [(fileExtension: String, kind: FileKind, contentType: String)] = [
        ("m3u8", .playlist, "application/vnd.apple.mpegurl"),
        ("ts", .segment, "video/mp2t"),
        ("m4s", .segment, "video/iso.segment"),
        ("mp4", .initSection, "video/mp4"),
        ("aac", .segment, "audio/aac"),
        ("vtt", .subtitles, "text/vtt"),
        ("jpg", .image, "image/jpeg"),
        ("jpeg", .image, "image/jpeg"),
        ("json", .json, "application/json"),
        ("html", .html, "text/html"),
    ]

    /// The type of anything not in `table`.
    public static let defaultContentType = "application/octet-stream"

    /// The kind of the file named by the last component of `path` (case-insensitive extension).
    public init(path: String) {
        self = Self.entry(forPath: path)?.kind ?? .other
    }

    /// The `Content-Type` for a file at `path`.
    public static func contentType(forPath path: String) -> String {
        entry(forPath: path)?.contentType ?? defaultContentType
    }

    private static func entry(forPath path: String) -> (fileExtension: String, kind: FileKind, contentType: String)? {
        let name = path.split(separator: "/", omittingEmptySubsequences: false).last ?? Substring(path)
        guard let dot = name.lastIndex(of: "."), dot != name.startIndex else { return nil }
        let fileExtension = name[name.index(after: dot)...].lowercased()
        return table.first { $0.fileExtension == fileExtension }
    }
}
