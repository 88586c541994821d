/// Why a photo could not be decoded or encoded. The C libraries' own messages are kept (`library`).
public enum PhotoError: Error, Equatable, Sendable, CustomStringConvertible {
    /// Not a JPEG, PNG or HEIF file (by its first bytes).
    case unsupportedFormat(String)
    /// A CMYK or YCCK JPEG (print workflows): the filter works on RGB.
    case cmykJPEG
    /// A JPEG with no frame header (SOF marker) before its first scan: its size and components are unknown.
    case noJPEGFrame
    /// Larger than `PhotoLimits.maximumPixels`, or of zero size.
    case unsupportedSize(width: Int, height: Int)
    /// A libjpeg-turbo, libpng, libheif or zlib call failed: the library, the function and its message.
    case library(name: String, function: String, message: String)
    /// The output name's extension does not name a format this toolkit writes.
    case unsupportedOutput(String)

    public var description: String {
        switch self {
        case .unsupportedFormat(let detail): "not a JPEG, PNG or HEIC/HEIF photo (\(detail))"
        case .cmykJPEG: "CMYK JPEG is not supported (the filter works on RGB photos); convert it to RGB first"
        case .noJPEGFrame: "not a complete JPEG: it has no frame header (SOF marker), so it holds no picture"
        case .unsupportedSize(let width, let height):
            "a \(width)×\(height) photo is outside the supported sizes (1 to \(PhotoLimits.maximumPixels / 1_000_000) megapixels)"
        case .library(let name, let function, let message): "\(name): \(function) failed: \(message)"
        case .unsupportedOutput(let name):
            "cannot write '\(name)': the output must end in .jpg, .jpeg, .png, .heic or .heif"
        }
    }
}

/// Bounds on what the photo pipeline takes, so a hostile header cannot ask for a huge allocation.
public enum PhotoLimits {
    /// 200 megapixels: 800 MB of RGBA.
    public static let maximumPixels = 200_000_000

    static func check(width: Int, height: Int) throws(PhotoError) {
        guard width > 0, height > 0, width <= 65_535, height <= 65_535, width * height <= maximumPixels else {
            throw .unsupportedSize(width: width, height: height)
        }
    }
}
