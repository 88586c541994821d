import Foundation

extension VideoFileReader {
    /// Decodes on a thread of its own, up to `depth` items ahead of the consumer, so decoding (and the
    /// rotation) overlaps filtering and encoding instead of taking turns with them on the consumer's
    /// thread. Hands over `next()`'s items in order; a decoding error is the last item. The reader belongs
    /// to that thread from here on: do not call `next()` on it any more.
    public func prefetched(depth: Int = 4) -> Prefetcher<Result<Item, MediaInputError>> {
        let decoding = DecodingState(self)
        return Prefetcher(workers: 1, depth: depth, name: "decode") { _ in decoding.next() }
    }
}

/// The reader as the decoding thread uses it: `next()` until the end or the first error.
private final class DecodingState: @unchecked Sendable {
    private let reader: VideoFileReader
    private var failed = false

    init(_ reader: VideoFileReader) { self.reader = reader }

    func next() -> Result<VideoFileReader.Item, MediaInputError>? {
        guard !failed else { return nil }
        do {
            return try reader.next().map { .success($0) }
        } catch {
            failed = true
            return .failure(error)
        }
    }
}
