/// Puts `CarriedMetadata` into a freshly encoded JPEG (from libjpeg-turbo), right after its SOI marker.
///
///     let result = JPEGMetadataWriter.write(metadata.forUprightCopy(width: w, height: h), into: encoded)
///
/// Order after SOI: the source's JFIF APP0 (when it had one; the encoder's own APP0 is then removed, and it is also
/// removed when EXIF is written, as cameras write it), EXIF APP1 (`TIFFWriter`), XMP APP1, extended-XMP APP1s, the
/// ICC profile as APP2 chunks of at most 65,519 bytes, Photoshop APP13, COM; then the encoder's segments.
///
/// An APP1 segment holds at most 65,533 bytes: EXIF that does not fit with its MakerNote at its original offset is
/// written with the MakerNote moved, then without it, then not at all (each with a note). An XMP packet that does
/// not fit is dropped with a warning (splitting it into extended XMP would need its MD5 digest).
public enum JPEGMetadataWriter {
    public struct Result: Sendable {
        public var bytes: [UInt8]
        public var warnings: [MetadataWarning]
    }

    /// The largest payload of a segment (its 2-byte length counts itself).
    static let maximumPayload = 65_533
    /// ICC bytes per APP2 chunk: the payload less "ICC_PROFILE\0", sequence and count.
    static let iccChunkBytes = maximumPayload - 14

    public static func write(_ metadata: CarriedMetadata, into encoded: [UInt8]) -> Result {
        var warnings: [MetadataWarning] = []
        guard encoded.count >= 2, encoded[0] == 0xFF, encoded[1] == 0xD8 else {
            return Result(bytes: encoded, warnings: [])
        }
        var segments: [[UInt8]] = []
        func segment(_ marker: UInt8, _ payload: [UInt8]) {
            let length = payload.count + 2
            segments.append([0xFF, marker, UInt8(length >> 8), UInt8(length & 0xFF)] + payload)
        }
        if let jfif = metadata.jfif, jfif.count <= maximumPayload { segment(0xE0, jfif) }
        var wroteEXIF = false
        if let exif = metadata.exif {
            var written: [UInt8]?
            for placement in [TIFFWriter.MakerNotePlacement.keepOffset, .relocate, .drop] {
                if placement != .keepOffset && exif.makerNote == nil { break }
                let result = TIFFWriter.write(exif, makerNote: placement)
                if result.bytes.count + CarriedMetadata.exifIdentifier.count + 1 <= maximumPayload {
                    written = result.bytes
                    warnings += result.warnings
                    break
                }
            }
            if let written {
                segment(0xE1, CarriedMetadata.exifIdentifier + [0] + written)
                wroteEXIF = true
            } else {
                warnings.append(
                    MetadataWarning(
                        code: "jpeg.exif-too-large",
                        "the EXIF metadata does not fit in a JPEG APP1 segment; not written"))
            }
        }
        if let xmp = metadata.xmp {
            if xmp.count + CarriedMetadata.xmpNamespace.count <= maximumPayload {
                segment(0xE1, CarriedMetadata.xmpNamespace + xmp)
            } else {
                warnings.append(
                    MetadataWarning(
                        code: "jpeg.xmp-too-large",
                        "the XMP packet (\(xmp.count) bytes) does not fit in a JPEG APP1 segment; not written"))
            }
        }
        for extended in metadata.extendedXMP
        where extended.count + CarriedMetadata.extendedXMPNamespace.count <= maximumPayload {
            segment(0xE1, CarriedMetadata.extendedXMPNamespace + extended)
        }
        if let icc = metadata.iccProfile, !icc.isEmpty {
            let chunks = stride(from: 0, to: icc.count, by: iccChunkBytes).map {
                Array(icc[$0..<min(icc.count, $0 + iccChunkBytes)])
            }
            if chunks.count <= 255 {
                for (index, chunk) in chunks.enumerated() {
                    segment(0xE2, CarriedMetadata.iccIdentifier + [UInt8(index + 1), UInt8(chunks.count)] + chunk)
                }
            } else {
                warnings.append(
                    MetadataWarning(
                        code: "jpeg.icc-too-large",
                        "the ICC profile (\(icc.count) bytes) needs more than 255 APP2 chunks; not written"))
            }
        }
        if let photoshop = metadata.photoshop, photoshop.count <= maximumPayload { segment(0xED, photoshop) }
        for comment in metadata.comments where comment.count <= maximumPayload { segment(0xFE, comment) }

        // The encoder's segments after SOI, without its JFIF APP0 when ours replaces it or EXIF is written.
        var rest = encoded[2...]
        if metadata.jfif != nil || wroteEXIF, rest.count >= 4, rest[rest.startIndex] == 0xFF,
            rest[rest.startIndex + 1] == 0xE0
        {
            let length = Int(rest[rest.startIndex + 2]) << 8 | Int(rest[rest.startIndex + 3])
            if rest.count >= 2 + length,
                rest[(rest.startIndex + 4)...].starts(with: CarriedMetadata.jfifIdentifier)
            {
                rest = rest.dropFirst(2 + length)
            }
        }
        var out: [UInt8] = [0xFF, 0xD8]
        out.reserveCapacity(encoded.count + segments.reduce(0) { $0 + $1.count })
        for bytes in segments { out += bytes }
        out += rest
        return Result(bytes: out, warnings: warnings)
    }
}
