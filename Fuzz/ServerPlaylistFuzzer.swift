// libFuzzer entry point for the server's playlist path: what `filterz serve` makes of a playlist file and of the
// query a player sends with it (RFC 8216bis §6.2.5), plus the numbers of the file it is served from.
//
// Not part of Package.swift: `scripts/fuzz.sh server-playlist` compiles this file together with the pure files of
// Sources/Server (playlists, LL-HLS, cache rules, dates, validators, ranges, token rewriting) as one module, with
// JSON and HLS as libraries, so the server's internal names are visible without `Server.`.
//
// Input: a playlist, optionally after a first line holding a query
// (`?_HLS_msn=7&_HLS_part=2&_HLS_skip=YES&range=bytes=0-9&mtime=-5&size=99&since=…&ifrange=…`), so that
// playlists seed it as they are. Every call below promises "never traps" for any bytes.

import HLS

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzServerPlaylist(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    let bytes = size > 0 && data != nil ? Array(UnsafeBufferPointer(start: data, count: size)) : []
    var queryLine = ""
    var playlistBytes = bytes
    if bytes.first == UInt8(ascii: "?") {
        let newline = bytes.firstIndex(of: 0x0A) ?? bytes.count
        queryLine = String(decoding: bytes[1..<newline], as: UTF8.self)
        playlistBytes = Array(bytes[min(newline + 1, bytes.count)...])
    }
    var query: [String: String] = [:]
    for pair in queryLine.split(separator: "&") {
        let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
        query[String(parts[0])] = parts.count > 1 ? String(parts[1]) : ""
    }

    // What the cache rule and the nginx configuration read of any playlist.
    let facts = PlaylistFacts(parsing: playlistBytes)
    _ = CachePolicy.cacheControl(for: .playlist, playlist: facts)

    // Low-latency serving: the position, blocking-reload decisions for the query's directives and for directives
    // around the live edge, holds, cache lifetimes, delta updates and the hinted parts.
    if let media = HLS.parse(playlistBytes).playlist?.media {
        _ = media.furthestMediaSequenceNumber
        if let live = LowLatencyPlaylist(media, key: "v/a/index.m3u8") {
            let position = live.position
            var asked: [DeliveryDirectives] = []
            if case .success(let directives) = DeliveryDirectives.parse(query) { asked.append(directives) }
            let offset = queryLine.utf8.count
            asked.append(
                DeliveryDirectives(
                    mediaSequence: max(0, position.lastCompleteSequence + offset % 5 - 1), part: offset / 5 % 9))
            asked.append(DeliveryDirectives(mediaSequence: max(0, position.sequenceInProgress)))
            for directives in asked { _ = BlockingReload.decide(directives, position) }
            _ = position.advancePartLimit
            _ = position.partsPerSegment
            _ = CachePolicy.blockingPlaylist(targetDurationSeconds: position.targetDurationSeconds)
            let hold = Hold(
                watchedPath: "v/a/index.m3u8", timeoutSeconds: live.holdSeconds,
                timeoutResponse: HTTPResponse(status: 503))
            _ = hold.timeoutMilliseconds
            for skip in [DeliveryDirectives.Skip.segments, .segmentsAndDateRanges] {
                if let delta = DeltaUpdate.apply(skip, to: live.playlist) {
                    _ = HLS.parse(PlaylistWriter().writeBytes(.media(delta)))
                }
            }
            _ = live.hintedParts
        }
    }

    // Signed serving: the playlist rewritten with a viewer's token, through the bounded cache of such bodies.
    let bodies = TokenBodies()
    let stamp = FileStamp(inode: 1, size: Int64(playlistBytes.count), modifiedSeconds: 0, modifiedNanoseconds: 0)
    for root in [["v"], ["v1", "videos", "v"]] {
        let key = TokenBodies.Key(path: "v/a/index.m3u8", stamp: stamp, token: "1767225600.ab", form: root[0])
        _ = bodies.body(key) {
            TokenRewriter.appendingToken("1767225600.ab", to: playlistBytes, directory: root + ["a"], root: root)
        }
    }

    // The numbers of the file itself: its modification time in dates and validators, its size in ranges.
    let mtime = query["mtime"].flatMap { Int64($0) } ?? Int64(truncatingIfNeeded: playlistBytes.count &* 7_919)
    let fileSize = max(0, query["size"].flatMap { Int64($0) } ?? Int64(playlistBytes.count))
    let validators = Validators(size: fileSize, modifiedSeconds: mtime, modifiedNanoseconds: 0)
    _ = HTTPDate.format(mtime)
    _ = HTTPDate.parse(HTTPDate.format(mtime))
    _ = validators.lastModified
    _ = validators.isNotModified(ifNoneMatch: nil, ifModifiedSince: query["since"] ?? "")
    _ = validators.allowsRange(ifRange: query["ifrange"])
    let range = ByteRangeAnswer(rangeHeader: query["range"], size: fileSize)
    _ = range.contentRange(size: fileSize)
    return 0
}
