/// What a file answer sends when it sends the file whole: the body and its length, the validators and the
/// fields that describe it. The last two steps of a file answer — its conditions, then its range — are made from
/// this alone, with no I/O.
struct FileRepresentation: Sendable {
    var body: HTTPResponse.Body
    /// The body's length in bytes (the whole file, or the playlist made from it).
    var size: Int64
    var validators: Validators
    var contentType: String
    var cacheControl: String
    /// The body depends on the coding the client takes (`Vary: Accept-Encoding`; playlists).
    var variesByEncoding = false
    /// The body is gzip-compressed (`Content-Encoding: gzip`).
    var isGzipped = false
    /// The file version and token the body was made from.
    var version: ServedFileVersion

    /// The header fields of the whole answer, in the order they are sent.
    var headers: [(String, String)] {
        var fields = [("Content-Type", contentType), ("Accept-Ranges", "bytes")]
        if variesByEncoding { fields.append(("Vary", "Accept-Encoding")) }
        if isGzipped { fields.append(("Content-Encoding", "gzip")) }
        fields.append(("ETag", validators.entityTag))
        fields.append(("Last-Modified", validators.lastModified))
        fields.append(("Cache-Control", cacheControl))
        return fields
    }

    /// The answer to `request`: 412 or 304 when its conditions say so, otherwise the range it asks for.
    func answer(to request: HTTPRequest) -> HTTPResponse {
        conditionalAnswer(to: request) ?? rangeAnswer(to: request)
    }

    /// Conditions: 412 when a precondition fails (`If-Match`, `If-Unmodified-Since`), 304 when the client holds
    /// this version (`If-None-Match`, `If-Modified-Since`), nil when the request is to be answered in full.
    func conditionalAnswer(to request: HTTPRequest) -> HTTPResponse? {
        let withoutBodyFields = headers.filter {
            $0.0 != "Content-Type" && $0.0 != "Accept-Ranges" && $0.0 != "Content-Encoding"
        }
        guard
            validators.preconditionsHold(
                ifMatch: request.header("if-match"), ifUnmodifiedSince: request.header("if-unmodified-since"))
        else {
            return HTTPResponse(status: 412, headers: withoutBodyFields)
        }
        if validators.isNotModified(
            ifNoneMatch: request.header("if-none-match"), ifModifiedSince: request.header("if-modified-since"))
        {
            // The body stays attached so the length it states is the real one; a 304 sends none.
            return HTTPResponse(status: 304, headers: withoutBodyFields, body: body)
        }
        return nil
    }

    /// Range: 200 with the whole body (marked as this version, so it may be given again), 206 with the one range
    /// asked for, or 416 (`If-Range` naming another version gets the whole body).
    func rangeAnswer(to request: HTTPRequest) -> HTTPResponse {
        let range: ByteRangeAnswer =
            validators.allowsRange(ifRange: request.header("if-range"))
            ? ByteRangeAnswer(rangeHeader: request.header("range"), size: size) : .whole
        var fields = headers
        switch range {
        case .whole:
            var response = HTTPResponse(status: 200, headers: fields, body: body)
            response.servedFile = version
            return response
        case .unsatisfiable:
            fields.removeAll { $0.0 == "Content-Type" }
            fields.append(("Content-Range", range.contentRange(size: size) ?? ""))
            return HTTPResponse(status: 416, headers: fields)
        case .partial(let bytes):
            fields.append(("Content-Range", range.contentRange(size: size) ?? ""))
            let part: HTTPResponse.Body
            switch body {
            case .file(let region):
                part = .file(FileRegion(file: region.file, offset: bytes.lowerBound, length: bytes.count64))
            case .bytes(let all):
                part = .bytes(Array(all[Int(bytes.lowerBound)...Int(bytes.upperBound)]))
            case .empty:
                part = .empty
            }
            return HTTPResponse(status: 206, headers: fields, body: part)
        }
    }
}
