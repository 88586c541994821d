import FilterzTestSupport
import Foundation
import RealClients
import Testing

@testable import Server

@Suite struct CatalogueAPITests {
    static func json(_ response: RawResponse) throws -> [String: Any] {
        try #require(JSONSerialization.jsonObject(with: Data(response.body)) as? [String: Any])
    }

    @Test func listsVideosWithTheirFacts() throws {
        let site = try TestSite { try $0.addVideo("warm-film", filter: "Warm Film") }
        let response = try fetch(site.port, "GET", "/v1/videos")
        #expect(response.status == 200)
        #expect(response.header("content-type") == "application/json")
        let body = try Self.json(response)
        let data = try #require(body["data"] as? [[String: Any]])
        #expect(data.count == 1)
        let video = data[0]
        #expect(video["video_id"] as? String == "warm-film")
        #expect(video["title"] as? String == "warm-film")
        #expect(video["description"] as? String == "Filtered with Warm Film")
        #expect(video["duration"] as? Double == 12)
        #expect(video["thumbnail_url"] as? String == "/v1/videos/warm-film/poster.jpg")
        #expect(video["available_qualities"] as? [String] == ["720p", "360p"])
        #expect((video["created_at"] as? String)?.hasSuffix("Z") == true)
        #expect(body["next_cursor"] as? String == "0")
        // The thumbnail URL works.
        #expect(try fetch(site.port, "GET", "/v1/videos/warm-film/poster.jpg").header("content-type") == "image/jpeg")
    }

    @Test func streamGivesRootRelativeURLsThatWork() throws {
        let site = try TestSite { try $0.addVideo("clip") }
        let response = try fetch(site.port, "GET", "/v1/videos/clip/stream")
        #expect(response.status == 200)
        let body = try Self.json(response)
        #expect(body["video_id"] as? String == "clip")
        #expect(body["stream_url"] as? String == "/v1/videos/clip/master.m3u8")
        let qualities = try #require(body["qualities"] as? [[String: String]])
        #expect(
            qualities == [
                ["quality": "720p", "stream_url": "/v1/videos/clip/v0/index.m3u8"],
                ["quality": "360p", "stream_url": "/v1/videos/clip/v1/index.m3u8"],
            ])
        let subtitles = try #require(body["subtitles"] as? [[String: String]])
        #expect(
            subtitles == [
                ["language": "ko", "url": "/v1/videos/clip/subs/ko.m3u8"],
                ["language": "en", "url": "/v1/videos/clip/subs/en.m3u8"],
            ])
        let urls = [body["stream_url"] as? String] + qualities.map { $0["stream_url"] } + subtitles.map { $0["url"] }
        for url in urls {
            let url = try #require(url)
            #expect(url.hasPrefix("/v1/videos/") && url.components(separatedBy: "/v1/videos/").count == 2, "\(url)")
            let file = try fetch(site.port, "GET", url)
            #expect(file.status == 200, "\(url)")
            #expect(file.bodyText.hasPrefix("#EXTM3U"))
        }
    }

    @Test func unknownVideosAndEndpointsAre404WithAJSONError() throws {
        let site = try TestSite { try $0.addVideo("clip") }
        for path in ["/v1/videos/nope/stream", "/v1/nothing", "/v1/videos/clip", "/v1/videos/clip/none.ts"] {
            let response = try fetch(site.port, "GET", path)
            #expect(response.status == 404, "\(path)")
            #expect(response.header("content-type") == "application/json")
            let error = try #require(try Self.json(response)["error"] as? [String: String])
            #expect(error["code"] != nil && error["message"] != nil)
        }
    }

    @Test(arguments: ["limit=0", "limit=101", "limit=x", "limit=-1", "next=garbage", "next=12.zz", "limit=1.5"])
    func badCursorsAndLimitsAre400WithAJSONError(query: String) throws {
        let site = try TestSite { try $0.addVideo("clip") }
        let response = try fetch(site.port, "GET", "/v1/videos?" + query)
        #expect(response.status == 400)
        let error = try #require(try Self.json(response)["error"] as? [String: String])
        #expect(error["code"]?.hasPrefix("bad_") == true)
    }

    @Test func limitDefaultsToTenAndPagesCoverEverything() throws {
        let site = try TestSite { site in
            for index in 0..<12 { try site.addVideo(String(format: "video-%02d", index)) }
        }
        let first = try Self.json(try fetch(site.port, "GET", "/v1/videos"))
        #expect((first["data"] as? [Any])?.count == 10)
        let cursor = try #require(first["next_cursor"] as? String)
        #expect(cursor != "0")
        let second = try Self.json(try fetch(site.port, "GET", "/v1/videos?limit=100&next=\(cursor)"))
        #expect((second["data"] as? [Any])?.count == 2)
        #expect(second["next_cursor"] as? String == "0")
    }

    @Test func paginationIsStableWhileVideosAreAdded() throws {
        let site = try TestSite { site in
            for index in 0..<7 {
                try site.addVideo("old-\(index)")
                usleep(2_000)  // distinct creation times
            }
        }
        var seen: [String] = []
        var next = ""
        var added = 0
        repeat {
            let page = try Self.json(
                try fetch(site.port, "GET", "/v1/videos?limit=3" + (next.isEmpty ? "" : "&next=" + next)))
            seen += (page["data"] as? [[String: Any]] ?? []).compactMap { $0["video_id"] as? String }
            next = page["next_cursor"] as? String ?? "0"
            try site.files.addVideo("new-\(added)")  // appears while the client pages
            added += 1
        } while next != "0" && added < 10
        #expect(seen == (0..<7).reversed().map { "old-\($0)" })
        // A fresh listing sees the new ones first.
        let fresh = try Self.json(try fetch(site.port, "GET", "/v1/videos?limit=100"))
        #expect((fresh["data"] as? [[String: Any]])?.first?["video_id"] as? String == "new-\(added - 1)")
        #expect((fresh["data"] as? [Any])?.count == 7 + added)
    }

    @Test func theCatalogueFollowsChangesOnDisk() throws {
        let site = try TestSite { try $0.addVideo("a", live: true) }
        let before = try Self.json(try fetch(site.port, "GET", "/v1/videos"))
        #expect(((before["data"] as? [[String: Any]])?.first?["duration"] as? Double) == 12)
        let url = site.root.appendingPathComponent("a/v0/index.m3u8")
        let text = try String(contentsOf: url, encoding: .utf8)
        try site.write("a/v0/index.m3u8", text + "#EXTINF:4.000,\nseg_0.ts\n")
        let after = try Self.json(try fetch(site.port, "GET", "/v1/videos"))
        #expect(((after["data"] as? [[String: Any]])?.first?["duration"] as? Double) == 16)
        try FileManager.default.removeItem(at: site.root.appendingPathComponent("a"))
        let gone = try Self.json(try fetch(site.port, "GET", "/v1/videos"))
        #expect((gone["data"] as? [Any])?.isEmpty == true)
    }

    @Test func theIndexPageShowsEachVideo() throws {
        let site = try TestSite { try $0.addVideo("warm<film>", filter: "Warm & Film") }
        let response = try fetch(site.port, "GET", "/")
        #expect(response.status == 200)
        #expect(response.header("content-type") == "text/html; charset=utf-8")
        let html = response.bodyText
        #expect(html.contains("<video"))
        #expect(html.contains("src=\"/v1/videos/warm%3Cfilm%3E/master.m3u8\""))
        #expect(html.contains("poster=\"/v1/videos/warm%3Cfilm%3E/poster.jpg\""))
        #expect(html.contains("Warm &amp; Film"))
        #expect(html.contains("warm&lt;film&gt;"))
        #expect(!html.contains("warm<film>"))
        #expect(html.contains("0:12"))
        #expect(html.contains("720p, 360p"))
    }

    @Test func aReadCostsThePageNotTheCatalogue() throws {
        let site = try TestSite { site in for index in 0..<40 { try site.addVideo("video-\(index)") } }
        let catalogue = site.server.handler.catalogue
        #expect(catalogue.count == 40)
        let afterIndexing = catalogue.filesExamined
        for target in ["/v1/videos?limit=5", "/", "/v1/videos?limit=100", "/?next=0"] {
            #expect(try fetch(site.port, "GET", target).status == 200)
        }
        #expect(catalogue.filesExamined == afterIndexing, "listing examined the videos' files again")
        // A change is read again for that video alone: its master, its first playlist, poster and filter.json.
        try site.write("video-7/filter.json", #"{"title":"Seven"}"#)
        let page = try Self.json(try fetch(site.port, "GET", "/v1/videos?limit=100"))
        let titles = (page["data"] as? [[String: Any]] ?? []).compactMap { $0["title"] as? String }
        #expect(titles.contains("Seven"))
        #expect(catalogue.filesExamined - afterIndexing <= 2 * 5)
    }

    @Test func aVideoFolderSwappedForAnotherIsReadAgain() throws {
        let site = try TestSite { try $0.addVideo("clip", filter: "Before") }
        #expect(try Self.json(try fetch(site.port, "GET", "/v1/videos/clip/stream"))["video_id"] as? String == "clip")
        try site.files.addVideo("staged", filter: "After")
        try FileManager.default.removeItem(at: site.root.appendingPathComponent("clip"))
        try FileManager.default.moveItem(
            at: site.root.appendingPathComponent("staged"), to: site.root.appendingPathComponent("clip"))
        let page = try Self.json(try fetch(site.port, "GET", "/v1/videos"))
        let videos = page["data"] as? [[String: Any]] ?? []
        #expect(videos.map { $0["video_id"] as? String } == ["clip"])
        #expect(videos.first?["description"] as? String == "Filtered with After")
    }

    @Test func theIndexPageIsPagedAndEachPageLinksTheNext() throws {
        let count = IndexPage.pageSize + 5
        let site = try TestSite { site in for index in 0..<count { try site.addVideo("video-\(index)") } }
        let first = try fetch(site.port, "GET", "/").bodyText
        #expect(first.components(separatedBy: "<article ").count - 1 == IndexPage.pageSize)
        let link = try #require(first.range(of: #"href="/\?next=[^"]+""#, options: .regularExpression))
        let next = String(first[link].dropFirst(6).dropLast())
        let second = try fetch(site.port, "GET", next).bodyText
        #expect(second.components(separatedBy: "<article ").count - 1 == 5)
        #expect(!second.contains("next-page"))
        #expect(!second.contains("No videos yet"))
        let bad = try fetch(site.port, "GET", "/?next=garbage")
        #expect(bad.status == 400)
    }

    @Test func aCancelledCatalogueStopsReadingTheFolder() throws {
        let site = try TestSite(populate: { site in for index in 0..<20 { try site.addVideo("video-\(index)") } })
        let catalogue = Catalogue(folder: site.server.handler.folder)
        catalogue.cancel()
        #expect(catalogue.count == 0)
        #expect(catalogue.filesExamined == 0)
    }
}
