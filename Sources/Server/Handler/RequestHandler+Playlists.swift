import HLS

/// The body of a playlist answer: as stored, or held for a blocking reload, or as a delta update (RFC 8216bis
/// §6.2.5), with the cache rule that goes with it (Appendix B.1).
extension RequestHandler {
    /// A playlist body: `bytes` nil for the stored bytes; `variant` names a derived body (for its ETag).
    struct PlaylistBody {
        var bytes: [UInt8]?
        var variant: String?
        var cacheControl: String
    }

    enum PlaylistOutcome {
        case body(PlaylistBody)
        case hold(Hold)
    }

    func playlistBody(
        _ entry: PlaylistLibrary.Entry, file: ServedFolder.File, key: String, query: [String: String],
        request: HTTPRequest
    ) -> Result<PlaylistOutcome, RequestRefusal> {
        let plain = PlaylistBody(cacheControl: CachePolicy.cacheControl(for: .playlist, playlist: entry.facts))
        guard let live = entry.lowLatency else { return .success(.body(plain)) }
        let directives: DeliveryDirectives
        switch DeliveryDirectives.parse(query) {
        case .success(let parsed): directives = parsed
        case .failure(let refusal): return .failure(refusal)
        }
        if directives.isEmpty { return .success(.body(plain)) }
        switch BlockingReload.decide(directives, live.position) {
        case .refuse(let refusal):
            return .failure(refusal)
        case .wait:
            let unavailable = error(
                503, "part_not_available", "the requested part did not appear within three target durations",
                json: false, extra: [("Retry-After", "1")])
            return .success(
                .hold(Hold(watchedPath: key, timeoutSeconds: live.holdSeconds, timeoutResponse: unavailable)))
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
        return .success(.body(body))
    }
}
