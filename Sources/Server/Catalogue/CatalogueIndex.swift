/// Every video of the catalogue, kept in catalogue order (newest first, then by id), so that a page is found by
/// binary search and costs the length of the page, not the number of videos.
///
/// A value: `Catalogue` owns one and changes it as folders change, one video at a time.
struct CatalogueIndex: Sendable {
    /// In `CataloguePage.catalogueOrder`.
    private(set) var ordered: [CatalogueVideo] = []
    private var byID: [String: CatalogueVideo] = [:]

    var count: Int { ordered.count }

    subscript(id: String) -> CatalogueVideo? { byID[id] }

    var ids: Dictionary<String, CatalogueVideo>.Keys { byID.keys }

    /// Adds `video`, or replaces the video with its id.
    mutating func insert(_ video: CatalogueVideo) {
        remove(id: video.id)
        ordered.insert(video, at: firstPosition { !CataloguePage.catalogueOrder($0, video) })
        byID[video.id] = video
    }

    mutating func remove(id: String) {
        guard let old = byID.removeValue(forKey: id) else { return }
        let position = firstPosition { !CataloguePage.catalogueOrder($0, old) }
        if position < ordered.count, ordered[position].id == id { ordered.remove(at: position) }
    }

    /// The `limit` videos after `cursor` (from the start when nil).
    func page(after cursor: CatalogueCursor?, limit: Int) -> CataloguePage {
        let start = cursor.map { cursor in firstPosition { cursor.precedes($0) } } ?? 0
        return CataloguePage(following: ordered[start...], limit: limit)
    }

    /// The first position whose video satisfies `isAtOrAfter`, a predicate false for a prefix of `ordered` and
    /// true for the rest.
    private func firstPosition(where isAtOrAfter: (CatalogueVideo) -> Bool) -> Int {
        var low = 0
        var high = ordered.count
        while low < high {
            let middle = low + (high - low) / 2
            if isAtOrAfter(ordered[middle]) { high = middle } else { low = middle + 1 }
        }
        return low
    }
}
