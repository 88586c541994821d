/// Reads the few ISO BMFF boxes the audit needs from an init section and a media segment: track ids and
/// timescales of `moov`, the track ids of every `moof`'s `traf`s, and the timing of their samples.
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

    /// One sample of a fragment (`trun` entry), in its track's timescale.
    public struct FragmentSample: Hashable, Sendable {
        public var trackID: Int
        /// `tfdt` plus the durations of the samples before it in its `traf`.
        public var decodingTime: Int64
        /// The composition offset: unsigned in `trun` version 0, signed in version 1 (CMAF's negative offsets).
        public var compositionOffset: Int64
        public var duration: Int64
        public var presentationTime: Int64 { decodingTime &+ compositionOffset }
    }

    /// Every sample of the segment's `moof` boxes, in order: track from `tfhd`, decoding time from `tfdt` (a
    /// `traf` without one continues its track), durations from `trun` or the `tfhd` default, composition
    /// offsets read as `trun`'s version says.
    public static func fragmentSamples(_ bytes: [UInt8]) -> [FragmentSample] {
        var samples: [FragmentSample] = []
        var nextDecodingTime: [Int: Int64] = [:]
        for (type, moof) in boxes(bytes, in: 0..<bytes.count) where type == "moof" {
            for (trafType, traf) in boxes(bytes, in: moof) where trafType == "traf" {
                let children = boxes(bytes, in: traf)
                guard let tfhd = children.first(where: { $0.0 == "tfhd" })?.1, tfhd.count >= 8 else { continue }
                let trackID = integer(bytes, at: tfhd.lowerBound + 4, size: 4)
                let tfhdFlags = integer(bytes, at: tfhd.lowerBound + 1, size: 3)
                // base-data-offset (0x01) and sample-description-index (0x02) come before the default duration.
                let defaultDurationAt =
                    tfhd.lowerBound + 8 + (tfhdFlags & 0x01 != 0 ? 8 : 0) + (tfhdFlags & 0x02 != 0 ? 4 : 0)
                let defaultDuration = tfhdFlags & 0x08 != 0 ? integer(bytes, at: defaultDurationAt, size: 4) : 0
                var time = nextDecodingTime[trackID] ?? 0
                if let tfdt = children.first(where: { $0.0 == "tfdt" })?.1, tfdt.count >= 8 {
                    time = Int64(integer(bytes, at: tfdt.lowerBound + 4, size: bytes[tfdt.lowerBound] == 1 ? 8 : 4))
                }
                for (childType, trun) in children where childType == "trun" && trun.count >= 8 {
                    let version = bytes[trun.lowerBound]
                    let flags = integer(bytes, at: trun.lowerBound + 1, size: 3)
                    let count = integer(bytes, at: trun.lowerBound + 4, size: 4)
                    let fields = [0x100, 0x200, 0x400, 0x800].filter { flags & $0 != 0 }.count
                    var cursor = trun.lowerBound + 8 + (flags & 0x001 != 0 ? 4 : 0) + (flags & 0x004 != 0 ? 4 : 0)
                    // Never more entries than the box holds, nor (without per-sample fields) more samples than
                    // the segment has bytes: the count is read from the file.
                    let room = fields == 0 ? bytes.count : max(0, (trun.upperBound - cursor) / (4 * fields))
                    let fit = min(count, room)
                    for _ in 0..<fit {
                        var duration = Int64(defaultDuration), offset: Int64 = 0
                        if flags & 0x100 != 0 {
                            duration = Int64(integer(bytes, at: cursor, size: 4))
                            cursor += 4
                        }
                        if flags & 0x200 != 0 { cursor += 4 }
                        if flags & 0x400 != 0 { cursor += 4 }
                        if flags & 0x800 != 0 {
                            let raw = UInt32(truncatingIfNeeded: integer(bytes, at: cursor, size: 4))
                            offset = version == 0 ? Int64(raw) : Int64(Int32(bitPattern: raw))
                            cursor += 4
                        }
                        samples.append(
                            FragmentSample(
                                trackID: trackID, decodingTime: time, compositionOffset: offset, duration: duration))
                        time &+= duration
                    }
                }
                nextDecodingTime[trackID] = time
            }
        }
        return samples
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
