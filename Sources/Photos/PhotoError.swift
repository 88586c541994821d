import JSON
import PhotoMetadata

/// Why a photo could not be decoded or encoded. The C libraries' own messages are kept (`library`).
public enum PhotoError: Error, Equatable, Sendable, CustomStringConvertible {
    /// Not a JPEG, PNG or HEIF file (by its first bytes).
    case unsupportedFormat(String)
    /// A CMYK or YCCK JPEG (print workflows): the filter works on RGB.
    case cmykJPEG
    /// A JPEG with no frame header (SOF marker) before its first scan: its size and components are unknown.
    case noJPEGFrame
    /// A side of zero or above 65,535 pixels (`PhotoLimits.maximumSide`).
    case unsupportedSize(width: Int, height: Int)
    /// More pixels than `PhotoLimits.maximumPixels`, by the file's header: refused before decoding.
    case tooManyPixels(width: Int, height: Int, limit: Int)
    /// More memory to decode and filter (`PhotoLimits.memoryBytes`) than `PhotoLimits.maximumMemoryBytes`, by the
    /// file's header: refused before decoding.
    case tooMuchMemory(width: Int, height: Int, limit: Int)
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
            "a \(width)×\(height) photo is outside the supported sizes (sides of 1 to \(PhotoLimits.maximumSide) pixels)"
        case .tooManyPixels(let width, let height, let limit):
            "its header claims \(width)×\(height) pixels (\(PhotoLimits.megapixels(width * height))), more than the "
                + "limit of \(PhotoLimits.megapixels(limit)); not decoded"
        case .tooMuchMemory(let width, let height, let limit):
            "its header claims \(width)×\(height) pixels (\(PhotoLimits.megapixels(width * height))), which take "
                + "\(DetailFormat.fileSize(PhotoLimits.memoryBytes(width: width, height: height))) to decode and filter, "
                + "more than the memory limit of \(DetailFormat.fileSize(limit)); not decoded"
        case .library(let name, let function, let message): "\(name): \(function) failed: \(message)"
        case .unsupportedOutput(let name):
            "cannot write '\(name)': the output must end in .jpg, .jpeg, .png, .heic or .heif"
        }
    }
}

/// What the photo pipeline agrees to decode, judged from a file's header before any pixel is decoded, so that a
/// small file claiming a huge picture (a decompression bomb) costs nothing. The defaults follow ImageMagick's
/// default security policy (Debian's `policy.xml`: `area` 128MP): 128 megapixels, and the memory that takes.
///
///     try PhotoLimits().check(width: 14_000, height: 14_000)  // throws .tooManyPixels: 196 MP > 128 MP
public struct PhotoLimits: Sendable, Hashable {
    /// A side of at most 65,535 pixels (JPEG's own limit; PNG and HEIF sides beyond it are refused too).
    public static let maximumSide = 65_535
    public static let defaultMegapixels = 128
    /// Two RGBA copies of the photo are alive at once in the pipeline (`PhotoPipeline`): 8 bytes a pixel.
    public static let bytesPerPixel = 8

    /// The most pixels one photo may have.
    public var maximumPixels: Int
    /// The most memory the pixels of the photos being done at once may take (`memoryBytes` each); one photo that
    /// needs more on its own is refused.
    public var maximumMemoryBytes: Int

    public static let defaultMemoryMegabytes = 2_048

    /// 128 megapixels, and 2,048 MB for the photos done at once: two photos at the pixel limit side by side.
    public init(
        maximumPixels: Int = defaultMegapixels * 1_000_000,
        maximumMemoryBytes: Int = defaultMemoryMegabytes * 1_000_000
    ) {
        self.maximumPixels = maximumPixels
        self.maximumMemoryBytes = maximumMemoryBytes
    }

    /// The memory a `width` × `height` photo's pixels take in the pipeline (8 bytes a pixel); the renderer's
    /// fixed buffers come on top (docs/PHOTOS.md). For sides of at most `maximumSide`.
    public static func memoryBytes(width: Int, height: Int) -> Int { width * height * bytesPerPixel }

    /// Throws unless a photo of this size may be decoded: sides of 1 to 65,535, at most `maximumPixels`, at most
    /// `maximumMemoryBytes`.
    public func check(width: Int, height: Int) throws(PhotoError) {
        guard width > 0, height > 0, width <= Self.maximumSide, height <= Self.maximumSide else {
            throw .unsupportedSize(width: width, height: height)
        }
        guard width * height <= maximumPixels else {
            throw .tooManyPixels(width: width, height: height, limit: maximumPixels)
        }
        guard Self.memoryBytes(width: width, height: height) <= maximumMemoryBytes else {
            throw .tooMuchMemory(width: width, height: height, limit: maximumMemoryBytes)
        }
    }

    /// Called with a photo's size by its header, once `check` passed and before any pixel buffer is allocated: it
    /// may wait (until the memory is free) or throw.
    public typealias Admission = (_ width: Int, _ height: Int) throws(PhotoError) -> Void

    /// "196 MP", "0.5 MP": megapixels for messages.
    static func megapixels(_ pixels: Int) -> String {
        fixedNumber(Double(pixels) / 1e6, digits: 1, trimmingZeros: true) + " MP"
    }
}
