import HLS
import Testing

@testable import Server

@Suite struct CataloguePageTests {
    static func video(_ id: String, _ created: Int64) -> CatalogueVideo {
        CatalogueVideo(id: id, title: id, createdAtNanoseconds: created)
    }

    @Test func pagesAreNewestFirstAndEndWithZero() {
        let videos = (1...5).map { Self.video("v\($0)", Int64($0)) }
        let first = CataloguePage(videos: videos, after: nil, limit: 2)
        #expect(first.videos.map(\.id) == ["v5", "v4"])
        let second = CataloguePage(videos: videos, after: CatalogueCursor(encoded: first.nextCursor), limit: 2)
        #expect(second.videos.map(\.id) == ["v3", "v2"])
        let third = CataloguePage(videos: videos, after: CatalogueCursor(encoded: second.nextCursor), limit: 2)
        #expect(third.videos.map(\.id) == ["v1"])
        #expect(third.nextCursor == "0")
    }

    @Test func videosAddedWhilePagingNeitherRepeatNorShiftLaterPages() {
        var videos = (1...6).map { Self.video("v\($0)", Int64($0) * 10) }
        var seen: [String] = []
        var cursor: CatalogueCursor?
        var round = 0
        repeat {
            let page = CataloguePage(videos: videos, after: cursor, limit: 2)
            seen += page.videos.map(\.id)
            cursor = page.nextCursor == "0" ? nil : CatalogueCursor(encoded: page.nextCursor)
            round += 1
            videos.append(Self.video("new\(round)", 1000 + Int64(round)))  // newer than everything
        } while cursor != nil
        #expect(seen == ["v6", "v5", "v4", "v3", "v2", "v1"])
    }

    @Test func tiesAreBrokenById() {
        let videos = ["c", "a", "b"].map { Self.video($0, 7) }
        let first = CataloguePage(videos: videos, after: nil, limit: 1)
        let rest = CataloguePage(videos: videos, after: CatalogueCursor(encoded: first.nextCursor), limit: 5)
        #expect(first.videos.map(\.id) + rest.videos.map(\.id) == ["a", "b", "c"])
    }

    @Test(arguments: ["", "x", "1.", ".61", "-1.61", "1.6", "1.zz", "1.61.62", "abc.61"])
    func foreignCursorsAreRejected(_ text: String) {
        #expect(CatalogueCursor(encoded: text) == nil)
    }

    @Test func cursorsRoundTripAnyId() {
        let cursor = CatalogueCursor(createdAtNanoseconds: 123, videoID: "wärm film/ü")
        #expect(CatalogueCursor(encoded: cursor.encoded) == cursor)
    }

    @Test func theListJSONHasTheDocumentedFields() {
        var video = Self.video("warm film", 1_795_980_044_930_334_098)
        video.durationSeconds = 20.0334
        video.posterRelativePath = "poster.jpg"
        video.qualities = [.init(name: "720p", relativePath: "v0/index.m3u8")]
        let page = CataloguePage(videos: [video], after: nil, limit: 10)
        #expect(
            page.json().rendered(indent: nil)
                == #"{"data":[{"video_id":"warm film","title":"warm film","description":"","duration":20.033,"thumbnail_url":"/v1/videos/warm%20film/poster.jpg","available_qualities":["720p"],"created_at":"2026-11-29T19:20:44Z"}],"next_cursor":"0"}"#
        )
    }

    @Test func streamURLsAreRootRelativeWithV1Once() {
        var video = Self.video("a", 1)
        video.qualities = [.init(name: "360p", relativePath: "v2/index.m3u8")]
        video.subtitles = [.init(language: "ko", relativePath: "subs/ko.m3u8")]
        #expect(
            video.streamJSON(token: "9.ab").rendered(indent: nil)
                == #"{"video_id":"a","stream_url":"/v1/videos/a/master.m3u8?token=9.ab","qualities":[{"quality":"360p","stream_url":"/v1/videos/a/v2/index.m3u8?token=9.ab"}],"subtitles":[{"language":"ko","url":"/v1/videos/a/subs/ko.m3u8?token=9.ab"}]}"#
        )
    }
}
