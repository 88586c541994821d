import HLS

/// Adds `token=` to every URI inside a playlist that leads back into the same video on this server (variants,
/// I-frame variants, renditions, session data and keys, content steering, segments, keys, maps, parts, preload
/// hints, rendition reports; a key URI also when it leads to the video's key route `/v1/videos/{id}/keys/…`),
/// so a player that was given one signed URL can fetch everything of that video and nothing else. Whether a URI stays is decided as browsers resolve it (`SameVideoReference`): a URI that leads
/// to another host or another video keeps no token, since the token is ours to give; so does a URI holding a
/// variable reference the playlist cannot resolve itself. Parsed and written back
/// with the `HLS` module, so untouched lines stay byte for byte.
///
///     TokenRewriter.appendingToken("9.ab", to: Array("#EXTM3U\n#EXTINF:4,\nseg_0.ts\n".utf8),
///                                  directory: ["a", "v0"], root: ["a"])
///     // "#EXTM3U\n#EXTINF:4,\nseg_0.ts?token=9.ab\n"
public enum TokenRewriter {
    /// - Parameters:
    ///   - directory: the decoded path segments of the folder the playlist is served from.
    ///   - root: the decoded path segments of the video's root folder.
    public static func appendingToken(_ token: String, to bytes: [UInt8], directory: [String], root: [String])
        -> [UInt8]
    {
        let suffix = "token=" + CatalogueURLs.encodeSegment(token)
        func sign(_ uri: String, within roots: [[String]]) -> String {
            // A variable reference left unresolved (IMPORT or QUERYPARAM: its value comes from elsewhere) may
            // turn into any host once the player substitutes it, so such a URI keeps no token.
            guard !uri.isEmpty, !uri.contains("{$"),
                roots.contains(where: { SameVideoReference.staysWithin(uri, directory: directory, root: $0) })
            else { return uri }
            if let hash = uri.firstIndex(of: "#") {
                return sign(String(uri[..<hash]), within: roots) + uri[hash...]
            }
            return uri + (uri.contains("?") ? "&" : "?") + suffix
        }
        func sign(_ uri: String) -> String { sign(uri, within: [root]) }
        func sign(_ uri: String?) -> String? { uri.map { sign($0) } }
        // A key URI may also lead to the video's key route, /v1/videos/{id}/keys/…, wherever the playlist is
        // served from (keys live outside the video's folder).
        let keyRoots = [root] + (root.last.map { [["v1", "videos", $0, "keys"]] } ?? [])
        func signKey(_ uri: String?) -> String? { uri.map { sign($0, within: keyRoots) } }

        switch HLS.parse(bytes).playlist {
        case .multivariant(var playlist):
            for index in playlist.variants.indices { playlist.variants[index].uri = sign(playlist.variants[index].uri) }
            for index in playlist.iFrameVariants.indices {
                playlist.iFrameVariants[index].uri = sign(playlist.iFrameVariants[index].uri)
            }
            for index in playlist.renditions.indices {
                playlist.renditions[index].uri = sign(playlist.renditions[index].uri)
            }
            for index in playlist.sessionData.indices {
                playlist.sessionData[index].uri = sign(playlist.sessionData[index].uri)
            }
            for index in playlist.sessionKeys.indices {
                playlist.sessionKeys[index].uri = signKey(playlist.sessionKeys[index].uri)
            }
            if let steering = playlist.contentSteering {
                playlist.contentSteering?.serverURI = sign(steering.serverURI)
            }
            return PlaylistWriter().writeBytes(.multivariant(playlist))
        case .media(var playlist):
            func signSegment(_ segment: inout Segment) {
                segment.uri = sign(segment.uri)
                for index in segment.keys.indices { segment.keys[index].uri = signKey(segment.keys[index].uri) }
                if let map = segment.map { segment.map?.uri = sign(map.uri) }
                for index in segment.parts.indices { segment.parts[index].uri = sign(segment.parts[index].uri) }
            }
            for index in playlist.segments.indices { signSegment(&playlist.segments[index]) }
            if var incomplete = playlist.incompleteSegment {
                signSegment(&incomplete)
                playlist.incompleteSegment = incomplete
            }
            for index in playlist.preloadHints.indices {
                playlist.preloadHints[index].uri = sign(playlist.preloadHints[index].uri)
            }
            for index in playlist.renditionReports.indices {
                playlist.renditionReports[index].uri = sign(playlist.renditionReports[index].uri)
            }
            return PlaylistWriter().writeBytes(.media(playlist))
        case nil:
            return bytes
        }
    }
}
