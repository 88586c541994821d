/// The files of the served folder, answered in named steps: authorise (the token), open, the body (the file
/// itself, or a playlist made from it by `RequestHandler+Playlists`: directives, token, encoding), then the
/// conditions and the range (`FileRepresentation`). A step that answers the request itself ends it early.
extension RequestHandler {
    func file(_ target: FileTarget, _ request: HTTPRequest, query: [String: String], now: Int64) -> HandlerDecision {
        do throws(EarlyAnswer) {
            let token = try authorise(target, request, now: now)
            let file = try open(target)
            let kind = FileKind(path: target.name)
            guard kind == .playlist else {
                return .response(wholeFile(file, target, kind: kind, token: token).answer(to: request))
            }
            let asked = PlaylistRequest(target: target, file: file, token: token, query: query, request: request)
            guard isQuick(asked) else { return .slow(SlowAnswer { self.playlistAnswer(asked) }) }
            return .ready(playlistAnswer(asked))
        } catch {
            return .ready(error.answer)
        }
    }

    /// Authorise: with signed URLs the request must carry a valid token for the file's video (403 without a
    /// word otherwise). The token, nil when URLs are not signed.
    private func authorise(_ target: FileTarget, _ request: HTTPRequest, now: Int64) throws(EarlyAnswer) -> String? {
        guard let signer else { return nil }
        let token = request.signedToken
        guard let videoID = target.videoID, signer.isValid(token, videoID: videoID, now: now) else {
            throw EarlyAnswer(forbidden())
        }
        return token
    }

    /// Open: the regular file below the folder; a missing one is 404 or held (`missingFile`), and 503 when no
    /// descriptor is left to open it with.
    private func open(_ target: FileTarget) throws(EarlyAnswer) -> ServedFolder.File {
        switch folder.opening(target.segments) {
        case .success(let opened): return opened
        case .failure(.missing): throw EarlyAnswer(missingFile(target.key, json: target.viaAPI))
        case .failure(.outOfDescriptors): throw EarlyAnswer(outOfDescriptors(json: target.viaAPI))
        }
    }

    /// Body, for any file but a playlist: the file as it is, sent with sendfile, cached by what it is.
    private func wholeFile(_ file: ServedFolder.File, _ target: FileTarget, kind: FileKind, token: String?)
        -> FileRepresentation
    {
        FileRepresentation(
            body: .file(FileRegion(file: file.handle, offset: 0, length: file.size)), size: file.size,
            validators: file.validators, contentType: FileKind.contentType(forPath: target.name),
            cacheControl: CachePolicy.cacheControl(for: kind),
            version: ServedFileVersion(
                relativePath: target.key, stamp: file.stamp, videoID: target.videoID, token: token))
    }

    /// 503 with `Retry-After`: the file may well be there, but no descriptor was left to open it.
    func outOfDescriptors(json: Bool) -> HTTPResponse {
        error(
            503, "busy", "the server is out of file descriptors; try again", json: json,
            extra: [("Retry-After", "1")])
    }

    /// A file that is not there: held when a live playlist hints at it (it is being written), otherwise 404 —
    /// cached for a second only, since a live stream's next part is missing only until it is published.
    private func missingFile(_ key: String, json: Bool) -> HandlerAnswer {
        var notFound = error(404, "not_found", "no such file", json: json)
        if let hinting = playlists.playlistHinting(key) {
            return .hold(Hold(watchedPath: key, timeoutSeconds: hinting.holdSeconds, timeoutResponse: notFound))
        }
        notFound.headers = notFound.headers.map { $0.0 == "Cache-Control" ? ($0.0, CachePolicy.missingFile) : $0 }
        return .response(notFound)
    }
}
