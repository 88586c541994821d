internal import CHeif
import FilterKit
import PhotoMetadata

/// HEIF (HEIC as iPhones write it; AVIF too) through libheif: pixels, EXIF and XMP items, the ICC profile.
enum HEIFCodec {
    /// The primary image decoded, with its metadata. `admit` is called with the image's size (its `ispe`, with
    /// the file's rotation) before it is decoded. libheif's own limits come first: a side above 32,768 pixels
    /// (its default maximum image size) and boxes or items past its security limits are refused while reading.
    static func decode(_ bytes: [UInt8], admit: PhotoLimits.Admission) throws(PhotoError) -> DecodedPhoto {
        let context = try HeifContext()
        try context.read(bytes)
        let handle = try context.primaryImage()
        try admit(handle.width, handle.height)
        let metadata = try readMetadata(handle)
        let image = try handle.decodeRGBA()
        let (width, height) = (image.width, image.height)
        guard width > 0, height > 0, width <= handle.width, height <= handle.height else {
            throw .library(
                name: "libheif", function: "heif_decode_image",
                message: "decoded \(width)×\(height) pixels for an image of \(handle.width)×\(handle.height)")
        }
        let (plane, stride) = try image.plane()
        var rgba = [UInt8](repeating: 0, count: width * height * 4)
        rgba.withUnsafeMutableBytes { out in
            guard let base = out.baseAddress else { return }
            for y in 0..<height { (base + y * width * 4).copyMemory(from: plane + y * stride, byteCount: width * 4) }
        }
        let frame = Frame(
            format: .rgba, width: width, height: height,
            planes: [Frame.Plane(width: width, height: height, bytesPerRow: width * 4, bytes: rgba)])
        return DecodedPhoto(
            format: .heif, frame: frame, orientation: .up, metadata: metadata, warnings: [], jpegSubsampling: nil)
    }

    /// EXIF (the item's first four bytes give the TIFF header's offset after them), XMP (a `mime` item of type
    /// application/rdf+xml) and the ICC profile of `handle`.
    static func readMetadata(_ handle: HeifImageHandle) throws(PhotoError) -> CarriedMetadata {
        var metadata = CarriedMetadata()
        if let exif = try handle.metadata("Exif").first?.bytes {
            let offset =
                exif.count >= 4 ? Int(exif[0]) << 24 | Int(exif[1]) << 16 | Int(exif[2]) << 8 | Int(exif[3]) : Int.max
            if offset <= exif.count - 4 {
                let read = TIFFReader.read(Array(exif[(4 + offset)...]))
                metadata.exif = read.metadata
                metadata.warnings += read.warnings
            } else {
                metadata.warnings.append(
                    MetadataWarning(code: "heif.exif-offset", "the Exif item's TIFF header offset lies past its end"))
            }
        }
        metadata.xmp = try handle.metadata("mime").first { $0.contentType == "application/rdf+xml" }?.bytes
        metadata.iccProfile = try handle.iccProfile()
        return metadata
    }

    /// An HEIC file (HEVC, x265) of `frame` at `quality`, with EXIF, XMP and the ICC profile of `metadata`.
    ///
    /// `storedOrientation` (for tests: files as a camera storing sensor-oriented pixels writes them) stores `frame`
    /// as it is with `irot`/`imir` properties that turn it upright on reading (libheif's `image_orientation`); `.up`,
    /// the pipeline's case, writes neither.
    static func encode(
        _ frame: Frame, metadata: CarriedMetadata, quality: Int, storedOrientation: ImageOrientation = .up
    ) throws(PhotoError) -> (bytes: [UInt8], warnings: [MetadataWarning]) {
        let context = try HeifContext()
        let alpha = !PNGCodec.isOpaque(frame)
        let image = try HeifImage(width: frame.width, height: frame.height, alpha: alpha)
        let (plane, stride) = try image.mutablePlane()
        let source = frame.planes[0]
        source.bytes.withUnsafeBufferPointer { bytes in
            guard let base = bytes.baseAddress else { return }
            for y in 0..<frame.height {
                let row = base + y * source.bytesPerRow, out = plane + y * stride
                if alpha {
                    out.update(from: row, count: frame.width * 4)
                } else {
                    for x in 0..<frame.width {
                        out[3 * x] = row[4 * x]
                        out[3 * x + 1] = row[4 * x + 1]
                        out[3 * x + 2] = row[4 * x + 2]
                    }
                }
            }
        }
        if let icc = metadata.iccProfile { try image.setICCProfile(icc) }
        let encoder = try HeifEncoder(context: context, quality: quality)
        var warnings: [MetadataWarning] = []
        var encoded: OpaquePointer?
        let options = storedOrientation == .up ? nil : heif_encoding_options_alloc()
        defer { if let options { heif_encoding_options_free(options) } }
        options?.pointee.image_orientation = heif_orientation(UInt32(storedOrientation.rawValue))
        try check(
            heif_context_encode_image(context.pointer, image.pointer, encoder.pointer, options, &encoded),
            "heif_context_encode_image")
        guard let encoded else {
            throw .library(name: "libheif", function: "heif_context_encode_image", message: "no image")
        }
        let handle = HeifImageHandle(encoded)
        if let exif = metadata.exif {
            let written = TIFFWriter.write(exif)
            warnings += written.warnings
            try check(
                written.bytes.withUnsafeBytes {
                    heif_context_add_exif_metadata(context.pointer, handle.pointer, $0.baseAddress, Int32($0.count))
                },
                "heif_context_add_exif_metadata")
        }
        if let xmp = metadata.xmp {
            try check(
                xmp.withUnsafeBytes {
                    heif_context_add_XMP_metadata(context.pointer, handle.pointer, $0.baseAddress, Int32($0.count))
                },
                "heif_context_add_XMP_metadata")
        }
        if metadata.jfif != nil || metadata.photoshop != nil || !metadata.comments.isEmpty
            || !metadata.extendedXMP.isEmpty
        {
            warnings.append(
                MetadataWarning(
                    .note, code: "heif.jpeg-only",
                    "JPEG-only metadata (JFIF, Photoshop/IPTC, comments, extended XMP) is not written to HEIF"))
        }
        return (try context.write(), warnings)
    }

    static func details(_ bytes: [UInt8], fileSize: Int) throws(PhotoError) -> PhotoDetails {
        let context = try HeifContext()
        try context.read(bytes)
        let handle = try context.primaryImage()
        let detail = "\(handle.lumaBitsPerPixel)-bit" + (handle.hasAlpha ? ", alpha" : "")
        return PhotoDetails(
            format: "HEIF", formatDetail: detail, storedWidth: handle.width, storedHeight: handle.height,
            orientationIsApplied: true, fileSizeBytes: fileSize, metadata: try readMetadata(handle))
    }
}
