import HLS
import JSON

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
    /// The key folder (`--keys`): `<id>/<n>.key` for each encrypted video; nil answers every key URI with 404.
    let keys: ServedFolder?

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
        keys = try configuration.keysFolder.map { path throws(ServerError) in try ServedFolder(path: path) }
    }

    /// What to do with `request` at `now` (seconds since the epoch, for token expiry): answer it, or hold it
    /// until a file changes (a blocking playlist reload, a hinted part).
    public func answer(to request: HTTPRequest, now: Int64) -> HandlerAnswer {
        switch decide(request, now: now) {
        case .ready(let answer): answer
        case .slow(let slow): slow.make()
        }
    }

    /// The response to `request`; a request that would be held gets the answer it would get when its wait ran
    /// out (for tests and callers without a connection to park).
    public func respond(to request: HTTPRequest, now: Int64) -> HTTPResponse {
        switch answer(to: request, now: now) {
        case .response(let response): response
        case .hold(let hold): hold.timeoutResponse
        }
    }

    /// The answer to `request` when it is quick to make, else the slow work that makes it. Slow: a playlist
    /// larger than `inlinePlaylistBytes` unless it is parsed and the body asked for is already made (no token to
    /// add, no delta, its compressed form kept when the client takes gzip), or reading the catalogue. The event
    /// loops answer quick ones at once and run `SlowAnswer.make` on a background worker, so that one slow answer
    /// never holds up the requests of other clients.
    func decide(_ request: HTTPRequest, now: Int64) -> HandlerDecision {
        let cors = corsHeaders
        return route(request, now: now).map { $0.adding(cors) }
    }

    /// Which workers make a slow answer to `request`: the catalogue's own, or those for files.
    enum BackgroundLane { case catalogue, files }

    func backgroundLane(for request: HTTPRequest) -> BackgroundLane {
        let path = request.rawPath
        let isCatalogue =
            path == "/" || path == "/v1/videos" || (path.hasPrefix("/v1/videos/") && path.hasSuffix("/stream"))
        return isCatalogue ? .catalogue : .files
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

    private func route(_ request: HTTPRequest, now: Int64) -> HandlerDecision {
        let isAPI = request.rawPath.hasPrefix("/v1/") || request.rawPath == "/v1"
        switch request.method {
        case "GET", "HEAD": break
        case "OPTIONS": return .response(HTTPResponse(status: 204, headers: cors.preflightHeaders))
        default:
            return .response(
                error(
                    405, "method_not_allowed", "use GET, HEAD or OPTIONS", json: isAPI,
                    extra: [("Allow", CORSPolicy.allowedMethods)]))
        }
        let segments: [String]
        switch PathGuard.check(request.rawPath, maximumBytes: maximumPathBytes) {
        case .success(let checked): segments = checked
        case .failure(.tooLong): return .response(error(414, "uri_too_long", "the path is too long", json: isAPI))
        case .failure(.notFound): return .response(error(404, "not_found", "no such file", json: isAPI))
        case .failure(.badRequest(let reason)): return .response(error(400, "bad_path", reason, json: isAPI))
        }
        guard let query = request.queryParameters else {
            return .response(error(400, "bad_query", "malformed query string", json: isAPI))
        }
        if segments.isEmpty {
            if signer != nil && !servesIndexWhenSigned {
                return .response(error(404, "not_found", "no index here", json: false))
            }
            return .slow(SlowAnswer { .response(self.indexPage(query: query, now: now)) })
        }
        if segments[0] == "v1" {
            return api(Array(segments.dropFirst()), request, query: query, now: now)
        }
        // A plain file: the first segment is the video it belongs to.
        let target = FileTarget(segments: segments, videoID: segments.count > 1 ? segments[0] : nil, viaAPI: false)
        return file(target, request, query: query, now: now)
    }

    func json(_ status: Int, _ value: JSONValue) -> HTTPResponse {
        HTTPResponse(
            status: status,
            headers: [("Content-Type", "application/json"), ("Cache-Control", CachePolicy.dynamic)],
            body: .bytes(Array((value.rendered(indent: nil) + "\n").utf8)))
    }

    /// 403 with no body: the client learns nothing about why.
    func forbidden() -> HTTPResponse {
        HTTPResponse(status: 403, headers: [("Cache-Control", CachePolicy.dynamic)])
    }

    func error(_ status: Int, _ code: String, _ message: String, json isJSON: Bool, extra: [(String, String)] = [])
        -> HTTPResponse
    {
        if isJSON {
            var response = json(
                status, .object([("error", .object([("code", .string(code)), ("message", .string(message))]))]))
            response.headers.append(contentsOf: extra)
            return response
        }
        return HTTPResponse(
            status: status,
            headers: [("Content-Type", "text/plain; charset=utf-8"), ("Cache-Control", CachePolicy.dynamic)] + extra,
            body: .bytes(Array("\(status) \(HTTPStatus.reason(status))\n".utf8)))
    }
}

extension HandlerAnswer {
    /// The answer with `headers` added (to the timeout answer of a hold).
    fileprivate func adding(_ headers: [(String, String)]) -> HandlerAnswer {
        switch self {
        case .response(var response):
            response.headers.append(contentsOf: headers)
            return .response(response)
        case .hold(var hold):
            hold.timeoutResponse.headers.append(contentsOf: headers)
            return .hold(hold)
        }
    }
}

extension ClosedRange<Int64> {
    /// The number of values in the range (`count` is not available for `Int64` ranges without `Stride`).
    var count64: Int64 { upperBound - lowerBound + 1 }
}
