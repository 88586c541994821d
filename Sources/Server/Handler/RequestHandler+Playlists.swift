import HLS

/// The body of a playlist answer, in steps: directives (as stored, held for a blocking reload, or as a delta
/// update, RFC 8216bis §6.2.5, with the cache rule that goes with it, Appendix B.1), token (the viewer's token on
/// every URI that stays in the video), encoding (gzip).
extension RequestHandler {
    /// A playlist about to be answered: the request, the file opened for it and the token it carries.
    struct PlaylistRequest: Sendable {
        var target: FileTarget
        var file: ServedFolder.File
        var token: String?
        var query: [String: String]
        var request: HTTPRequest

        /// The client takes gzip and asks for no range.
        var wantsGzip: Bool {
            AcceptEncoding.allowsGzip(request.header("accept-encoding")) && request.header("range") == nil
        }
    }

    /// A playlist body: `bytes` nil for the stored bytes; `variant` names a derived body (for its ETag).
    struct PlaylistBody {
        var bytes: [UInt8]?
        var variant: String?
        var cacheControl: String
    }

    /// True when the answer is quick to make: the playlist is at most `inlinePlaylistBytes`, or it is parsed
    /// already and the body asked for is kept (no token to add, no delta, its compressed form kept when the client
    /// takes gzip). Parsing, rewriting, compressing or deriving a delta of a large playlist takes milliseconds.
    func isQuick(_ asked: PlaylistRequest) -> Bool {
        guard asked.file.size > Self.inlinePlaylistBytes else { return true }
        let key = asked.target.key
        return asked.token == nil && asked.query["_HLS_skip"] == nil && playlists.holds(asked.file, key: key)
            && (!asked.wantsGzip || playlists.playlist(asked.file, key: key).holdsVariant("gzip"))
    }

    /// The answer to a playlist request: its body (directives, token, encoding), then its conditions and range.
    func playlistAnswer(_ asked: PlaylistRequest) -> HandlerAnswer {
        do throws(EarlyAnswer) {
            return .response(try playlist(asked).answer(to: asked.request))
        } catch {
            return error.answer
        }
    }

    /// The whole answer a playlist request gets before its conditions and range: directives, token, encoding.
    func playlist(_ asked: PlaylistRequest) throws(EarlyAnswer) -> FileRepresentation {
        let file = asked.file
        let entry = playlists.playlist(file, key: asked.target.key)
        var body = try directives(entry, asked)
        let tokenBody = asked.token.map { signing(&body, entry, asked, token: $0) }
        let isGzipped = asked.wantsGzip && compressing(&body, entry, tokenBody: tokenBody)
        var validators = file.validators
        if let token = asked.token { validators = validators.variant(token) }
        if let variant = body.variant { validators = validators.variant(variant) }
        if isGzipped { validators = validators.variant("gzip") }
        let sent: HTTPResponse.Body
        var size = file.size
        if let bytes = body.bytes {
            sent = .bytes(bytes)
            size = Int64(bytes.count)
        } else if entry.bytes.count == file.size {
            // Already in memory: one write with the headers beats a sendfile of a few kilobytes.
            sent = .bytes(entry.bytes)
        } else {
            sent = .file(FileRegion(file: file.handle, offset: 0, length: file.size))
        }
        return FileRepresentation(
            body: sent, size: size, validators: validators,
            contentType: FileKind.contentType(forPath: asked.target.name),
            cacheControl: body.cacheControl, variesByEncoding: true, isGzipped: isGzipped,
            version: ServedFileVersion(
                relativePath: asked.target.key, stamp: file.stamp, videoID: asked.target.videoID, token: asked.token))
    }

    /// Directives: the delivery directives of a low-latency playlist (`_HLS_msn`, `_HLS_part`, `_HLS_skip`) decide
    /// between the stored body, a hold until the part asked for is published, a delta update, or 400.
    private func directives(_ entry: PlaylistLibrary.Entry, _ asked: PlaylistRequest) throws(EarlyAnswer)
        -> PlaylistBody
    {
        let plain = PlaylistBody(cacheControl: CachePolicy.cacheControl(for: .playlist, playlist: entry.facts))
        guard let live = entry.lowLatency else { return plain }
        let directives: DeliveryDirectives
        switch DeliveryDirectives.parse(asked.query) {
        case .success(let parsed): directives = parsed
        case .failure(let refusal): throw EarlyAnswer(badDirective(refusal, asked))
        }
        if directives.isEmpty { return plain }
        switch BlockingReload.decide(directives, live.position) {
        case .refuse(let refusal):
            throw EarlyAnswer(badDirective(refusal, asked))
        case .wait:
            let unavailable = error(
                503, "part_not_available", "the requested part did not appear within three target durations",
                json: false, extra: [("Retry-After", "1")])
            throw EarlyAnswer(
                .hold(
                    Hold(watchedPath: asked.target.key, timeoutSeconds: live.holdSeconds, timeoutResponse: unavailable))
            )
        case .answer:
            break
        }
        var body = plain
        if directives.mediaSequence != nil && live.position.canBlockReload {
            // The same blocking request always gets the same version: it may be cached as long as it is useful.
            body.cacheControl = CachePolicy.blockingPlaylist(targetDurationSeconds: live.position.targetDurationSeconds)
        }
        if let skip = directives.skip {
            let name = "delta-" + skip.rawValue
            if let delta = entry.variant(
                name, { DeltaUpdate.apply(skip, to: live.playlist).map { PlaylistWriter().writeBytes(.media($0)) } })
            {
                body.bytes = delta
                body.variant = name
            }
        }
        return body
    }

    private func badDirective(_ refusal: RequestRefusal, _ asked: PlaylistRequest) -> HTTPResponse {
        error(refusal.status, "bad_directive", refusal.reason, json: asked.target.viaAPI)
    }

    /// Token: `token` added to every URI of the body that stays in the video (`TokenRewriter`), kept for the
    /// token's next requests (`TokenBodies`), and private to its viewer. The key it is kept under.
    private func signing(
        _ body: inout PlaylistBody, _ entry: PlaylistLibrary.Entry, _ asked: PlaylistRequest, token: String
    ) -> TokenBodies.Key {
        let root = asked.target.videoRoot ?? []
        let form = root.joined(separator: "/") + " " + (body.variant ?? "")
        let key = TokenBodies.Key(path: asked.target.key, stamp: asked.file.stamp, token: token, form: form)
        let plain = body.bytes ?? entry.bytes
        body.bytes = playlists.tokenBodies.body(key) {
            entry.appendingToken(
                token, to: plain, directory: root + asked.target.segments.dropFirst().dropLast(), root: root)
        }
        body.cacheControl = CachePolicy.carryingToken(body.cacheControl)
        return key
    }

    /// Encoding: the body gzip-compressed, kept with the version (or with the token's body) for the next client
    /// that takes gzip. False when it could not be compressed.
    private func compressing(_ body: inout PlaylistBody, _ entry: PlaylistLibrary.Entry, tokenBody: TokenBodies.Key?)
        -> Bool
    {
        let plain = body.bytes ?? entry.bytes
        let gzipped: [UInt8]?
        if var key = tokenBody {
            key.form += " gzip"
            gzipped = playlists.tokenBodies.body(key) { Gzip.compress(plain) }
        } else {
            gzipped = entry.variant("gzip" + (body.variant ?? "")) { Gzip.compress(plain) }
        }
        guard let gzipped else { return false }
        body.bytes = gzipped
        return true
    }
}
