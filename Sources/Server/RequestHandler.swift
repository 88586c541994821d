import HLS

/// Decides the answer to every request: the catalogue API, the index page and the files of the served folder,
/// applying the HTTP rules (path guard, tokens, validators, ranges, cache, CORS). Thread-safe; does file I/O
/// through `ServedFolder` and `Catalogue` but knows nothing of sockets.
public final class RequestHandler: Sendable {
    public let folder: ServedFolder
    public let catalogue: Catalogue
    let cors: CORSPolicy
    /// `cors.headers`, computed once.
    let corsHeaders: [(String, String)]
    let signer: URLSigner?
    let apiKey: [UInt8]?
    let tokenLifetimeSeconds: Int64
    let servesIndexWhenSigned: Bool
    let playlists: PlaylistLibrary
    let maximumPathBytes: Int

    public init(configuration: ServerConfiguration) throws(ServerError) {
        folder = try ServedFolder(path: configuration.root)
        catalogue = Catalogue(folder: folder)
        cors = CORSPolicy(allowedOrigin: configuration.corsOrigin)
        corsHeaders = cors.headers
        if let secret = configuration.tokenSecret {
            guard !secret.isEmpty else { throw .emptySecret }
            signer = URLSigner(secret: secret)
        } else {
            signer = nil
        }
        if let key = configuration.apiKey {
            guard !key.isEmpty else { throw .emptyAPIKey }
            apiKey = Array(key.utf8)
        } else {
            apiKey = nil
        }
        tokenLifetimeSeconds = configuration.tokenLifetimeSeconds
        servesIndexWhenSigned = configuration.servesIndexWhenSigned
        playlists = PlaylistLibrary()
        maximumPathBytes = configuration.maximumPathBytes
    }

    /// The answer to `request` at `now` (seconds since the epoch, for token expiry).
    public func respond(to request: HTTPRequest, now: Int64) -> HTTPResponse {
        var response = route(request, now: now, inline: false) ?? HTTPResponse(status: 500)
        response.headers.append(contentsOf: corsHeaders)
        return response
    }

    /// The same answer as `respond`, or nil when making it may take long: parsing (or rewriting for a token) a
    /// playlist larger than `inlinePlaylistBytes` that is not already parsed, or reading the catalogue. The event
    /// loops answer with this and pass the rest to background workers, so that one slow answer never holds up the
    /// requests of other clients.
    func quickResponse(to request: HTTPRequest, now: Int64) -> HTTPResponse? {
        guard var response = route(request, now: now, inline: true) else { return nil }
        response.headers.append(contentsOf: corsHeaders)
        return response
    }

    /// Playlists up to this size are parsed on the event loop (well under a millisecond).
    static let inlinePlaylistBytes: Int64 = 64 * 1024

    /// True while the answer made for `version` still holds at `now`: the file on disk is still that version
    /// and, when URLs are signed, its token is still valid. Together with a request that `canReuseAnswer`, this
    /// lets the adapter give a prepared answer again (the same bytes `respond` would make, CORS headers and all).
    func stillHolds(_ version: ServedFileVersion, now: Int64) -> Bool {
        if let signer {
            guard let videoID = version.videoID, signer.isValid(version.token, videoID: videoID, now: now) else {
                return false
            }
        }
        return folder.currentStamp(relativePath: version.relativePath) == version.stamp
    }

    private func route(_ request: HTTPRequest, now: Int64, inline: Bool) -> HTTPResponse? {
        let isAPI = request.rawPath.hasPrefix("/v1/") || request.rawPath == "/v1"
        switch request.method {
        case "GET", "HEAD": break
        case "OPTIONS": return HTTPResponse(status: 204, headers: cors.preflightHeaders)
        default:
            return error(405, "method_not_allowed", "use GET, HEAD or OPTIONS", json: isAPI, extra: [("Allow", CORSPolicy.allowedMethods)])
        }
        let segments: [String]
        switch PathGuard.check(request.rawPath, maximumBytes: maximumPathBytes) {
        case .success(let checked): segments = checked
        case .failure(.tooLong): return error(414, "uri_too_long", "the path is too long", json: isAPI)
        case .failure(.notFound): return error(404, "not_found", "no such file", json: isAPI)
        case .failure(.badRequest(let reason)): return error(400, "bad_path", reason, json: isAPI)
        }
        guard let query = request.queryParameters else {
            return error(400, "bad_query", "malformed query string", json: isAPI)
        }
        if segments.isEmpty {
            if signer != nil && !servesIndexWhenSigned { return error(404, "not_found", "no index here", json: false) }
            return inline ? nil : indexPage(now: now)
        }
        if segments[0] == "v1" { return api(Array(segments.dropFirst()), request, query: query, now: now, inline: inline) }
        // A plain file: the first segment is the video it belongs to.
        return file(
            segments, videoID: segments.count > 1 ? segments[0] : nil, request, query: query, now: now, json: false,
            inline: inline)
    }

    private func api(
        _ segments: [String], _ request: HTTPRequest, query: [String: String], now: Int64, inline: Bool
    ) -> HTTPResponse? {
        guard segments.first == "videos" else { return error(404, "not_found", "unknown endpoint", json: true) }
        switch segments.count {
        case 1:
            if let refusal = apiRefusal(request) { return refusal }
            return inline ? nil : videoList(query: query, now: now)
        case 3 where segments[2] == "stream":
            if let refusal = apiRefusal(request) { return refusal }
            if inline { return nil }
            let id = segments[1]
            guard let video = catalogue.video(id) else {
                return error(404, "video_not_found", "no video '\(id)'", json: true)
            }
            return json(200, video.streamJSON(token: freshToken(videoID: id, now: now)))
        case 2:
            return error(404, "not_found", "unknown endpoint", json: true)
        default:
            return file(
                Array(segments.dropFirst()), videoID: segments[1], request, query: query, now: now, json: true,
                inline: inline)
        }
    }

    /// The answer that keeps a request out of the catalogue API, or nil when it may come in: with an API key
    /// configured the request must send it (`X-API-Key`, compared in constant time); with signed URLs and no
    /// key the API is closed.
    private func apiRefusal(_ request: HTTPRequest) -> HTTPResponse? {
        if let apiKey {
            guard let given = request.header("x-api-key"), ConstantTime.equal(Array(given.utf8), apiKey) else {
                return error(403, "api_key_required", "send the app's API key in X-API-Key", json: true)
            }
            return nil
        }
        if signer != nil {
            return error(403, "api_closed", "the catalogue API needs --api-key when URLs are signed", json: true)
        }
        return nil
    }

    /// A token for `videoID` valid for the configured lifetime, nil when URLs are not signed.
    private func freshToken(videoID: String, now: Int64) -> String? {
        signer?.token(videoID: videoID, expiresAt: now + tokenLifetimeSeconds)
    }

    private func videoList(query: [String: String], now: Int64) -> HTTPResponse {
        var limit = CataloguePage.defaultLimit
        if let text = query["limit"] {
            guard let value = Int(text), (1...CataloguePage.maximumLimit).contains(value) else {
                return error(400, "bad_limit", "limit must be a whole number in 1…\(CataloguePage.maximumLimit)", json: true)
            }
            limit = value
        }
        var cursor: CatalogueCursor?
        if let text = query["next"], !text.isEmpty, text != CatalogueCursor.end {
            guard let decoded = CatalogueCursor(encoded: text) else {
                return error(400, "bad_cursor", "next is not a cursor this server issued", json: true)
            }
            cursor = decoded
        }
        let page = CataloguePage(videos: catalogue.videos(), after: cursor, limit: limit)
        return json(200, page.json(token: { freshToken(videoID: $0, now: now) }))
    }

    private func file(
        _ segments: [String], videoID: String?, _ request: HTTPRequest, query: [String: String], now: Int64,
        json: Bool, inline: Bool
    ) -> HTTPResponse? {
        var token: String?
        if let signer {
            token = query["token"]
            guard let videoID, signer.isValid(token, videoID: videoID, now: now) else { return forbidden() }
        }
        guard let file = folder.open(segments) else { return error(404, "not_found", "no such file", json: json) }
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
        if kind == .playlist {
            let key = segments.joined(separator: "/")
            let isLarge = file.size > Self.inlinePlaylistBytes
            if inline && isLarge && (token != nil || !playlists.holds(file, key: key)) { return nil }
            let playlist = playlists.playlist(file, key: key)
            cacheControl = CachePolicy.cacheControl(for: kind, playlist: playlist.facts)
            if let token, let videoID {
                // The video's root as this request reached it: /v1/videos/{id}/… or /{id}/….
                let root = json ? ["v1", "videos", videoID] : [videoID]
                let bytes = playlist.appendingToken(token, directory: root + segments.dropFirst().dropLast(), root: root)
                validators = validators.variant(token)
                size = Int64(bytes.count)
                body = .bytes(bytes)
            } else if playlist.bytes.count == file.size {
                // Already in memory: one write with the headers beats a sendfile of a few kilobytes.
                body = .bytes(playlist.bytes)
            } else {
                body = .file(FileRegion(file: file.handle, offset: 0, length: file.size))
            }
        } else {
            cacheControl = CachePolicy.cacheControl(for: kind)
            body = .file(FileRegion(file: file.handle, offset: 0, length: file.size))
        }
        headers.append(("ETag", validators.entityTag))
        headers.append(("Last-Modified", validators.lastModified))
        headers.append(("Cache-Control", cacheControl))
        guard validators.preconditionsHold(
            ifMatch: request.header("if-match"), ifUnmodifiedSince: request.header("if-unmodified-since"))
        else {
            return HTTPResponse(status: 412, headers: headers.filter { $0.0 != "Content-Type" && $0.0 != "Accept-Ranges" })
        }
        if validators.isNotModified(
            ifNoneMatch: request.header("if-none-match"), ifModifiedSince: request.header("if-modified-since"))
        {
            // The body stays attached so the length it states is the real one; a 304 sends none.
            return HTTPResponse(
                status: 304, headers: headers.filter { $0.0 != "Content-Type" && $0.0 != "Accept-Ranges" }, body: body)
        }
        let range: ByteRangeAnswer =
            validators.allowsRange(ifRange: request.header("if-range"))
            ? ByteRangeAnswer(rangeHeader: request.header("range"), size: size) : .whole
        switch range {
        case .whole:
            var response = HTTPResponse(status: 200, headers: headers, body: body)
            response.servedFile = ServedFileVersion(
                relativePath: segments.joined(separator: "/"), stamp: file.stamp, videoID: videoID, token: token)
            return response
        case .unsatisfiable:
            headers.removeAll { $0.0 == "Content-Type" }
            headers.append(("Content-Range", range.contentRange(size: size) ?? ""))
            return HTTPResponse(status: 416, headers: headers)
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
            return HTTPResponse(status: 206, headers: headers, body: body)
        }
    }

    private func indexPage(now: Int64) -> HTTPResponse {
        let html = IndexPage.render(videos: catalogue.videos(), token: { freshToken(videoID: $0, now: now) })
        return HTTPResponse(
            status: 200,
            headers: [("Content-Type", "text/html; charset=utf-8"), ("Cache-Control", CachePolicy.dynamic)],
            body: .bytes(Array(html.utf8)))
    }

    private func json(_ status: Int, _ value: JSONValue) -> HTTPResponse {
        HTTPResponse(
            status: status,
            headers: [("Content-Type", "application/json"), ("Cache-Control", CachePolicy.dynamic)],
            body: .bytes(Array((value.rendered(indent: nil) + "\n").utf8)))
    }

    /// 403 with no body: the client learns nothing about why.
    private func forbidden() -> HTTPResponse {
        HTTPResponse(status: 403, headers: [("Cache-Control", CachePolicy.dynamic)])
    }

    private func error(_ status: Int, _ code: String, _ message: String, json isJSON: Bool, extra: [(String, String)] = [])
        -> HTTPResponse
    {
        if isJSON {
            var response = json(status, .object([("error", .object([("code", .string(code)), ("message", .string(message))]))]))
            response.headers.append(contentsOf: extra)
            return response
        }
        return HTTPResponse(
            status: status,
            headers: [("Content-Type", "text/plain; charset=utf-8"), ("Cache-Control", CachePolicy.dynamic)] + extra,
            body: .bytes(Array("\(status) \(HTTPStatus.reason(status))\n".utf8)))
    }

}

extension ClosedRange<Int64> {
    /// The number of values in the range (`count` is not available for `Int64` ranges without `Stride`).
    var count64: Int64 { upperBound - lowerBound + 1 }
}
