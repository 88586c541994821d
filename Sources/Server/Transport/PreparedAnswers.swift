import Synchronization

/// Whole-file 200 answers for small files (playlists, subtitles, posters), kept serialised (field block and
/// body) and given again while the file on disk is unchanged: a repeated request then costs one `fstatat` and
/// one send instead of the path guard, an open, a parse and a dozen header strings.
///
/// Keyed by the request target exactly as received (path and query), so an entry is only ever found by a
/// request that took the full route to the same answer before. Each use is checked by
/// `RequestHandler.stillHolds` (same inode, size and nanosecond mtime; token still valid), so a live playlist is
/// never answered from an older version, and the Cache-Control that goes with a version goes with it.
final class PreparedAnswers: Sendable {
    /// One prepared answer: its header fields as `ResponseHead.fieldBlock` writes them (CORS and
    /// `Content-Length` included), its body, and the file version it was made from.
    final class Answer: Sendable {
        let fieldBlock: [UInt8]
        let body: [UInt8]
        let version: ServedFileVersion
        var bodyLength: Int64 { Int64(body.count) }

        fileprivate init(fieldBlock: [UInt8], body: [UInt8], version: ServedFileVersion) {
            self.fieldBlock = fieldBlock
            self.body = body
            self.version = version
        }
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

    /// The key an answer is kept under: the request target as received, and whether the client takes gzip (the
    /// answer for a playlist differs).
    static func key(_ target: String, _ request: HTTPRequest) -> String {
        AcceptEncoding.allowsGzip(request.header("accept-encoding")) ? target + "\u{0}gzip" : target
    }

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
        guard body.count <= Self.maximumBodyBytes else { return nil }
        let fieldBlock = ResponseHead.fieldBlock(
            status: 200, headers: response.headers, contentLength: Int64(body.count))
        let answer = Answer(fieldBlock: fieldBlock, body: body, version: version)
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
