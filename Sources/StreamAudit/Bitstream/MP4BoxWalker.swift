/// Reads the few ISO BMFF boxes the audit needs from an init section and a media segment: track ids and
/// timescales of `moov`, and the track ids of every `moof`'s `traf`s.
public enum MP4BoxWalker {
    /// Tracks an init section declares: `tkhd` track id and `mdhd` timescale of each `trak`.
    public struct InitTrack: Hashable, Sendable {
        public var trackID: Int
        public var timescale: Int
    }

    /// The tracks of `moov` in an init section; empty when there is none.
    public static func initTracks(_ bytes: [UInt8]) -> [InitTrack] {
        var tracks: [InitTrack] = []
        for (type, range) in boxes(bytes, in: 0..<bytes.count) where type == "moov" {
            for (trakType, trak) in boxes(bytes, in: range) where trakType == "trak" {
                var trackID = 0, timescale = 0
                for (childType, child) in boxes(bytes, in: trak) {
                    if childType == "tkhd", child.count >= 24 {
                        let version = bytes[child.lowerBound]
                        trackID = integer(bytes, at: child.lowerBound + (version == 1 ? 20 : 12), size: 4)
                    }
                    if childType == "mdia" {
                        for (mdiaType, mdhd) in boxes(bytes, in: child) where mdiaType == "mdhd" && mdhd.count >= 24 {
                            let version = bytes[mdhd.lowerBound]
                            timescale = integer(bytes, at: mdhd.lowerBound + (version == 1 ? 20 : 12), size: 4)
                        }
                    }
                }
                tracks.append(InitTrack(trackID: trackID, timescale: timescale))
            }
        }
        return tracks
    }

    /// The track ids of the `tfhd` of every `traf` in the segment's `moof` boxes, in order.
    public static func fragmentTrackIDs(_ bytes: [UInt8]) -> [Int] {
        var ids: [Int] = []
        for (type, moof) in boxes(bytes, in: 0..<bytes.count) where type == "moof" {
            for (trafType, traf) in boxes(bytes, in: moof) where trafType == "traf" {
                for (childType, tfhd) in boxes(bytes, in: traf) where childType == "tfhd" && tfhd.count >= 8 {
                    ids.append(integer(bytes, at: tfhd.lowerBound + 4, size: 4))
                }
            }
        }
        return ids
    }

    /// True when `bytes` begins like an ISO BMFF file (a known top-level box type at offset 4).
    public static func looksLikeMP4(_ bytes: [UInt8]) -> Bool {
        guard bytes.count >= 8 else { return false }
        let type = String(decoding: bytes[4..<8], as: UTF8.self)
        return ["ftyp", "styp", "moof", "moov", "sidx", "emsg", "prft"].contains(type)
    }

    /// The child boxes in `range`: type and payload range (after the header). Size 0 runs to the end of `range`;
    /// a size smaller than its header or running past `range` (a 64-bit size near 2^63 included) ends the list.
    static func boxes(_ bytes: [UInt8], in range: Range<Int>) -> [(String, Range<Int>)] {
        var result: [(String, Range<Int>)] = []
        var offset = range.lowerBound
        while range.upperBound - offset >= 8 {
            var size = integer(bytes, at: offset, size: 4)
            var header = 8
            if size == 1, range.upperBound - offset >= 16 {
                size = integer(bytes, at: offset + 8, size: 8)  // negative past 2^63 - 1
                header = 16
            } else if size == 0 {
                size = range.upperBound - offset
            }
            guard size >= header, size <= range.upperBound - offset else { break }
            let type = String(decoding: bytes[(offset + 4)..<(offset + 8)], as: UTF8.self)
            result.append((type, (offset + header)..<(offset + size)))
            offset += size
        }
        return result
    }

    private static func integer(_ bytes: [UInt8], at offset: Int, size: Int) -> Int {
        guard offset >= 0, offset + size <= bytes.count else { return 0 }
        var value = 0
        for index in 0..<size { value = value << 8 | Int(bytes[offset + index]) }
        return value
    }
}
