/// A file of the served folder as a request names it: its path below the folder, the video it belongs to, and
/// the route the request took (`/{id}/…` or `/v1/videos/{id}/…`).
struct FileTarget: Sendable {
    /// Path segments below the served folder, checked by `PathGuard`; never empty.
    var segments: [String]
    /// The first folder of the path, nil for a file at the top of the folder.
    var videoID: String?
    /// Reached through the catalogue API (`/v1/videos/{id}/…`): errors are JSON.
    var viaAPI: Bool

    /// The path below the folder, `/`-separated.
    var key: String { segments.joined(separator: "/") }

    /// The file's name (its last segment).
    var name: String { segments[segments.count - 1] }

    /// The video's root as this request reached it (`/v1/videos/{id}` or `/{id}`), as segments.
    var videoRoot: [String]? { videoID.map { viaAPI ? ["v1", "videos", $0] : [$0] } }
}
