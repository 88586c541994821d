import FilterKit
import PhotoMetadata

/// Encodes RGBA pixels with the metadata to carry, in the format asked for.
public enum PhotoWriter {
    /// The encoded file, and notes on metadata that could not be written as it was.
    public struct Encoded: Sendable {
        public var bytes: [UInt8]
        public var warnings: [MetadataWarning]
    }

    /// - Parameters:
    ///   - quality: 1–100, for JPEG (libjpeg-turbo, accurate DCT) and HEIF (x265); ignored for PNG.
    ///   - subsampling: for JPEG, the source's chrominance subsampling when it was a JPEG ("444", "422", "420"), else 4:2:0.
    public static func encode(
        _ frame: Frame, metadata: CarriedMetadata, as format: PhotoFormat, quality: Int = 92,
        like source: DecodedPhoto? = nil
    ) throws(PhotoError) -> Encoded {
        let quality = min(100, max(1, quality))
        let result =
            switch format {
            case .jpeg:
                try JPEGCodec.encode(
                    frame, metadata: metadata, quality: quality, subsampling: source?.jpegSubsampling ?? .s420)
            case .png: try PNGCodec.encode(frame, metadata: metadata)
            case .heif: try HEIFCodec.encode(frame, metadata: metadata, quality: quality)
            }
        return Encoded(bytes: result.bytes, warnings: result.warnings)
    }
}
