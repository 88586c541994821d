import Synchronization
internal import CMicroHTTPD

/// Whole-file 200 answers for small files (playlists, subtitles, posters), kept as ready libmicrohttpd
/// responses and given again while the file on disk is unchanged: a repeated request then costs one `fstatat`
/// and a queue call instead of the path guard, an open, a parse and a dozen header strings.
///
/// Keyed by the request target exactly as received (path and query), so an entry is only ever found by a
/// request that took the full route to the same answer before. Each use is checked by
/// `RequestHandler.stillHolds` (same inode, size and nanosecond mtime; token still valid), so a live playlist is
/// never answered from an older version, and the Cache-Control that goes with a version goes with it.
final class PreparedAnswers: Sendable {
    /// One prepared answer: a libmicrohttpd response (reference-counted by the library, so it can be queued on
    /// many connections at once) and the file version it was made from.
    final class Answer: @unchecked Sendable {
        let response: OpaquePointer
        let version: ServedFileVersion
        let bodyLength: Int64

        fileprivate init(response: OpaquePointer, version: ServedFileVersion, bodyLength: Int64) {
            self.response = response
            self.version = version
            self.bodyLength = bodyLength
        }

        // Connections still sending it hold their own reference.
        deinit { MHD_destroy_response(response) }
    }

    /// Larger files go out with sendfile on every request.
    static let maximumBodyBytes = 64 * 1024
    /// Entries kept at most, and their bodies' bytes at most; the store is emptied when either would be passed
    /// (entries are cheap to make again).
    static let capacity = 4096
    static let budgetBytes = 32 << 20

    private struct Store {
        var answers: [String: Answer] = [:]
        var bodyBytes: Int64 = 0
    }

    private let store = Mutex(Store())

    /// Entries kept now, and the bytes of their bodies.
    var size: (answers: Int, bodyBytes: Int64) { store.withLock { ($0.answers.count, $0.bodyBytes) } }

    /// The answer kept for `target`, if any (the caller checks that it still holds).
    func answer(for target: String) -> Answer? {
        store.withLock { $0.answers[target] }
    }

    /// Makes and keeps a reusable answer from `response` for `target`; nil when it is not a whole small file,
    /// or the file changed while it was read.
    func prepare(_ response: HTTPResponse, for target: String) -> Answer? {
        guard response.status == 200, let version = response.servedFile else { return nil }
        var body: [UInt8]
        switch response.body {
        case .empty:
            body = []
        case .bytes(let bytes):
            body = bytes
        case .file(let region):
            guard region.length <= Self.maximumBodyBytes else { return nil }
            body = region.file.read(offset: region.offset, count: Int(region.length))
            guard body.count == region.length, FileStamp(of: region.file) == version.stamp else { return nil }
        }
        guard body.count <= Self.maximumBodyBytes, let made = HTTPServer.makeResponse(headers: response.headers, body: body)
        else { return nil }
        let answer = Answer(response: made, version: version, bodyLength: Int64(body.count))
        store.withLock { store in
            if store.answers.count >= Self.capacity || store.bodyBytes + answer.bodyLength > Self.budgetBytes {
                store = Store()
            }
            store.bodyBytes += answer.bodyLength - (store.answers[target]?.bodyLength ?? 0)
            store.answers[target] = answer
        }
        return answer
    }
}
