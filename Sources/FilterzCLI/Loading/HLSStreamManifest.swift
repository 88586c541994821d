import CLIKit
import Foundation
import HLS
import Inspect
import Simulation

/// Builds the simulator's `StreamManifest` from an HLS stream: a multivariant playlist given as a file, as the
/// folder `filterz record` wrote (its `master.m3u8`), or as an http(s) URL (e.g. one `filterz serve` answers).
///
/// Levels are the variants in ascending BANDWIDTH (QoE counts their nominal BANDWIDTH, as the published
/// simulators count the nominal ladder). A segment's size is, in this order of preference: the length of its
/// EXT-X-BYTERANGE, the size of the local file, the HTTP `Content-Length` of a HEAD request, or
/// BANDWIDTH × EXTINF. The segment count is the shortest variant's; the segment duration the mean EXTINF of the
/// lowest variant. A ladder or a playlist beyond `SimulationLimits` is refused before anything more is loaded,
/// every media playlist is loaded before any HEAD request, no variant's segments past the shortest count are
/// asked for, and a stream that would take more than `SimulationLimits.maximumSizeRequests` HEAD requests is
/// refused before the first. A remote playlist may only name http(s) resources (`PlaylistLocation.admit`).
/// The first listed variant, the AVERAGE-BANDWIDTHs and the sizes of the first listed variant's default audio
/// rendition (counted in the HEAD requests) are kept for the `hlsjs` rule.
enum HLSStreamManifest {
    /// What the lowest variant's media playlist says of a live stream (no EXT-X-ENDLIST), read once.
    struct LiveFacts {
        /// EXT-X-PART-INF PART-TARGET; nil without parts.
        var partTargetSeconds: Double?
        /// EXT-X-SERVER-CONTROL HOLD-BACK and PART-HOLD-BACK.
        var holdBackSeconds: Double?
        var partHoldBackSeconds: Double?
        /// Segments listed, when the window slides (not an EVENT playlist).
        var windowSegments: Int?
    }

    static func load(_ argument: String, loader: ResourceLoader) throws(CLIError) -> StreamManifest {
        try loadStream(argument, loader: loader).manifest
    }

    /// The manifest, and the live facts when the stream is live.
    static func loadStream(_ argument: String, loader: ResourceLoader) throws(CLIError) -> (
        manifest: StreamManifest, live: LiveFacts?
    ) {
        var location = argument
        var isDirectory: ObjCBool = false
        if !PlaylistLocation.isHTTP(argument),
            FileManager.default.fileExists(atPath: argument, isDirectory: &isDirectory),
            isDirectory.boolValue
        {
            location = URL(fileURLWithPath: argument).appendingPathComponent("master.m3u8").path
        }
        let master = try parse(location, loader: loader)
        guard case .multivariant(let multivariant) = master else {
            throw .failure("\(location): a media playlist has no ladder to choose from; give the master playlist")
        }
        var variants: [Variant] = []
        for variant in multivariant.variants.sorted(by: { $0.bandwidth < $1.bandwidth })
        where variants.last?.bandwidth != variant.bandwidth && variant.bandwidth > 0 {
            variants.append(variant)
        }
        guard !variants.isEmpty else { throw .failure("\(location): no variant with a BANDWIDTH") }
        guard variants.count <= SimulationLimits.maximumLevels else {
            throw .failure(
                "\(location): \(variants.count) levels; a ladder has at most \(SimulationLimits.maximumLevels)")
        }

        // Every media playlist first, so that the segment count (the shortest variant's) and the number of HEAD
        // requests are known before any is made.
        var medias: [(location: String, playlist: MediaPlaylist)] = []
        for variant in variants {
            let mediaLocation = URIReference.resolve(variant.uri, against: location)
            guard case .media(let media) = try parse(mediaLocation, namedBy: location, loader: loader) else {
                throw .failure("\(mediaLocation): expected a media playlist")
            }
            guard !media.segments.isEmpty else { throw .failure("\(mediaLocation): has no segments") }
            guard media.segments.count <= SimulationLimits.maximumSegments else {
                throw .failure(
                    "\(mediaLocation): \(media.segments.count) segments; a stream has at most "
                        + "\(SimulationLimits.maximumSegments)")
            }
            medias.append((mediaLocation, media))
        }
        let shortest = medias.map(\.playlist.segments.count).min() ?? 0
        let audio = try audioPlaylist(multivariant, location: location, loader: loader)
        // Where each segment's size must be measured: a byte range gives it, so only the others.
        let measuredLocations = (medias + (audio.map { [$0] } ?? [])).map { media in
            media.playlist.segments.prefix(shortest).map {
                $0.byteRange == nil ? URIReference.resolve($0.uri, against: media.location) : nil
            }
        }
        let heads = measuredLocations.joined().filter { $0.map(PlaylistLocation.isHTTP) == true }.count
        guard heads <= SimulationLimits.maximumSizeRequests else {
            throw .failure(
                "\(location): measuring \(variants.count) levels × \(shortest) segments takes \(heads) HEAD requests; "
                    + "a stream is measured with at most \(SimulationLimits.maximumSizeRequests)")
        }

        var sizesByLevel: [[Double]] = []
        var durations: [Double] = []
        for (level, (variant, media)) in zip(variants, medias).enumerated() {
            let segments = media.playlist.segments.prefix(shortest)
            if level == 0 { durations = segments.map(\.duration) }
            let measured = try sizes(of: measuredLocations[level], namedBy: media.location, loader: loader)
            sizesByLevel.append(
                zip(segments, measured).map { segment, size in
                    let bytes =
                        segment.byteRange.map { Double($0.length) } ?? size
                        ?? Double(variant.bandwidth) / 8 * segment.duration
                    return bytes * 8
                })
        }
        // The audio rendition's sizes, when every one is known (else the sessions load no audio).
        var audioBits: [Double] = []
        if let audio {
            let measured = try sizes(of: measuredLocations[medias.count], namedBy: audio.location, loader: loader)
            let bytes = zip(audio.playlist.segments, measured).map { $0.byteRange.map { Double($0.length) } ?? $1 }
            if !bytes.contains(nil) { audioBits = bytes.map { $0! * 8 } }
        }
        let count = sizesByLevel.map(\.count).min() ?? 0
        let meanDuration = durations.prefix(count).reduce(0, +) / Double(max(count, 1))
        var live: LiveFacts?
        if let lowest = medias.first?.playlist, !lowest.endList {
            live = LiveFacts(
                partTargetSeconds: lowest.partInf?.partTarget, holdBackSeconds: lowest.serverControl?.holdBack,
                partHoldBackSeconds: lowest.serverControl?.partHoldBack,
                windowSegments: lowest.playlistType == .event ? nil : lowest.segments.count)
        }
        do {
            var manifest = try StreamManifest(
                segmentDurationMilliseconds: meanDuration * 1000,
                bitratesKilobitsPerSecond: variants.map { Double($0.bandwidth) / 1000 },
                segmentSizesBits: (0..<count).map { k in sizesByLevel.map { $0[k] } },
                resolutions: variants.map { $0.resolution.map { (width: $0.width, height: $0.height) } })
            let first = multivariant.variants.first { $0.bandwidth > 0 }?.bandwidth
            manifest.firstListedLevel = variants.firstIndex { $0.bandwidth == first } ?? 0
            manifest.audioSegmentSizesBits = audioBits
            manifest.averageBitratesKilobitsPerSecond = variants.map { $0.averageBandwidth.map { Double($0) / 1000 } }
            return (manifest, live)
        } catch {
            throw .failure("\(location): \(error.description)")
        }
    }

    /// The audio rendition the variant listed first plays (the DEFAULT=YES one of its AUDIO group, else the
    /// first with a URI), as hls.js picks it; nil when it has none.
    private static func audioPlaylist(_ multivariant: MultivariantPlaylist, location: String, loader: ResourceLoader)
        throws(CLIError) -> (location: String, playlist: MediaPlaylist)?
    {
        guard let group = multivariant.variants.first?.audio else { return nil }
        let renditions = multivariant.renditions.filter { $0.type == .audio && $0.groupID == group && $0.uri != nil }
        guard let uri = (renditions.first { $0.isDefault } ?? renditions.first)?.uri else { return nil }
        let audioLocation = URIReference.resolve(uri, against: location)
        guard case .media(let media) = try parse(audioLocation, namedBy: location, loader: loader) else {
            throw .failure("\(audioLocation): expected a media playlist")
        }
        guard media.segments.count <= SimulationLimits.maximumSegments else {
            throw .failure(
                "\(audioLocation): \(media.segments.count) segments; a stream has at most "
                    + "\(SimulationLimits.maximumSegments)")
        }
        return (audioLocation, media)
    }

    /// The playlist at `location`: the user's (`playlist` nil) or one that `playlist` names.
    private static func parse(_ location: String, namedBy playlist: String? = nil, loader: ResourceLoader)
        throws(CLIError) -> Playlist
    {
        let bytes: [UInt8]
        if let playlist {
            bytes = try loader.load(location, namedBy: playlist)
        } else {
            bytes = try loader.load(location, readStandardInput: { _ in [] })
        }
        let result = HLS.parse(bytes, options: ParseOptions(playlistURI: location))
        guard let playlist = result.playlist else {
            let first = result.diagnostics.first { $0.severity == .error }
            throw .failure("\(location): not a playlist\(first.map { " (\($0.message))" } ?? "")")
        }
        return playlist
    }

    /// Bytes of each segment file or URL the playlist at `playlist` names (nil where the location is nil or the
    /// size unknown).
    private static func sizes(of locations: [String?], namedBy playlist: String, loader: ResourceLoader)
        throws(CLIError) -> [Double?]
    {
        let named = locations.indices.filter { locations[$0] != nil }
        let sizes = try loader.sizes(of: named.map { locations[$0]! }, namedBy: playlist)
        var result = [Double?](repeating: nil, count: locations.count)
        for (index, size) in zip(named, sizes) { result[index] = size.map(Double.init) }
        return result
    }
}
