import FilterzTestSupport
import Foundation
import RealClients

/// A served folder made for one test (removed with it): files written by path, and small finished videos.
final class SiteFolder: @unchecked Sendable {
    let folder: TemporaryFolder
    var root: URL { folder.url }

    /// `parent`: where to make the folder (the system's temporary folder by default).
    init(parent: URL? = nil) throws {
        folder = try TemporaryFolder(prefix: "filterz-serve", in: parent)
    }

    /// Writes `contents` at `relativePath`, creating folders.
    @discardableResult
    func write(_ relativePath: String, _ contents: String) throws -> URL {
        try write(relativePath, Array(contents.utf8))
    }

    @discardableResult
    func write(_ relativePath: String, _ bytes: [UInt8]) throws -> URL {
        let url = root.appendingPathComponent(relativePath)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(bytes).write(to: url)
        return url
    }

    /// A small finished video `id`: master with two renditions and Korean/English subtitles, media playlists,
    /// 3 segments of 4 s per rendition, a poster and `filter.json`.
    func addVideo(_ id: String, live: Bool = false, targetDuration: Int = 4, filter: String = "warm-film") throws {
        try write(
            "\(id)/master.m3u8",
            """
            #EXTM3U
            #EXT-X-VERSION:3
            #EXT-X-INDEPENDENT-SEGMENTS
            #EXT-X-MEDIA:TYPE=SUBTITLES,GROUP-ID="subs",NAME="한국어",LANGUAGE="ko",DEFAULT=YES,AUTOSELECT=YES,URI="subs/ko.m3u8"
            #EXT-X-MEDIA:TYPE=SUBTITLES,GROUP-ID="subs",NAME="English",LANGUAGE="en",AUTOSELECT=YES,URI="subs/en.m3u8"
            #EXT-X-STREAM-INF:BANDWIDTH=3000000,RESOLUTION=1280x720,CODECS="avc1.64001f,mp4a.40.2",SUBTITLES="subs"
            v0/index.m3u8
            #EXT-X-STREAM-INF:BANDWIDTH=730000,RESOLUTION=640x360,CODECS="avc1.64001e,mp4a.40.2",SUBTITLES="subs"
            v1/index.m3u8

            """)
        for rendition in ["v0", "v1", "subs/ko", "subs/en"] {
            let isSubtitles = rendition.hasPrefix("subs")
            var playlist =
                "#EXTM3U\n#EXT-X-VERSION:3\n#EXT-X-TARGETDURATION:\(targetDuration)\n#EXT-X-MEDIA-SEQUENCE:0\n"
            for index in 0..<3 {
                let name = isSubtitles ? "\(rendition.split(separator: "/")[1])_\(index).vtt" : "seg_\(index).ts"
                playlist += "#EXTINF:\(targetDuration).000,\n\(name)\n"
                let folder = isSubtitles ? "subs" : rendition
                if isSubtitles {
                    try write(
                        "\(id)/\(folder)/\(name)", "WEBVTT\n\n00:00:0\(index).000 --> 00:00:0\(index).500\n\(id)\n")
                } else {
                    try write("\(id)/\(folder)/\(name)", Self.bytes(count: 2000 + index, seed: UInt8(index)))
                }
            }
            if !live { playlist += "#EXT-X-ENDLIST\n" }
            try write(
                "\(id)/\(rendition).m3u8".replacingOccurrences(of: "v0.m3u8", with: "v0/index.m3u8")
                    .replacingOccurrences(of: "v1.m3u8", with: "v1/index.m3u8"), playlist)
        }
        try write("\(id)/poster.jpg", [0xFF, 0xD8, 0xFF, 0xE0] + Self.bytes(count: 100, seed: 9))
        try write("\(id)/filter.json", #"{"name":"\#(filter)","values":{"brightness":0.1}}"#)
    }

    static func bytes(count: Int, seed: UInt8) -> [UInt8] {
        (0..<count).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ Int(seed) &* 7) }
    }
}
