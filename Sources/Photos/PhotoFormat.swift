import PhotoMetadata

/// The containers the photo pipeline reads and writes.
public enum PhotoFormat: String, Sendable, Hashable, CaseIterable {
    case jpeg = "JPEG"
    case png = "PNG"
    /// HEIF with HEVC (HEIC, as iPhones write it) or AV1 (AVIF) images, through libheif.
    case heif = "HEIF"

    /// The format of a file by its first bytes: JPEG SOI, the PNG signature, or an ISO BMFF `ftyp` box whose
    /// brands name a HEIF image (heic, heix, hevc, heim, heis, mif1, msf1, avif).
    public static func detect(_ bytes: [UInt8]) -> PhotoFormat? {
        if JPEGStructure.isJPEG(bytes) { return .jpeg }
        if PNGStructure.isPNG(bytes) { return .png }
        guard bytes.count >= 16, bytes[4..<8].elementsEqual("ftyp".utf8) else { return nil }
        let boxSize = min(bytes.count, Int(bytes[0]) << 24 | Int(bytes[1]) << 16 | Int(bytes[2]) << 8 | Int(bytes[3]))
        let brands: Set<String> = ["heic", "heix", "hevc", "hevx", "heim", "heis", "mif1", "msf1", "avif", "avis"]
        var offset = 8  // the major brand, then (after the minor version) the compatible brands
        while offset + 4 <= max(12, boxSize) && offset + 4 <= bytes.count {
            if brands.contains(String(decoding: bytes[offset..<(offset + 4)], as: UTF8.self)) { return .heif }
            offset += offset == 8 ? 8 : 4
        }
        return nil
    }

    /// The output format an output file name asks for, by its extension (case-insensitive).
    public static func forOutput(_ path: String) -> PhotoFormat? {
        let name = path.split(separator: "/").last.map(String.init) ?? path
        guard let dot = name.lastIndex(of: ".") else { return nil }
        switch name[name.index(after: dot)...].lowercased() {
        case "jpg", "jpeg": return .jpeg
        case "png": return .png
        case "heic", "heif": return .heif
        default: return nil
        }
    }

    /// The usual file extension.
    public var fileExtension: String {
        switch self {
        case .jpeg: "jpg"
        case .png: "png"
        case .heif: "heic"
        }
    }
}
