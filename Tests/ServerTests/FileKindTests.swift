import Testing

@testable import Server

@Suite struct FileKindTests {
    @Test(arguments: [
        ("master.m3u8", "application/vnd.apple.mpegurl"), ("v0/seg_001.ts", "video/mp2t"),
        ("v0/seg.M4S", "video/iso.segment"), ("init.mp4", "video/mp4"), ("a/b.aac", "audio/aac"),
        ("subs/ko_0.vtt", "text/vtt"), ("poster.jpg", "image/jpeg"), ("filter.json", "application/json"),
        ("index.html", "text/html"), ("README", "application/octet-stream"), ("x.bin", "application/octet-stream"),
        (".m3u8", "application/octet-stream"), ("dir.ts/file", "application/octet-stream"),
    ])
    func contentTypeFollowsTheExtension(path: String, expected: String) {
        #expect(FileKind.contentType(forPath: path) == expected)
    }

    @Test func kindsDecideTheCacheClass() {
        #expect(FileKind(path: "a.ts") == .segment)
        #expect(FileKind(path: "init.mp4") == .initSection)
        #expect(FileKind(path: "x.vtt") == .subtitles)
        #expect(FileKind(path: "x.m3u8") == .playlist)
        #expect(FileKind(path: "x.txt") == .other)
    }
}
