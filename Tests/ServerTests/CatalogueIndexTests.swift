import FilterzTestSupport
import Testing

@testable import Server

/// The index's binary searches held to the readable reference, `CataloguePage(videos:after:limit:)` (sort the
/// whole list, filter past the cursor).
@Suite struct CatalogueIndexTests {
    @Test(arguments: [1, 2, 3, 4, 5] as [UInt64])
    func pagesEqualTheSortedListsWhateverWasInsertedReplacedOrRemoved(seed: UInt64) {
        var random = SeededGenerator(seed: seed)
        var index = CatalogueIndex()
        var reference: [String: CatalogueVideo] = [:]
        for _ in 0..<400 {
            let id = "v\(random.next() % 60)"
            if random.next() % 4 == 0 {
                index.remove(id: id)
                reference[id] = nil
            } else {
                // Few distinct creation times, so that ties are broken by id.
                let video = CatalogueVideo(id: id, title: id, createdAtNanoseconds: Int64(random.next() % 8))
                index.insert(video)
                reference[id] = video
            }
            let all = Array(reference.values)
            #expect(index.ordered == all.sorted(by: CataloguePage.catalogueOrder))
            #expect(index.count == all.count)
            let limit = Int(random.next() % 5) + 1
            var cursor: CatalogueCursor?
            if let some = all.randomElement(using: &random), random.next() % 3 != 0 {
                cursor = CatalogueCursor(createdAtNanoseconds: some.createdAtNanoseconds, videoID: some.id)
            }
            #expect(index.page(after: cursor, limit: limit) == CataloguePage(videos: all, after: cursor, limit: limit))
        }
    }

    @Test func aCursorOfAVideoNoLongerThereStillResumesAtItsPosition() {
        var index = CatalogueIndex()
        for (id, created) in [("a", 30), ("b", 20), ("c", 10)] {
            index.insert(CatalogueVideo(id: id, title: id, createdAtNanoseconds: Int64(created)))
        }
        let first = index.page(after: nil, limit: 1)
        index.remove(id: "a")
        #expect(index.page(after: CatalogueCursor(encoded: first.nextCursor), limit: 5).videos.map(\.id) == ["b", "c"])
    }
}
