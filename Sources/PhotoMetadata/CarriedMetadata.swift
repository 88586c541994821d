/// The metadata a filtered photo carries from its source, whatever the container: EXIF (typed), XMP, the ICC
/// profile, and what only JPEG holds (JFIF, extended XMP, Photoshop/IPTC, comments); plus the warnings and notes
/// from reading it.
///
/// Read by `CarriedMetadata.read(jpeg:)`, `CarriedMetadata.read(png:)` (the ICC profile then still compressed, see
/// `PNGStructure`) or assembled from a HEIF file's items by the `Photos` adapter; written by `JPEGMetadataWriter`
/// and `PNGMetadataWriter`.
public struct CarriedMetadata: Sendable, Hashable {
    public var exif: ExifMetadata?
    /// The main XMP packet (the bytes after the XMP namespace in JPEG; the iTXt text in PNG).
    public var xmp: [UInt8]?
    /// JPEG APP1 extended-XMP payloads after their namespace (GUID, length, offset, data), verbatim.
    public var extendedXMP: [[UInt8]]
    /// The ICC profile, whole (JPEG's APP2 chunks joined in order).
    public var iccProfile: [UInt8]?
    /// The JPEG APP0 JFIF payload (version, density), when the source had one.
    public var jfif: [UInt8]?
    /// The JPEG APP13 payload ("Photoshop 3.0" resources: IPTC), verbatim.
    public var photoshop: [UInt8]?
    /// JPEG COM segments, verbatim.
    public var comments: [[UInt8]]
    public var warnings: [MetadataWarning]

    public init(
        exif: ExifMetadata? = nil, xmp: [UInt8]? = nil, extendedXMP: [[UInt8]] = [], iccProfile: [UInt8]? = nil,
        jfif: [UInt8]? = nil, photoshop: [UInt8]? = nil, comments: [[UInt8]] = [], warnings: [MetadataWarning] = []
    ) {
        self.exif = exif
        self.xmp = xmp
        self.extendedXMP = extendedXMP
        self.iccProfile = iccProfile
        self.jfif = jfif
        self.photoshop = photoshop
        self.comments = comments
        self.warnings = warnings
    }

    /// The parsed ICC profile, if there is one.
    public var icc: ICCProfile? { iccProfile.flatMap(ICCProfile.init) }

    /// The metadata for an upright, re-encoded copy of `width` × `height` pixels: EXIF through
    /// `ExifMetadata.forUprightCopy` (Orientation 1, new pixel dimensions, thumbnail dropped) and the same changes
    /// in the XMP packet (`XMPPacket.forUprightCopy`); an ICC profile that is not an RGB profile is dropped with a
    /// note (the output is RGB). The warnings are those of reading, plus notes on what changed.
    public func forUprightCopy(width: Int, height: Int) -> CarriedMetadata {
        var copy = self
        if let exif {
            copy.exif = exif.forUprightCopy(width: width, height: height)
            if exif.ifd1 != nil {
                copy.warnings.append(
                    MetadataWarning(
                        .note, code: "exif.thumbnail-dropped",
                        "the embedded thumbnail (IFD1) is dropped: it shows the unfiltered picture"))
            }
        }
        if let xmp { copy.xmp = XMPPacket.forUprightCopy(xmp, width: width, height: height) }
        if let icc, icc.colourSpace != "RGB" {
            copy.iccProfile = nil
            copy.warnings.append(
                MetadataWarning(
                    .note, code: "icc.not-rgb", "the \(icc.colourSpace) ICC profile is dropped: the output is RGB"))
        }
        return copy
    }
}

extension CarriedMetadata {
    static let exifIdentifier = Array("Exif\0".utf8)
    static let xmpNamespace = Array("http://ns.adobe.com/xap/1.0/\0".utf8)
    static let extendedXMPNamespace = Array("http://ns.adobe.com/xmp/extension/\0".utf8)
    static let iccIdentifier = Array("ICC_PROFILE\0".utf8)
    static let jfifIdentifier = Array("JFIF\0".utf8)
    static let photoshopIdentifier = Array("Photoshop 3.0\0".utf8)

    /// The metadata segments of a JPEG file (scanned with `JPEGStructure`): the first EXIF APP1, the first XMP
    /// APP1 and every extended-XMP APP1, the ICC profile from its APP2 chunks (joined by sequence number; a
    /// missing or repeated chunk drops the profile with a warning), JFIF APP0, Photoshop APP13, COM. Other APPn
    /// segments are not carried: each is named in a note (MPF's offsets point into the source file, JFXX and
    /// FPXR hold previews, APP14 describes the source's own encoding).
    public static func read(jpeg bytes: [UInt8], structure: JPEGStructure) -> CarriedMetadata {
        var metadata = CarriedMetadata()
        var iccChunks: [Int: ArraySlice<UInt8>] = [:]
        var iccTotal: Int?
        var iccProblem: String?
        for segment in structure.segments {
            let payload = bytes[segment.payload]
            func has(_ prefix: [UInt8]) -> Bool { payload.starts(with: prefix) }
            switch segment.marker {
            case 0xE1 where has(exifIdentifier) && payload.count >= 6:
                guard metadata.exif == nil else {
                    metadata.warnings.append(
                        MetadataWarning(
                            code: "jpeg.second-exif", "a second EXIF segment at offset \(segment.start) is ignored"))
                    continue
                }
                let read = TIFFReader.read(Array(payload.dropFirst(6)))
                metadata.exif = read.metadata
                metadata.warnings += read.warnings
            case 0xE1 where has(xmpNamespace):
                if metadata.xmp == nil { metadata.xmp = Array(payload.dropFirst(xmpNamespace.count)) }
            case 0xE1 where has(extendedXMPNamespace):
                metadata.extendedXMP.append(Array(payload.dropFirst(extendedXMPNamespace.count)))
            case 0xE2 where has(iccIdentifier):
                guard payload.count >= 14 else {
                    iccProblem = "an ICC_PROFILE chunk at offset \(segment.start) is too short"
                    continue
                }
                let base = payload.startIndex + iccIdentifier.count
                let sequence = Int(bytes[base]), total = Int(bytes[base + 1])
                if iccTotal == nil { iccTotal = total }
                if total != iccTotal || sequence < 1 || sequence > total || iccChunks[sequence] != nil {
                    iccProblem =
                        "ICC_PROFILE chunk \(sequence) of \(total) at offset \(segment.start) does not fit the other chunks"
                }
                iccChunks[sequence] = payload.dropFirst(14)
            case 0xE0 where has(jfifIdentifier):
                if metadata.jfif == nil { metadata.jfif = Array(payload) }
            case 0xED where has(photoshopIdentifier):
                if metadata.photoshop == nil { metadata.photoshop = Array(payload) }
            case 0xFE:
                metadata.comments.append(Array(payload))
            case 0xE0...0xEF:
                metadata.warnings.append(
                    MetadataWarning(
                        .note, code: "jpeg.segment-dropped",
                        "APP\(segment.marker - 0xE0) segment \(segmentName(payload)) at offset \(segment.start) is not carried"
                    ))
            default:
                continue
            }
        }
        if let total = iccTotal {
            if iccProblem == nil, iccChunks.count != total {
                iccProblem = "the ICC profile has \(iccChunks.count) of its \(total) chunks"
            }
            if let iccProblem {
                metadata.warnings.append(
                    MetadataWarning(code: "jpeg.icc-chunks", "\(iccProblem); the profile is dropped"))
            } else {
                metadata.iccProfile = (1...max(1, total)).flatMap { Array(iccChunks[$0] ?? []) }
            }
        }
        return metadata
    }

    /// The identifier at the start of an APPn payload, for notes (`"MPF"`, `"JFXX"`), or its length.
    static func segmentName(_ payload: ArraySlice<UInt8>) -> String {
        let name = payload.prefix(32).prefix { $0 >= 0x20 && $0 < 0x7F }
        return name.count >= 2 ? "\"\(String(decoding: name, as: UTF8.self))\"" : "of \(payload.count) bytes"
    }
}
