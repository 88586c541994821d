import HLS

/// The catalogue API (`/v1/videos`, `/v1/videos/{id}/stream`) and the index page.
extension RequestHandler {
    func api(_ segments: [String], _ request: HTTPRequest, query: [String: String], now: Int64) -> HandlerDecision {
        guard segments.first == "videos" else {
            return .response(error(404, "not_found", "unknown endpoint", json: true))
        }
        switch segments.count {
        case 1:
            if let refusal = apiRefusal(request) { return .response(refusal) }
            return .slow(
                SlowAnswer { .response(self.videoList(query: query, now: now).unlessPreconditionFails(request)) })
        case 3 where segments[2] == "stream":
            if let refusal = apiRefusal(request) { return .response(refusal) }
            return .slow(SlowAnswer { .response(self.stream(segments[1], request, now: now)) })
        case 2:
            return .response(error(404, "not_found", "unknown endpoint", json: true))
        case 4 where segments[2] == "keys":
            return .response(key(videoID: segments[1], name: segments[3], token: request.signedToken, now: now))
        default:
            let target = FileTarget(segments: Array(segments.dropFirst()), videoID: segments[1], viaAPI: true)
            return file(target, request, query: query, now: now)
        }
    }

    /// `/v1/videos/{id}/stream`: the video's stream, quality and subtitle URLs.
    private func stream(_ id: String, _ request: HTTPRequest, now: Int64) -> HTTPResponse {
        guard let video = catalogue.video(id) else {
            return error(404, "video_not_found", "no video '\(id)'", json: true)
        }
        let stream = carryingTokens(json(200, video.streamJSON(token: freshToken(videoID: id, now: now))))
        return stream.unlessPreconditionFails(request)
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
                return error(
                    400, "bad_limit", "limit must be a whole number in 1…\(CataloguePage.maximumLimit)", json: true)
            }
            limit = value
        }
        guard let cursor = Self.cursor(query) else {
            return error(400, "bad_cursor", "next is not a cursor this server issued", json: true)
        }
        let page = catalogue.page(after: cursor, limit: limit)
        return carryingTokens(json(200, page.json(token: { freshToken(videoID: $0, now: now) })))
    }

    /// The position `next` names: `.some(nil)` for the start, nil when `next` is not a cursor this server issued.
    private static func cursor(_ query: [String: String]) -> CatalogueCursor?? {
        guard let text = query["next"], !text.isEmpty, text != CatalogueCursor.end else { return .some(nil) }
        return CatalogueCursor(encoded: text).map { .some($0) }
    }

    /// `response` made private when URLs are signed (it holds fresh tokens then).
    private func carryingTokens(_ response: HTTPResponse) -> HTTPResponse {
        guard signer != nil else { return response }
        var response = response
        response.headers = response.headers.map {
            $0.0 == "Cache-Control" ? ($0.0, CachePolicy.carryingToken($0.1)) : $0
        }
        return response
    }

    func indexPage(query: [String: String], now: Int64) -> HTTPResponse {
        guard let cursor = Self.cursor(query) else {
            return error(400, "bad_cursor", "next is not a cursor this server issued", json: false)
        }
        let page = catalogue.page(after: cursor, limit: IndexPage.pageSize)
        let html = IndexPage.render(
            page: page, isFirst: cursor == nil, token: { freshToken(videoID: $0, now: now) })
        return carryingTokens(
            HTTPResponse(
                status: 200,
                headers: [("Content-Type", "text/html; charset=utf-8"), ("Cache-Control", CachePolicy.dynamic)],
                body: .bytes(Array(html.utf8))))
    }
}

extension HTTPResponse {
    /// This answer of the API, or 412 when it is a success and the request's `If-Match` cannot hold for it
    /// (RFC 9110 §13.2.1: preconditions only count where the answer would otherwise be 2xx).
    fileprivate func unlessPreconditionFails(_ request: HTTPRequest) -> HTTPResponse {
        guard (200..<300).contains(status),
            !Validators.preconditionsHoldWithoutValidators(ifMatch: request.header("if-match"))
        else { return self }
        return HTTPResponse(status: 412, headers: headers.filter { $0.0 == "Cache-Control" })
    }
}
