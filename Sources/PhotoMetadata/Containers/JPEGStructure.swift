/// The marker segments of a JPEG file up to its first scan (ITU-T T.81 Annex B), located without decoding: the
/// metadata segments (APPn, COM), the frame header (size, components, progressive or not) and the Adobe APP14
/// colour transform.
///
///     guard let jpeg = JPEGStructure.scan(bytes).structure else { … }   // nil: not a JPEG
///     jpeg.frame?.width
///
/// Each segment is a marker (0xFF, code) and, except for SOI, EOI, RSTn and TEM, a 2-byte big-endian length that
/// counts itself; fill bytes (0xFF) before a marker are skipped. Scanning stops at the first SOS (metadata
/// segments come before it) or EOI, at a length that runs past the end (a warning), or after
/// `maximumSegments` segments (a warning). Never traps.
public struct JPEGStructure: Sendable {
    public struct Segment: Sendable, Hashable {
        /// The marker code (0xE1 for APP1).
        public var marker: UInt8
        /// Where the marker's 0xFF byte is.
        public var start: Int
        /// The payload: after the length field, up to the next marker.
        public var payload: Range<Int>
    }

    /// The frame header (SOFn).
    public struct Frame: Sendable, Hashable {
        public var marker: UInt8
        public var precision: Int
        public var width: Int
        public var height: Int
        /// Component identifiers, in order (1 component: greyscale; 3: YCbCr or RGB; 4: CMYK or YCCK).
        public var componentIDs: [UInt8]
        /// Progressive DCT (SOF2, SOF6, SOF10, SOF14).
        public var isProgressive: Bool { [0xC2, 0xC6, 0xCA, 0xCE].contains(marker) }
    }

    public static let maximumSegments = 4096

    public var segments: [Segment]
    public var frame: Frame?
    /// The transform flag of an Adobe APP14 segment (0: none/RGB or CMYK, 1: YCbCr, 2: YCCK), when present.
    public var adobeTransform: UInt8?
    /// Where the first SOS marker is, when one was reached.
    public var scanStart: Int?

    /// Four components: CMYK or YCCK, which the photo pipeline does not take.
    public var isCMYK: Bool { frame?.componentIDs.count == 4 }

    public struct ScanResult: Sendable {
        /// nil when the bytes do not start with SOI.
        public var structure: JPEGStructure?
        public var warnings: [MetadataWarning]
    }

    /// True when `bytes` start with a JPEG SOI marker followed by another marker.
    public static func isJPEG(_ bytes: [UInt8]) -> Bool {
        bytes.count >= 3 && bytes[0] == 0xFF && bytes[1] == 0xD8 && bytes[2] == 0xFF
    }

    public static func scan(_ bytes: [UInt8]) -> ScanResult {
        guard bytes.count >= 2, bytes[0] == 0xFF, bytes[1] == 0xD8 else {
            return ScanResult(structure: nil, warnings: [])
        }
        var structure = JPEGStructure(segments: [], frame: nil, adobeTransform: nil, scanStart: nil)
        var warnings: [MetadataWarning] = []
        var position = 2
        while position < bytes.count {
            guard structure.segments.count < maximumSegments else {
                warnings.append(
                    MetadataWarning(
                        code: "jpeg.segment-count",
                        "more than \(maximumSegments) segments before the first scan; the rest is not read"))
                break
            }
            if bytes[position] != 0xFF {
                // Not a marker where one should be: skip to the next 0xFF.
                let found = bytes[position...].firstIndex(of: 0xFF) ?? bytes.count
                warnings.append(
                    MetadataWarning(
                        code: "jpeg.stray-bytes",
                        "\(found - position) bytes that are not a marker at offset \(position) skipped"))
                position = found
                continue
            }
            var codeAt = position + 1
            while codeAt < bytes.count && bytes[codeAt] == 0xFF { codeAt += 1 }
            guard codeAt < bytes.count else { break }
            let marker = bytes[codeAt], start = codeAt - 1
            if marker == 0x00 {
                position = codeAt + 1
                continue
            }
            if marker == 0xD9 { break }
            if marker == 0x01 || (0xD0...0xD8).contains(marker) {
                position = codeAt + 1
                continue
            }
            guard codeAt + 2 < bytes.count else {
                warnings.append(
                    MetadataWarning(code: "jpeg.truncated", "the file ends inside the segment at offset \(start)"))
                break
            }
            let length = Int(bytes[codeAt + 1]) << 8 | Int(bytes[codeAt + 2])
            let payloadStart = codeAt + 3, end = codeAt + 1 + length
            guard length >= 2, end <= bytes.count else {
                warnings.append(
                    MetadataWarning(
                        code: "jpeg.segment-length",
                        "segment 0xFF\(hex(marker)) at offset \(start) has length \(length), past the end of the \(bytes.count)-byte file"
                    ))
                break
            }
            if marker == 0xDA {
                structure.scanStart = start
                break
            }
            let segment = Segment(marker: marker, start: start, payload: payloadStart..<end)
            structure.segments.append(segment)
            if isFrameHeader(marker), structure.frame == nil { structure.frame = frameHeader(bytes, segment) }
            if marker == 0xEE, end - payloadStart >= 12,
                Array(bytes[payloadStart..<(payloadStart + 5)]) == Array("Adobe".utf8)
            {
                structure.adobeTransform = bytes[payloadStart + 11]
            }
            position = end
        }
        if structure.frame == nil {
            warnings.append(MetadataWarning(code: "jpeg.no-frame", "no frame header (SOF) before the first scan"))
        }
        return ScanResult(structure: structure, warnings: warnings)
    }

    /// The payload bytes of `segment` in `bytes`.
    public static func payload(_ segment: Segment, in bytes: [UInt8]) -> ArraySlice<UInt8> { bytes[segment.payload] }

    static func isFrameHeader(_ marker: UInt8) -> Bool {
        (0xC0...0xCF).contains(marker) && marker != 0xC4 && marker != 0xC8 && marker != 0xCC
    }

    static func frameHeader(_ bytes: [UInt8], _ segment: Segment) -> Frame? {
        let p = segment.payload
        guard p.count >= 6 else { return nil }
        let base = p.lowerBound
        let count = Int(bytes[base + 5])
        let ids = (0..<count).compactMap { index -> UInt8? in
            let at = base + 6 + 3 * index
            return at < p.upperBound ? bytes[at] : nil
        }
        return Frame(
            marker: segment.marker, precision: Int(bytes[base]),
            width: Int(bytes[base + 3]) << 8 | Int(bytes[base + 4]),
            height: Int(bytes[base + 1]) << 8 | Int(bytes[base + 2]), componentIDs: ids)
    }

    static func hex(_ value: UInt8) -> String {
        let digits = Array("0123456789ABCDEF")
        return String([digits[Int(value >> 4)], digits[Int(value & 15)]])
    }
}
