/// Puts `CarriedMetadata` into a freshly encoded PNG (from libpng), right after its IHDR chunk: `iCCP` (the
/// profile already compressed by the caller, zlib, method 0), `eXIf` (`TIFFWriter`; EXIF's 64 KB bound does not
/// apply), and the XMP packet as an uncompressed `iTXt` chunk with keyword `XML:com.adobe.xmp`.
///
/// With an iCCP chunk the encoder's `sRGB`, `gAMA` and `cHRM` chunks are removed (PNG: a file with iCCP should
/// not also have sRGB; the profile describes the colours). JPEG-only metadata (JFIF, extended XMP, Photoshop,
/// comments) is not written; a note says so.
public enum PNGMetadataWriter {
    public struct Result: Sendable {
        public var bytes: [UInt8]
        public var warnings: [MetadataWarning]
    }

    /// - Parameter compressedICCProfile: the zlib stream of `metadata.iccProfile`, and the profile name for iCCP.
    public static func write(
        _ metadata: CarriedMetadata, compressedICCProfile: (name: String, data: [UInt8])?,
        into encoded: [UInt8]
    ) -> Result {
        guard let structure = PNGStructure.scan(encoded), let ihdr = structure.chunks.first, ihdr.type == "IHDR" else {
            return Result(bytes: encoded, warnings: [])
        }
        var warnings: [MetadataWarning] = []
        var inserted: [UInt8] = []
        if let icc = compressedICCProfile {
            let name = Array(icc.name.utf8.filter { $0 >= 0x20 && $0 < 0x7F }.prefix(79))
            inserted += chunk("iCCP", (name.isEmpty ? Array("ICC profile".utf8) : name) + [0, 0] + icc.data)
        }
        if let exif = metadata.exif {
            let written = TIFFWriter.write(exif)
            warnings += written.warnings
            inserted += chunk("eXIf", written.bytes)
        }
        if let xmp = metadata.xmp {
            inserted += chunk("iTXt", Array("XML:com.adobe.xmp".utf8) + [0, 0, 0, 0, 0] + xmp)
        }
        if metadata.jfif != nil || metadata.photoshop != nil || !metadata.comments.isEmpty
            || !metadata.extendedXMP.isEmpty
        {
            warnings.append(
                MetadataWarning(
                    .note, code: "png.jpeg-only",
                    "JPEG-only metadata (JFIF, Photoshop/IPTC, comments, extended XMP) is not written to PNG"))
        }
        var out =
            Array(encoded[..<ihdr.data.upperBound]) + Array(encoded[ihdr.data.upperBound..<(ihdr.data.upperBound + 4)])
        out += inserted
        let dropped: Set<String> = compressedICCProfile == nil ? ["iCCP"] : ["sRGB", "gAMA", "cHRM", "iCCP"]
        for chunk in structure.chunks.dropFirst()
        where !dropped.contains(chunk.type)
            && !(chunk.type == "eXIf" && metadata.exif != nil)
        {
            out += encoded[chunk.start..<(chunk.data.upperBound + 4)]
        }
        return Result(bytes: out, warnings: warnings)
    }

    /// A chunk: length, type, data, CRC-32 of type and data.
    static func chunk(_ type: String, _ data: [UInt8]) -> [UInt8] {
        let body = Array(type.utf8) + data
        return ByteOrder.bigEndian.bytes(UInt32(data.count)) + body + ByteOrder.bigEndian.bytes(CRC32.checksum(body))
    }
}
