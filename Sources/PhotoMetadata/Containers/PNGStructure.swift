/// The chunks of a PNG file (ISO/IEC 15948, W3C PNG 3rd edition) located without decoding: the header, and the
/// metadata chunks this toolkit carries.
///
/// A PNG is an 8-byte signature, then chunks of a 4-byte big-endian length, a 4-byte type, the data and a CRC-32
/// of type and data, from IHDR to IEND. Scanning stops at IEND, at a chunk that runs past the end (a warning), or
/// after `maximumChunks`; a CRC mismatch is a warning (the chunk is still used). Never traps.
///
/// Metadata: `eXIf` (a TIFF structure, as in EXIF), the XMP packet in an `iTXt` chunk with keyword
/// `XML:com.adobe.xmp` (uncompressed; a compressed one is reported and not carried), and `iCCP` (profile name and
/// the zlib-compressed profile, which this pure module leaves compressed: see `compressedICCProfile`).
public struct PNGStructure: Sendable {
    public struct Chunk: Sendable, Hashable {
        /// The four type letters, e.g. "IHDR".
        public var type: String
        /// Where the length field starts.
        public var start: Int
        public var data: Range<Int>
    }

    /// IHDR.
    public struct Header: Sendable, Hashable {
        public var width: Int
        public var height: Int
        public var bitDepth: Int
        /// 0 grey, 2 RGB, 3 palette, 4 grey + alpha, 6 RGBA.
        public var colourType: Int
        public var isInterlaced: Bool
        public var hasAlpha: Bool { colourType == 4 || colourType == 6 }
    }

    public static let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
    public static let maximumChunks = 100_000

    public var chunks: [Chunk]
    public var header: Header?
    public var metadata: CarriedMetadata
    /// The iCCP chunk's profile name and its zlib stream (compression method 0), to be inflated by the caller.
    public var compressedICCProfile: (name: String, data: [UInt8])?

    public static func isPNG(_ bytes: [UInt8]) -> Bool { bytes.starts(with: signature) }

    /// The chunks of `bytes`, or nil when they do not start with the PNG signature.
    public static func scan(_ bytes: [UInt8]) -> PNGStructure? {
        guard isPNG(bytes) else { return nil }
        var structure = PNGStructure(chunks: [], header: nil, metadata: CarriedMetadata())
        var warnings: [MetadataWarning] = []
        var position = signature.count
        while position < bytes.count {
            guard structure.chunks.count < maximumChunks else {
                warnings.append(
                    MetadataWarning(code: "png.chunk-count", "more than \(maximumChunks) chunks; the rest is not read"))
                break
            }
            guard position + 12 <= bytes.count else {
                warnings.append(
                    MetadataWarning(code: "png.truncated", "the file ends inside the chunk at offset \(position)"))
                break
            }
            let length = Int(ByteOrder.bigEndian.uint32(bytes, at: position) ?? 0)
            let type = String(decoding: bytes[(position + 4)..<(position + 8)], as: UTF8.self)
            let dataStart = position + 8
            guard length <= bytes.count - dataStart - 4 else {
                warnings.append(
                    MetadataWarning(
                        code: "png.chunk-length",
                        "chunk \(type) at offset \(position) has length \(length), past the end of the file"))
                break
            }
            let chunk = Chunk(type: type, start: position, data: dataStart..<(dataStart + length))
            let stored = ByteOrder.bigEndian.uint32(bytes, at: dataStart + length) ?? 0
            if CRC32.checksum(bytes[(position + 4)..<(dataStart + length)]) != stored {
                warnings.append(
                    MetadataWarning(code: "png.crc", "chunk \(type) at offset \(position) fails its CRC check"))
            }
            structure.chunks.append(chunk)
            structure.read(chunk, in: bytes, warnings: &warnings)
            position = dataStart + length + 4
            if type == "IEND" { break }
        }
        structure.metadata.warnings = warnings + structure.metadata.warnings
        return structure
    }

    private mutating func read(_ chunk: Chunk, in bytes: [UInt8], warnings: inout [MetadataWarning]) {
        let data = bytes[chunk.data]
        switch chunk.type {
        case "IHDR" where data.count >= 13 && header == nil:
            let base = data.startIndex
            header = Header(
                width: Int(ByteOrder.bigEndian.uint32(bytes, at: base) ?? 0),
                height: Int(ByteOrder.bigEndian.uint32(bytes, at: base + 4) ?? 0),
                bitDepth: Int(bytes[base + 8]), colourType: Int(bytes[base + 9]), isInterlaced: bytes[base + 12] == 1)
        case "eXIf":
            guard metadata.exif == nil else { return }
            let read = TIFFReader.read(Array(data))
            metadata.exif = read.metadata
            warnings += read.warnings
        case "iTXt":
            // keyword NUL, compression flag, method, language NUL, translated keyword NUL, text.
            guard let keywordEnd = data.firstIndex(of: 0),
                Array(data[data.startIndex..<keywordEnd]) == Array("XML:com.adobe.xmp".utf8),
                keywordEnd + 2 < data.endIndex
            else { return }
            guard data[keywordEnd + 1] == 0 else {
                warnings.append(
                    MetadataWarning(.note, code: "png.xmp-compressed", "the XMP iTXt chunk is compressed; not carried"))
                return
            }
            guard let languageEnd = data[(keywordEnd + 3)...].firstIndex(of: 0),
                let translatedEnd = data[(languageEnd + 1)...].firstIndex(of: 0)
            else { return }
            if metadata.xmp == nil { metadata.xmp = Array(data[(translatedEnd + 1)...]) }
        case "iCCP":
            guard let nameEnd = data.firstIndex(of: 0), nameEnd + 1 < data.endIndex, data[nameEnd + 1] == 0 else {
                warnings.append(
                    MetadataWarning(code: "png.iccp", "the iCCP chunk is malformed; the profile is not carried"))
                return
            }
            compressedICCProfile = (
                String(decoding: data[data.startIndex..<nameEnd], as: UTF8.self), Array(data[(nameEnd + 2)...])
            )
        default:
            return
        }
    }
}
