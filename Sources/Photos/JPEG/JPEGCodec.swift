internal import CTurboJPEG
import FilterKit
import PhotoMetadata

/// JPEG through libjpeg-turbo's TurboJPEG API, the metadata segments through `PhotoMetadata`.
enum JPEGCodec {
    static func decode(_ bytes: [UInt8], admit: PhotoLimits.Admission) throws(PhotoError) -> DecodedPhoto {
        let scan = JPEGStructure.scan(bytes)
        guard let structure = scan.structure else { throw .unsupportedFormat("no JPEG start marker") }
        guard structure.frame != nil else { throw .noJPEGFrame }
        if structure.isCMYK { throw .cmykJPEG }
        var metadata = CarriedMetadata.read(jpeg: bytes, structure: structure)
        metadata.warnings = scan.warnings + metadata.warnings
        let decompressor = try TurboJPEGDecompressor()
        let header = try decompressor.header(bytes)
        if header.isCMYK { throw .cmykJPEG }
        try admit(header.width, header.height)
        var rgba = [UInt8](repeating: 0, count: header.width * header.height * 4)
        var warnings: [MetadataWarning] = []
        if let warning = try decompressor.decodeRGBA(bytes, width: header.width, height: header.height, into: &rgba) {
            warnings.append(MetadataWarning(code: "jpeg.corrupt-data", "libjpeg-turbo: \(warning)"))
        }
        let frame = Frame(
            format: .rgba, width: header.width, height: header.height,
            planes: [
                Frame.Plane(width: header.width, height: header.height, bytesPerRow: header.width * 4, bytes: rgba)
            ])
        let subsampling: TurboJPEGCompressor.Subsampling? =
            switch header.subsampling {
            case Int32(TJSAMP_444.rawValue): .s444
            case Int32(TJSAMP_422.rawValue): .s422
            case Int32(TJSAMP_420.rawValue): .s420
            default: nil
            }
        return DecodedPhoto(
            format: .jpeg, frame: frame,
            orientation: metadata.exif?.orientation.flatMap { ImageOrientation(exifValue: Int($0)) } ?? .up,
            metadata: metadata, warnings: warnings, jpegSubsampling: subsampling)
    }

    /// A baseline JPEG of `frame` (alpha dropped) with `metadata` after its SOI marker.
    static func encode(
        _ frame: Frame, metadata: CarriedMetadata, quality: Int,
        subsampling: TurboJPEGCompressor.Subsampling
    ) throws(PhotoError) -> (bytes: [UInt8], warnings: [MetadataWarning]) {
        let plane = frame.planes[0]
        let encoded = try TurboJPEGCompressor().compress(
            rgba: plane.bytes, width: frame.width, height: frame.height,
            bytesPerRow: plane.bytesPerRow, quality: quality, subsampling: subsampling)
        let written = JPEGMetadataWriter.write(metadata, into: encoded)
        return (written.bytes, written.warnings)
    }

    static func details(_ bytes: [UInt8], fileSize: Int) throws(PhotoError) -> PhotoDetails {
        let scan = JPEGStructure.scan(bytes)
        guard let structure = scan.structure else { throw .unsupportedFormat("no JPEG start marker") }
        guard let frame = structure.frame else { throw .noJPEGFrame }
        var metadata = CarriedMetadata.read(jpeg: bytes, structure: structure)
        metadata.warnings = scan.warnings + metadata.warnings
        let detail = [
            frame.isProgressive ? "progressive" : (frame.marker == 0xC0 ? "baseline" : "SOF\(frame.marker - 0xC0)"),
            ["", "greyscale", "", "YCbCr", structure.adobeTransform == 2 ? "YCCK" : "CMYK"][
                min(4, frame.componentIDs.count)],
            "\(frame.precision)-bit",
        ]
        return PhotoDetails(
            format: "JPEG", formatDetail: detail.filter { !$0.isEmpty }.joined(separator: ", "),
            storedWidth: frame.width, storedHeight: frame.height,
            fileSizeBytes: fileSize, metadata: metadata)
    }
}
