/// What the app's detail screen shows about a photo, read from its metadata: camera, lens, focal length (and the
/// 35 mm equivalent), aperture, ISO, shutter speed, capture time with its offset, location, pixel size,
/// orientation, colour profile and file size. A field the photo does not record is nil, never guessed.
public struct PhotoDetails: Sendable, Hashable {
    /// "JPEG", "PNG", "HEIC".
    public var format: String
    /// E.g. "progressive, 3 components, 8-bit" or "16-bit RGBA".
    public var formatDetail: String?
    /// The upright size (the orientation applied).
    public var pixelWidth: Int?
    public var pixelHeight: Int?
    public var fileSizeBytes: Int
    public var make: String?
    public var model: String?
    public var lensModel: String?
    public var focalLengthMillimetres: Double?
    public var focalLength35mmMillimetres: Int?
    public var fNumber: Double?
    public var iso: Int?
    public var exposureTime: Rational?
    public var captureTime: CaptureTimestamp?
    public var location: GPSLocation?
    /// The EXIF Orientation as written (1–8), when present.
    public var orientation: UInt16?
    /// The ICC profile's name, or "sRGB" / "Uncalibrated" from EXIF ColorSpace when there is no profile.
    public var colourProfile: String?
    /// How much metadata there is, for the summary line: the EXIF entries and whether XMP is present.
    public var exifEntryCount: Int
    public var hasXMP: Bool
    public var warnings: [MetadataWarning]

    /// - Parameters:
    ///   - storedWidth, storedHeight: the size the container states (JPEG SOF, PNG IHDR, HEIF image).
    ///   - orientationIsApplied: true when that size is already upright (HEIF applies its own transformations);
    ///     otherwise EXIF Orientation 5–8 swaps the sides.
    public init(
        format: String, formatDetail: String? = nil, storedWidth: Int?, storedHeight: Int?,
        orientationIsApplied: Bool = false, fileSizeBytes: Int, metadata: CarriedMetadata
    ) {
        self.format = format
        self.formatDetail = formatDetail
        self.fileSizeBytes = fileSizeBytes
        warnings = metadata.warnings
        hasXMP = metadata.xmp != nil
        let exif = metadata.exif
        exifEntryCount = exif?.ifds.reduce(0) { $0 + $1.entries.count } ?? 0
        orientation = exif?.orientation
        let swaps = !orientationIsApplied && (5...8).contains(orientation ?? 1)
        (pixelWidth, pixelHeight) = swaps ? (storedHeight, storedWidth) : (storedWidth, storedHeight)
        func text(_ tag: UInt16, _ kind: IFDKind) -> String? { exif?.value(tag, in: kind)?.text }
        make = text(ExifTag.make, .ifd0)
        model = text(ExifTag.model, .ifd0)
        lensModel = text(ExifTag.lensModel, .exif)
        focalLengthMillimetres = exif?.value(ExifTag.focalLength, in: .exif)?.firstNumber.flatMap { $0 > 0 ? $0 : nil }
        focalLength35mmMillimetres = exif?.value(ExifTag.focalLengthIn35mmFilm, in: .exif)?.firstInteger
            .flatMap { $0 > 0 ? Int($0) : nil }
        fNumber = exif?.value(ExifTag.fNumber, in: .exif)?.firstNumber.flatMap { $0 > 0 ? $0 : nil }
        iso = exif?.value(ExifTag.photographicSensitivity, in: .exif)?.firstInteger.flatMap { $0 > 0 ? Int($0) : nil }
        if case .rationals(let values)? = exif?.value(ExifTag.exposureTime, in: .exif), let first = values.first,
            (first.doubleValue ?? 0) > 0
        {
            exposureTime = first
        }
        // The capture time: DateTimeOriginal, else DateTimeDigitized, else IFD0's DateTime, each with its offset.
        for (time, subSeconds, offset, kind) in [
            (ExifTag.dateTimeOriginal, ExifTag.subSecTimeOriginal, ExifTag.offsetTimeOriginal, IFDKind.exif),
            (ExifTag.dateTimeDigitized, ExifTag.subSecTimeDigitized, ExifTag.offsetTimeDigitized, .exif),
            (ExifTag.dateTime, ExifTag.subSecTime, ExifTag.offsetTime, .ifd0),
        ] {
            guard captureTime == nil, let written = text(time, kind) else { continue }
            captureTime = CaptureTimestamp(
                dateTime: written, subSeconds: text(subSeconds, .exif),
                offset: text(offset, .exif))
        }
        var warnings = self.warnings
        location = exif.flatMap { GPSLocation.read($0, warnings: &warnings) }
        self.warnings = warnings
        if let name = metadata.icc?.name {
            colourProfile = name
        } else if let space = exif?.value(ExifTag.colorSpace, in: .exif)?.firstInteger {
            colourProfile = space == 1 ? "sRGB" : (space == 0xFFFF ? "Uncalibrated" : nil)
        }
    }

    /// The exposure time for people ("1/120 s", "2.5 s").
    public var shutterSpeed: String? { exposureTime.flatMap(DetailFormat.shutter) }
    /// "ƒ/1.8".
    public var aperture: String? { fNumber.map(DetailFormat.aperture) }
    /// "4.2 mm (26 mm in 35 mm film)", or either part alone.
    public var focalLength: String? {
        switch (focalLengthMillimetres, focalLength35mmMillimetres) {
        case (let mm?, let equivalent?): DetailFormat.focalLength(mm) + " (\(equivalent) mm in 35 mm film)"
        case (let mm?, nil): DetailFormat.focalLength(mm)
        case (nil, let equivalent?): "\(equivalent) mm in 35 mm film"
        case (nil, nil): nil
        }
    }
    /// "Apple iPhone 15 Pro": the model alone when it already starts with the make (as many cameras write it).
    public var camera: String? {
        switch (make, model) {
        case (let make?, let model?): model.lowercased().hasPrefix(make.lowercased()) ? model : make + " " + model
        case (let make?, nil): make
        case (nil, let model?): model
        case (nil, nil): nil
        }
    }
    public var fileSize: String { DetailFormat.fileSize(fileSizeBytes) }
}
