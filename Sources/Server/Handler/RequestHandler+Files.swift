/// The files of the served folder: tokens, validators, conditions, ranges and cache rules; playlists take their
/// body from `RequestHandler+Playlists`.
extension RequestHandler {
    func file(
        _ segments: [String], videoID: String?, _ request: HTTPRequest, query: [String: String], now: Int64,
        json: Bool, inline: Bool
    ) -> HandlerAnswer? {
        var token: String?
        if let signer {
            token = request.signedToken
            guard let videoID, signer.isValid(token, videoID: videoID, now: now) else { return .response(forbidden()) }
        }
        let key = segments.joined(separator: "/")
        let file: ServedFolder.File
        switch folder.opening(segments) {
        case .success(let opened): file = opened
        case .failure(.missing): return missingFile(key, json: json)
        case .failure(.outOfDescriptors): return .response(outOfDescriptors(json: json))
        }
        let name = segments[segments.count - 1]
        let kind = FileKind(path: name)
        var headers: [(String, String)] = [
            ("Content-Type", FileKind.contentType(forPath: name)),
            ("Accept-Ranges", "bytes"),
        ]
        var validators = file.validators
        var body: HTTPResponse.Body
        var size = file.size
        var cacheControl: String
        var compressed = false
        if kind == .playlist {
            let isLarge = file.size > Self.inlinePlaylistBytes
            if inline && isLarge {
                // Parsing, rewriting, compressing or deriving a delta of a large playlist takes milliseconds.
                let wantsGzip =
                    AcceptEncoding.allowsGzip(request.header("accept-encoding")) && request.header("range") == nil
                guard token == nil, query["_HLS_skip"] == nil, playlists.holds(file, key: key),
                    !wantsGzip || playlists.playlist(file, key: key).holdsVariant("gzip")
                else { return nil }
            }
            let entry = playlists.playlist(file, key: key)
            let served: PlaylistBody
            switch playlistBody(entry, file: file, key: key, query: query, request: request) {
            case .failure(let refusal):
                return .response(error(refusal.status, "bad_directive", refusal.reason, json: json))
            case .success(.hold(let hold)): return .hold(hold)
            case .success(.body(let made)): served = made
            }
            cacheControl = served.cacheControl
            var bytes = served.bytes
            // A body made for a viewer's token is kept for the token's next requests (`TokenBodies`).
            var tokenBody: TokenBodies.Key?
            if let token, let videoID {
                // The video's root as this request reached it: /v1/videos/{id}/… or /{id}/….
                let root = json ? ["v1", "videos", videoID] : [videoID]
                let form = root.joined(separator: "/") + " " + (served.variant ?? "")
                let tokenKey = TokenBodies.Key(path: key, stamp: file.stamp, token: token, form: form)
                let plain = bytes ?? entry.bytes
                bytes = playlists.tokenBodies.body(tokenKey) {
                    entry.appendingToken(
                        token, to: plain, directory: root + segments.dropFirst().dropLast(), root: root)
                }
                tokenBody = tokenKey
                validators = validators.variant(token)
                cacheControl = CachePolicy.carryingToken(cacheControl)
            }
            if let variant = served.variant { validators = validators.variant(variant) }
            headers.append(("Vary", "Accept-Encoding"))
            if AcceptEncoding.allowsGzip(request.header("accept-encoding")) && request.header("range") == nil {
                let plain = bytes ?? entry.bytes
                let gzipped: [UInt8]?
                if var tokenKey = tokenBody {
                    tokenKey.form += " gzip"
                    gzipped = playlists.tokenBodies.body(tokenKey) { Gzip.compress(plain) }
                } else {
                    gzipped = entry.variant("gzip" + (served.variant ?? "")) { Gzip.compress(plain) }
                }
                if let gzipped {
                    bytes = gzipped
                    compressed = true
                    validators = validators.variant("gzip")
                }
            }
            if let bytes {
                size = Int64(bytes.count)
                body = .bytes(bytes)
            } else if entry.bytes.count == file.size {
                // Already in memory: one write with the headers beats a sendfile of a few kilobytes.
                body = .bytes(entry.bytes)
            } else {
                body = .file(FileRegion(file: file.handle, offset: 0, length: file.size))
            }
        } else {
            cacheControl = CachePolicy.cacheControl(for: kind)
            body = .file(FileRegion(file: file.handle, offset: 0, length: file.size))
        }
        if compressed { headers.append(("Content-Encoding", "gzip")) }
        headers.append(("ETag", validators.entityTag))
        headers.append(("Last-Modified", validators.lastModified))
        headers.append(("Cache-Control", cacheControl))
        let withoutBodyFields = headers.filter {
            $0.0 != "Content-Type" && $0.0 != "Accept-Ranges" && $0.0 != "Content-Encoding"
        }
        guard
            validators.preconditionsHold(
                ifMatch: request.header("if-match"), ifUnmodifiedSince: request.header("if-unmodified-since"))
        else {
            return .response(HTTPResponse(status: 412, headers: withoutBodyFields))
        }
        if validators.isNotModified(
            ifNoneMatch: request.header("if-none-match"), ifModifiedSince: request.header("if-modified-since"))
        {
            // The body stays attached so the length it states is the real one; a 304 sends none.
            return .response(HTTPResponse(status: 304, headers: withoutBodyFields, body: body))
        }
        let range: ByteRangeAnswer =
            validators.allowsRange(ifRange: request.header("if-range"))
            ? ByteRangeAnswer(rangeHeader: request.header("range"), size: size) : .whole
        switch range {
        case .whole:
            var response = HTTPResponse(status: 200, headers: headers, body: body)
            response.servedFile = ServedFileVersion(
                relativePath: key, stamp: file.stamp, videoID: videoID, token: token)
            return .response(response)
        case .unsatisfiable:
            headers.removeAll { $0.0 == "Content-Type" }
            headers.append(("Content-Range", range.contentRange(size: size) ?? ""))
            return .response(HTTPResponse(status: 416, headers: headers))
        case .partial(let bytes):
            headers.append(("Content-Range", range.contentRange(size: size) ?? ""))
            switch body {
            case .file(let region):
                body = .file(FileRegion(file: region.file, offset: bytes.lowerBound, length: bytes.count64))
            case .bytes(let all):
                body = .bytes(Array(all[Int(bytes.lowerBound)...Int(bytes.upperBound)]))
            case .empty:
                break
            }
            return .response(HTTPResponse(status: 206, headers: headers, body: body))
        }
    }

    /// A file that is not there: held when a live playlist hints at it (it is being written), otherwise 404 —
    /// cached for a second only, since a live stream's next part is missing only until it is published.
    /// 503 with `Retry-After`: the file may well be there, but no descriptor was left to open it.
    func outOfDescriptors(json: Bool) -> HTTPResponse {
        error(
            503, "busy", "the server is out of file descriptors; try again", json: json,
            extra: [("Retry-After", "1")])
    }

    private func missingFile(_ key: String, json: Bool) -> HandlerAnswer {
        var notFound = error(404, "not_found", "no such file", json: json)
        if let hinting = playlists.playlistHinting(key) {
            return .hold(Hold(watchedPath: key, timeoutSeconds: hinting.holdSeconds, timeoutResponse: notFound))
        }
        notFound.headers = notFound.headers.map { $0.0 == "Cache-Control" ? ($0.0, CachePolicy.missingFile) : $0 }
        return .response(notFound)
    }
}
