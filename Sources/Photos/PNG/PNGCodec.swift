import FilterKit
import PhotoMetadata

/// PNG through libpng's simplified API, the metadata chunks through `PhotoMetadata` (and zlib for iCCP).
enum PNGCodec {
    static func decode(_ bytes: [UInt8], admit: PhotoLimits.Admission) throws(PhotoError) -> DecodedPhoto {
        guard let structure = PNGStructure.scan(bytes) else { throw .unsupportedFormat("no PNG signature") }
        let metadata = readMetadata(structure)
        let (width, height, rgba) = try PNGImage.decodeRGBA(bytes, admit: admit)
        let frame = Frame(
            format: .rgba, width: width, height: height,
            planes: [Frame.Plane(width: width, height: height, bytesPerRow: width * 4, bytes: rgba)])
        return DecodedPhoto(
            format: .png, frame: frame,
            orientation: metadata.exif?.orientation.flatMap { ImageOrientation(exifValue: Int($0)) } ?? .up,
            metadata: metadata, warnings: [], jpegSubsampling: nil)
    }

    /// The chunks' metadata with the iCCP profile inflated.
    static func readMetadata(_ structure: PNGStructure) -> CarriedMetadata {
        var metadata = structure.metadata
        if let compressed = structure.compressedICCProfile {
            do {
                metadata.iccProfile = try Zlib.decompress(compressed.data)
            } catch {
                metadata.warnings.append(
                    MetadataWarning(
                        code: "png.iccp-inflate", "the iCCP profile cannot be inflated (\(error)); not carried"))
            }
        }
        return metadata
    }

    /// A PNG of `frame` (RGB when every alpha is 255, else RGBA) with `metadata` after IHDR.
    static func encode(_ frame: Frame, metadata: CarriedMetadata) throws(PhotoError) -> (
        bytes: [UInt8], warnings: [MetadataWarning]
    ) {
        let plane = frame.planes[0]
        let encoded = try PNGImage.encode(
            rgba: plane.bytes, width: frame.width, height: frame.height,
            bytesPerRow: plane.bytesPerRow, opaque: isOpaque(frame))
        var icc: (name: String, data: [UInt8])?
        if let profile = metadata.iccProfile {
            icc = (metadata.icc?.name ?? "ICC profile", try Zlib.compress(profile))
        }
        let written = PNGMetadataWriter.write(metadata, compressedICCProfile: icc, into: encoded)
        return (written.bytes, written.warnings)
    }

    /// Whether every pixel's alpha is 255.
    static func isOpaque(_ frame: Frame) -> Bool {
        let plane = frame.planes[0]
        return plane.bytes.withUnsafeBufferPointer { bytes in
            for y in 0..<frame.height {
                let row = y * plane.bytesPerRow
                for x in 0..<frame.width where bytes[row + 4 * x + 3] != 255 { return false }
            }
            return true
        }
    }

    static func details(_ bytes: [UInt8], fileSize: Int) throws(PhotoError) -> PhotoDetails {
        guard let structure = PNGStructure.scan(bytes) else { throw .unsupportedFormat("no PNG signature") }
        var detail: String?
        if let header = structure.header {
            let kind =
                [0: "greyscale", 2: "RGB", 3: "palette", 4: "greyscale + alpha", 6: "RGBA"][header.colourType]
                ?? "colour type \(header.colourType)"
            detail = "\(header.bitDepth)-bit \(kind)" + (header.isInterlaced ? ", interlaced" : "")
        }
        return PhotoDetails(
            format: "PNG", formatDetail: detail, storedWidth: structure.header?.width,
            storedHeight: structure.header?.height, fileSizeBytes: fileSize, metadata: readMetadata(structure))
    }
}
