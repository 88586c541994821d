import Foundation

/// How a recording's segments are encrypted: how many segments share a key, and where the keys go.
public struct KeySettings: Sendable, Equatable {
    /// Segments per key; nil: one key for the whole video.
    public var segmentsPerKey: Int?
    /// The folder holding one key folder per video (`<keys>/<video id>/<n>.key`).
    public var keysFolder: String

    public init(segmentsPerKey: Int?, keysFolder: String) {
        self.segmentsPerKey = segmentsPerKey
        self.keysFolder = keysFolder
    }

    /// `path` made absolute (a leading `~/` is `home`, when there is one), without `.`, `..` or a trailing slash.
    public static func absolute(_ path: String, home: String? = nil) -> String {
        let expanded = path.hasPrefix("~/") ? (home.map { $0 + path.dropFirst() } ?? path) : path
        var text = URL(fileURLWithPath: expanded).standardizedFileURL.path
        while text.count > 1 && text.hasSuffix("/") { text.removeLast() }
        return text
    }

    /// The video's catalogue id as `filterz serve` names it: the last path segment of the output folder.
    public static func videoID(outputFolder: String) -> String {
        URL(fileURLWithPath: absolute(outputFolder)).lastPathComponent
    }
}
