/// Reads just enough of an fMP4 fragment (`moof` + `mdat`) to find where its first sample ends, for
/// I-frame playlist byte ranges. Pure byte parsing, no libav.
enum MP4FragmentLayout {
    /// Byte offset just past the first sample of the fragment, or nil if the boxes cannot be read.
    static func endOfFirstSample(in bytes: [UInt8]) -> Int? {
        guard let moof = box("moof", in: bytes, range: 0..<bytes.count),
            let mdat = box("mdat", in: bytes, range: 0..<bytes.count),
            let traf = box("traf", in: bytes, range: moof.payload)
        else { return nil }
        var defaultSize: Int?
        if let tfhd = box("tfhd", in: bytes, range: traf.payload) {
            var cursor = tfhd.payload.lowerBound
            let flags = readUInt32(bytes, cursor) & 0xFF_FFFF
            cursor += 8  // version/flags, track_ID
            if flags & 0x01 != 0 { cursor += 8 }
            if flags & 0x02 != 0 { cursor += 4 }
            if flags & 0x08 != 0 { cursor += 4 }
            if flags & 0x10 != 0, cursor + 4 <= tfhd.payload.upperBound { defaultSize = Int(readUInt32(bytes, cursor)) }
        }
        guard let trun = box("trun", in: bytes, range: traf.payload) else { return nil }
        var cursor = trun.payload.lowerBound
        let flags = readUInt32(bytes, cursor) & 0xFF_FFFF
        cursor += 8  // version/flags, sample_count
        var dataOffset: Int?
        if flags & 0x001 != 0 {
            dataOffset = Int(Int32(bitPattern: readUInt32(bytes, cursor)))
            cursor += 4
        }
        if flags & 0x004 != 0 { cursor += 4 }
        if flags & 0x100 != 0 { cursor += 4 }
        var size = defaultSize
        if flags & 0x200 != 0, cursor + 4 <= trun.payload.upperBound { size = Int(readUInt32(bytes, cursor)) }
        guard let size else { return nil }
        // default-base-is-moof: data_offset counts from the start of moof.
        let start = dataOffset.map { moof.start + $0 } ?? mdat.payload.lowerBound
        let end = start + size
        return end <= bytes.count ? end : nil
    }

    struct Box {
        var start: Int
        var payload: Range<Int>
    }

    /// The first box of `type` directly inside `range`.
    static func box(_ type: String, in bytes: [UInt8], range: Range<Int>) -> Box? {
        let wanted = Array(type.utf8)
        var cursor = range.lowerBound
        while cursor + 8 <= range.upperBound {
            var size = Int(readUInt32(bytes, cursor))
            var header = 8
            if size == 1, cursor + 16 <= range.upperBound {
                size = Int(readUInt32(bytes, cursor + 8)) << 32 | Int(readUInt32(bytes, cursor + 12))
                header = 16
            } else if size == 0 {
                size = range.upperBound - cursor
            }
            guard size >= header, cursor + size <= range.upperBound else { return nil }
            if Array(bytes[(cursor + 4)..<(cursor + 8)]) == wanted {
                return Box(start: cursor, payload: (cursor + header)..<(cursor + size))
            }
            cursor += size
        }
        return nil
    }

    private static func readUInt32(_ bytes: [UInt8], _ offset: Int) -> UInt32 {
        guard offset + 4 <= bytes.count else { return 0 }
        return UInt32(bytes[offset]) << 24 | UInt32(bytes[offset + 1]) << 16 | UInt32(bytes[offset + 2]) << 8
            | UInt32(bytes[offset + 3])
    }
}
