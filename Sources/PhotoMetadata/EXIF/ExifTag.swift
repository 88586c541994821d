/// The tag numbers this module reads or changes (CIPA DC-008 EXIF 2.32, TIFF 6.0). Every other tag is carried as
/// written without being named.
public enum ExifTag {
    // IFD0 (TIFF)
    public static let imageWidth: UInt16 = 0x0100
    public static let imageLength: UInt16 = 0x0101
    public static let make: UInt16 = 0x010F
    public static let model: UInt16 = 0x0110
    public static let orientation: UInt16 = 0x0112
    public static let dateTime: UInt16 = 0x0132
    /// SubIFDs (TIFF Technical Note 1): further images of a TIFF or raw file; not carried.
    public static let subIFDs: UInt16 = 0x014A
    public static let exifIFDPointer: UInt16 = 0x8769
    public static let gpsIFDPointer: UInt16 = 0x8825
    // IFD1 (thumbnail)
    public static let jpegInterchangeFormat: UInt16 = 0x0201
    public static let jpegInterchangeFormatLength: UInt16 = 0x0202
    // ExifIFD
    public static let exposureTime: UInt16 = 0x829A
    public static let fNumber: UInt16 = 0x829D
    public static let photographicSensitivity: UInt16 = 0x8827
    public static let dateTimeOriginal: UInt16 = 0x9003
    public static let dateTimeDigitized: UInt16 = 0x9004
    public static let offsetTime: UInt16 = 0x9010
    public static let offsetTimeOriginal: UInt16 = 0x9011
    public static let offsetTimeDigitized: UInt16 = 0x9012
    public static let focalLength: UInt16 = 0x920A
    public static let makerNote: UInt16 = 0x927C
    public static let subSecTime: UInt16 = 0x9290
    public static let subSecTimeOriginal: UInt16 = 0x9291
    public static let subSecTimeDigitized: UInt16 = 0x9292
    public static let colorSpace: UInt16 = 0xA001
    public static let pixelXDimension: UInt16 = 0xA002
    public static let pixelYDimension: UInt16 = 0xA003
    public static let interopIFDPointer: UInt16 = 0xA005
    public static let focalLengthIn35mmFilm: UInt16 = 0xA405
    public static let lensMake: UInt16 = 0xA433
    public static let lensModel: UInt16 = 0xA434
    // GPS IFD
    public static let gpsLatitudeRef: UInt16 = 0x0001
    public static let gpsLatitude: UInt16 = 0x0002
    public static let gpsLongitudeRef: UInt16 = 0x0003
    public static let gpsLongitude: UInt16 = 0x0004
    public static let gpsAltitudeRef: UInt16 = 0x0005
    public static let gpsAltitude: UInt16 = 0x0006

    /// The tag in `kind` whose value is the offset of another IFD (rewritten by the writer), and which IFD.
    static func pointer(_ tag: UInt16, in kind: IFDKind) -> IFDKind? {
        switch (kind, tag) {
        case (.ifd0, exifIFDPointer): .exif
        case (.ifd0, gpsIFDPointer): .gps
        case (.exif, interopIFDPointer): .interop
        default: nil
        }
    }
}
