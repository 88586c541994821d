/// Finds the NAL units of one access unit: Annex B (start codes, as in MPEG-TS) or length-prefixed (as in
/// MP4, the prefix size from the avcC/hvcC record).
public enum NALFraming: Hashable, Sendable {
    case annexB
    case lengthPrefixed(bytes: Int)
}

/// What one video access unit holds, read from its NAL unit headers.
public struct AccessUnitSummary: Hashable, Sendable {
    /// The NAL unit types in order.
    public var types: [UInt8] = []
    /// Sequence parameter sets carried in the access unit (each from its NAL header on).
    public var sequenceParameterSets: [[UInt8]] = []

    /// True when the access unit holds an IDR picture: H.264 type 5; H.265 IDR_W_RADL/IDR_N_LP (19, 20).
    /// Recovery-point frames and H.265 CRA pictures are not IDRs, whatever a demuxer's key flag says.
    public func isIDR(_ codec: CodecFamily) -> Bool {
        switch codec {
        case .h264: types.contains(5)
        case .hevc: types.contains { $0 == 19 || $0 == 20 }
        default: false
        }
    }
}

public enum NALUnitScanner {
    /// The NAL unit types (and SPS bytes) of `bytes` for `codec`.
    public static func summary(_ bytes: UnsafeRawBufferPointer, framing: NALFraming, codec: CodecFamily)
        -> AccessUnitSummary
    {
        var summary = AccessUnitSummary()
        forEachUnit(bytes, framing: framing) { start, end in
            guard start < end else { return }
            let header = bytes[start]
            let type: UInt8 = codec == .hevc ? (header >> 1) & 0x3F : header & 0x1F
            summary.types.append(type)
            if (codec == .h264 && type == 7) || (codec == .hevc && type == 33) {
                summary.sequenceParameterSets.append(Array(bytes[start..<end]))
            }
        }
        return summary
    }

    /// Calls `body` with the byte range of each NAL unit (header included, start code or length excluded).
    static func forEachUnit(_ bytes: UnsafeRawBufferPointer, framing: NALFraming, _ body: (Int, Int) -> Void) {
        let count = bytes.count
        switch framing {
        case .lengthPrefixed(let size):
            var offset = 0
            while offset + size <= count {
                var length = 0
                for index in 0..<size { length = length << 8 | Int(bytes[offset + index]) }
                let start = offset + size
                guard length > 0, start + length <= count else { return }
                body(start, start + length)
                offset = start + length
            }
        case .annexB:
            var unitStart: Int?
            var index = 0
            while index + 2 < count {
                if bytes[index] == 0, bytes[index + 1] == 0, bytes[index + 2] == 1 {
                    if let start = unitStart {
                        var end = index
                        while end > start, bytes[end - 1] == 0 { end -= 1 }
                        body(start, end)
                    }
                    unitStart = index + 3
                    index += 3
                } else if bytes[index + 2] > 1 {
                    index += 3
                } else {
                    index += 1
                }
            }
            if let start = unitStart, start < count { body(start, count) }
        }
    }

    /// The SPS of a decoder configuration record (avcC or hvcC, as in MP4 extradata) and its NAL length size.
    public static func configurationRecord(_ record: [UInt8], codec: CodecFamily) -> (sps: [UInt8]?, lengthSize: Int)? {
        switch codec {
        case .h264:
            guard record.count > 8, record[0] == 1 else { return nil }
            let lengthSize = Int(record[4] & 3) + 1
            let spsCount = Int(record[5] & 0x1F)
            guard spsCount > 0 else { return (nil, lengthSize) }
            let length = Int(record[6]) << 8 | Int(record[7])
            guard 8 + length <= record.count else { return nil }
            return (Array(record[8..<(8 + length)]), lengthSize)
        case .hevc:
            guard record.count > 23, record[0] == 1 else { return nil }
            let lengthSize = Int(record[21] & 3) + 1
            var offset = 23
            for _ in 0..<Int(record[22]) {
                guard offset + 3 <= record.count else { return nil }
                let type = record[offset] & 0x3F
                let units = Int(record[offset + 1]) << 8 | Int(record[offset + 2])
                offset += 3
                for _ in 0..<units {
                    guard offset + 2 <= record.count else { return nil }
                    let length = Int(record[offset]) << 8 | Int(record[offset + 1])
                    offset += 2
                    guard offset + length <= record.count else { return nil }
                    if type == 33 { return (Array(record[offset..<(offset + length)]), lengthSize) }
                    offset += length
                }
            }
            return (nil, lengthSize)
        default:
            return nil
        }
    }

    /// The parameters of an SPS NAL unit of `codec`.
    public static func parameters(ofSequenceParameterSet sps: [UInt8], codec: CodecFamily) -> VideoParameters? {
        switch codec {
        case .h264: H264SequenceParameters.parse(sps)
        case .hevc: HEVCSequenceParameters.parse(sps)
        default: nil
        }
    }
}
