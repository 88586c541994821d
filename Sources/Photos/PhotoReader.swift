import PhotoMetadata

/// Reads a photo file's bytes: decoded pixels and metadata (`decode`), or only what the detail screen shows
/// (`details`, without decoding pixels).
public enum PhotoReader {
    /// The photo's size is read from its header and checked against `limits` before any pixel is decoded; then
    /// `admit` is called with it (by default nothing more).
    ///
    /// - Throws: `PhotoError.unsupportedFormat` for anything but JPEG, PNG and HEIF; `.cmykJPEG`;
    ///   `.unsupportedSize`, `.tooManyPixels`, `.tooMuchMemory`; what `admit` throws; `.library` when the
    ///   decoder fails.
    public static func decode(
        _ bytes: [UInt8], limits: PhotoLimits = PhotoLimits(),
        admit: PhotoLimits.Admission = { _, _ throws(PhotoError) in }
    ) throws(PhotoError) -> DecodedPhoto {
        let admit: PhotoLimits.Admission = { width, height throws(PhotoError) in
            try limits.check(width: width, height: height)
            try admit(width, height)
        }
        return switch PhotoFormat.detect(bytes) {
        case .jpeg: try JPEGCodec.decode(bytes, admit: admit)
        case .png: try PNGCodec.decode(bytes, admit: admit)
        case .heif: try HEIFCodec.decode(bytes, admit: admit)
        case nil: throw .unsupportedFormat(describe(bytes))
        }
    }

    /// The detail screen's facts; `fileSize` is the file's size in bytes (the caller may have read only a part).
    public static func details(_ bytes: [UInt8], fileSize: Int? = nil) throws(PhotoError) -> PhotoDetails {
        let size = fileSize ?? bytes.count
        switch PhotoFormat.detect(bytes) {
        case .jpeg: return try JPEGCodec.details(bytes, fileSize: size)
        case .png: return try PNGCodec.details(bytes, fileSize: size)
        case .heif:
            var details = try HEIFCodec.details(bytes, fileSize: size)
            details.format = heifKind(bytes)
            return details
        case nil: throw .unsupportedFormat(describe(bytes))
        }
    }

    /// "HEIC" for HEVC brands, "AVIF" for AV1, else "HEIF" (by the ftyp major brand).
    static func heifKind(_ bytes: [UInt8]) -> String {
        guard bytes.count >= 12 else { return "HEIF" }
        switch String(decoding: bytes[8..<12], as: UTF8.self) {
        case "heic", "heix", "hevc", "hevx", "heim", "heis": return "HEIC"
        case "avif", "avis": return "AVIF"
        default: return "HEIF"
        }
    }

    /// What the first bytes look like, for the error message.
    static func describe(_ bytes: [UInt8]) -> String {
        guard !bytes.isEmpty else { return "the file is empty" }
        let printable = bytes.prefix(8).map { $0 >= 0x20 && $0 < 0x7F ? Character(UnicodeScalar($0)) : "." }
        return "it starts with \"\(String(printable))\""
    }
}
