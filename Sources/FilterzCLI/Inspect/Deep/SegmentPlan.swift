import CLIKit
import HLS
import Inspect

/// Which segments of a playlist `--deep` loads, and where each one's bytes are.
struct SegmentPlan: Sendable {
    /// One segment to load: its playlist and position, the resolved location and byte range, and the init
    /// section and key in effect. Every location is as resolved against the playlist's (`namedBy`), which the
    /// loader needs to apply its rule (``PlaylistLocation/admit(_:namedBy:)``).
    struct Item: Sendable {
        var playlist: Int
        var segment: Int
        var location: String
        var namedBy: String
        var range: (offset: Int, length: Int)?
        var initSection: SourceKey?
        var key: KeyReference?
        var isSubtitle: Bool
    }

    /// A resource (init section or key) loaded once for every segment that names it.
    struct SourceKey: Hashable, Sendable {
        var location: String
        var namedBy: String
        var offset: Int?
        var length: Int?
    }

    /// An AES-128 or SAMPLE-AES key: where to fetch it and the IV to use for the segment.
    struct KeyReference: Sendable {
        var method: String
        var source: SourceKey
        var iv: [UInt8]
    }

    /// `count` indices spread evenly over `total` (always the first and the last), or all when nil.
    static func sampledIndices(total: Int, count: Int?) -> [Int] {
        guard let count, count < total else { return Array(0..<total) }
        guard count > 1 else { return total > 0 ? [0] : [] }
        var result: [Int] = []
        for step in 0..<count {
            let index = (step * (total - 1) + (count - 1) / 2) / (count - 1)
            if result.last != index { result.append(index) }
        }
        return result
    }

    /// The items of one playlist (at `location`), segments chosen by `sampledIndices`.
    static func items(
        playlistIndex: Int, playlist: MediaPlaylist, location: String, isSubtitle: Bool, count: Int?
    ) -> [Item] {
        // Byte ranges without an offset continue where the previous range of the same resource ended.
        var offsets: [Int?] = []
        var previousEnd: [String: Int] = [:]
        for segment in playlist.segments {
            guard let range = segment.byteRange else {
                offsets.append(nil)
                continue
            }
            let offset = range.offset ?? previousEnd[segment.uri] ?? 0
            offsets.append(offset)
            // Past Int.max: a range the loader refuses, like every range past the resource.
            let (end, overflow) = offset.addingReportingOverflow(range.length)
            previousEnd[segment.uri] = overflow ? .max : end
        }
        let mediaSequence = playlist.firstMediaSequenceNumber
        return sampledIndices(total: playlist.segments.count, count: count).compactMap { index in
            let segment = playlist.segments[index]
            guard !segment.gap else { return nil }
            var item = Item(
                playlist: playlistIndex, segment: index, location: URIReference.resolve(segment.uri, against: location),
                namedBy: location,
                range: segment.byteRange.map { (offsets[index] ?? 0, $0.length) },
                isSubtitle: isSubtitle)
            if let map = playlist.map(inEffectAt: index) {
                item.initSection = SourceKey(
                    location: URIReference.resolve(map.uri, against: location), namedBy: location,
                    offset: map.byteRange.map { $0.offset ?? 0 }, length: map.byteRange?.length)
            }
            if let key = playlist.keys(inEffectAt: index).first(where: { $0.method != .none }), let uri = key.uri {
                item.key = KeyReference(
                    method: key.method.rawValue,
                    source: SourceKey(location: URIReference.resolve(uri, against: location), namedBy: location),
                    iv: key.iv.map { Self.padded($0.bytes) }
                        ?? Self.sequenceIV(UInt64(max(0, mediaSequence)) + UInt64(index)))
            }
            return item
        }
    }

    /// A short IV as the 128-bit integer it names (zeros on the left); a long one is left as is for the cipher to refuse.
    static func padded(_ iv: [UInt8]) -> [UInt8] {
        iv.count < 16 ? [UInt8](repeating: 0, count: 16 - iv.count) + iv : iv
    }

    /// RFC 8216bis §5.2: without an IV attribute, the media sequence number (0 to 2^64 − 1) as a 128-bit
    /// big-endian integer.
    static func sequenceIV(_ number: UInt64) -> [UInt8] {
        var iv = [UInt8](repeating: 0, count: 16)
        var value = number
        for index in stride(from: 15, through: 8, by: -1) {
            iv[index] = UInt8(value & 0xFF)
            value >>= 8
        }
        return iv
    }
}
