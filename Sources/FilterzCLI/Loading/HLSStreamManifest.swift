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
/// and no variant's segments past the shortest count so far are asked for.
enum HLSStreamManifest {
    static func load(_ argument: String, loader: ResourceLoader) throws(CLIError) -> StreamManifest {
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

        var sizesByLevel: [[Double]] = []
        var durations: [Double] = []
        for (level, variant) in variants.enumerated() {
            let mediaLocation = URIReference.resolve(variant.uri, against: location)
            guard case .media(let media) = try parse(mediaLocation, loader: loader) else {
                throw .failure("\(mediaLocation): expected a media playlist")
            }
            guard !media.segments.isEmpty else { throw .failure("\(mediaLocation): has no segments") }
            guard media.segments.count <= SimulationLimits.maximumSegments else {
                throw .failure(
                    "\(mediaLocation): \(media.segments.count) segments; a stream has at most "
                        + "\(SimulationLimits.maximumSegments)")
            }
            let segments = media.segments.prefix(sizesByLevel.map(\.count).min() ?? media.segments.count)
            if level == 0 { durations = segments.map(\.duration) }
            let measured = sizes(
                of: segments.map { $0.byteRange == nil ? URIReference.resolve($0.uri, against: mediaLocation) : nil },
                loader: loader)
            sizesByLevel.append(
                zip(segments, measured).map { segment, size in
                    let bytes =
                        segment.byteRange.map { Double($0.length) } ?? size
                        ?? Double(variant.bandwidth) / 8 * segment.duration
                    return bytes * 8
                })
        }
        let count = sizesByLevel.map(\.count).min() ?? 0
        let meanDuration = durations.prefix(count).reduce(0, +) / Double(max(count, 1))
        do {
            return try StreamManifest(
                segmentDurationMilliseconds: meanDuration * 1000,
                bitratesKilobitsPerSecond: variants.map { Double($0.bandwidth) / 1000 },
                segmentSizesBits: (0..<count).map { k in sizesByLevel.map { $0[k] } },
                resolutions: variants.map { $0.resolution.map { (width: $0.width, height: $0.height) } })
        } catch {
            throw .failure("\(location): \(error.description)")
        }
    }

    private static func parse(_ location: String, loader: ResourceLoader) throws(CLIError) -> Playlist {
        let bytes = try loader.load(location, readStandardInput: { _ in [] })
        let result = HLS.parse(bytes, options: ParseOptions(playlistURI: location))
        guard let playlist = result.playlist else {
            let first = result.diagnostics.first { $0.severity == .error }
            throw .failure("\(location): not a playlist\(first.map { " (\($0.message))" } ?? "")")
        }
        return playlist
    }

    /// Bytes of each segment file or URL (nil where the location is nil or the size unknown). URLs are asked
    /// with HEAD requests, a few at a time.
    private static func sizes(of locations: [String?], loader: ResourceLoader) -> [Double?] {
        let remote = locations.indices.filter { locations[$0].map(PlaylistLocation.isHTTP) == true }
        let lengths = loader.contentLengths(remote.map { locations[$0]! })
        var result = locations.map { location -> Double? in
            guard let location, !PlaylistLocation.isHTTP(location) else { return nil }
            let attributes = try? FileManager.default.attributesOfItem(atPath: location)
            return (attributes?[.size] as? NSNumber).map { $0.doubleValue }
        }
        for (index, length) in zip(remote, lengths) { result[index] = length.map(Double.init) }
        return result
    }
}
