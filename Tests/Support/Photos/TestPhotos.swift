import FilterKit
import FilterzTestSupport
import Foundation
import PhotoMetadata
import Photos

/// Test photos made in the tests: simulated camera frames encoded by the `Photos` adapter (libjpeg-turbo, libpng,
/// libheif's x265 encoder), with EXIF written by exiftool where a test needs a camera's tags. No camera file is
/// committed.
public enum TestPhotos {
    /// A seeded camera frame (colour chart, skin tones, sky, moving shapes, noise): a photo's kind of content.
    public static func frame(width: Int, height: Int, seed: UInt64 = 7) -> Frame {
        SimulatedCamera(.init(width: width, height: height, durationSeconds: 2, seed: seed)).frame(atSeconds: 0.5).image
    }

    /// The mean absolute difference of the colour channels of two RGBA frames of the same size: how far a lossy
    /// codec's copy is from its source.
    public static func meanDifference(_ a: Frame, _ b: Frame) -> Double {
        let pa = a.packedBytes(), pb = b.packedBytes()
        var sum = 0, count = 0
        for i in pa.indices where i % 4 != 3 {
            sum += abs(Int(pa[i]) - Int(pb[i]))
            count += 1
        }
        return Double(sum) / Double(max(1, count))
    }

    /// `frame` encoded as `format`, with no metadata but the ICC profile when given.
    public static func encode(_ frame: Frame, as format: PhotoFormat, quality: Int = 95, iccProfile: [UInt8]? = nil)
        throws -> [UInt8]
    {
        try PhotoWriter.encode(frame, metadata: CarriedMetadata(iccProfile: iccProfile), as: format, quality: quality)
            .bytes
    }

    /// A small JPEG with its frame header (SOF0) cut out: tables and scan data, but no size or components.
    public static func jpegWithoutFrameHeader() throws -> [UInt8] {
        let encoded = try encode(frame(width: 16, height: 16), as: .jpeg)
        guard let sof = JPEGStructure.scan(encoded).structure?.segments.first(where: { $0.marker == 0xC0 }) else {
            throw CocoaError(.fileReadCorruptFile)
        }
        return Array(encoded[..<sof.start]) + Array(encoded[sof.payload.upperBound...])
    }

    /// Writes a camera-like photo to `path` (format by extension): `frame` encoded, then the tags of
    /// `cameraTags(orientation:)`, an EXIF thumbnail (IFD1, a 16 × 12 JPEG) and `makerNote` written by exiftool.
    public static func writeCameraPhoto(
        _ frame: Frame, to path: String, orientation: Int = 1,
        extraTags: [String] = [], iccProfile: [UInt8]? = nil
    ) throws {
        let format = PhotoFormat.forOutput(path) ?? .jpeg
        try Data(encode(frame, as: format, iccProfile: iccProfile)).write(to: URL(fileURLWithPath: path))
        let thumbnail = path + ".thumbnail.jpg", note = path + ".makernote"
        defer { for file in [thumbnail, note] { try? FileManager.default.removeItem(atPath: file) } }
        try Data(encode(Self.frame(width: 16, height: 12, seed: 3), as: .jpeg, quality: 80)).write(
            to: URL(fileURLWithPath: thumbnail))
        try Data(makerNote).write(to: URL(fileURLWithPath: note))
        let size = ["-ExifIFD:ExifImageWidth=\(frame.width)", "-ExifIFD:ExifImageHeight=\(frame.height)"]
        let blocks = ["-ThumbnailImage<=\(thumbnail)", "-MakerNotes<=\(note)"]
        try ExifTool.write(cameraTags(orientation: orientation) + size + blocks + extraTags, to: path)
    }

    /// The test photos' MakerNote: an IFD in big-endian order (exiftool's for new EXIF) of three entries with their
    /// values inline (SHORT 7, LONG 123456, ASCII "FZ"), which exiftool reads as `MakerUnknown` tags with `-u`.
    public static let makerNote: [UInt8] = [
        0, 3,
        0, 1, 0, 3, 0, 0, 0, 1, 0, 7, 0, 0,
        0, 2, 0, 4, 0, 0, 0, 1, 0, 1, 0xE2, 0x40,
        0, 3, 0, 2, 0, 0, 0, 3, 0x46, 0x5A, 0, 0,
        0, 0, 0, 0,
    ]

    /// The tags of a phone camera's photo: make, model, lens, focal length and its 35 mm equivalent, aperture, ISO,
    /// exposure, capture time with sub-seconds and offset, a GPS block (Tokyo Tower, 150 m), the orientation,
    /// colour space, a user comment (UNDEFINED), an SRATIONAL (exposure bias), and XMP. `writeCameraPhoto` adds the
    /// pixel dimensions (ExifIFD) of the stored frame.
    public static func cameraTags(orientation: Int) -> [String] {
        [
            "-IFD0:Make=Filterz", "-IFD0:Model=Test Camera 12", "-IFD0:Software=filterz tests",
            "-IFD0:Orientation=\(orientation)", "-IFD0:XResolution=72", "-IFD0:YResolution=72",
            "-IFD0:ResolutionUnit=2",
            "-IFD0:ModifyDate=2024:05:01 14:03:25",
            "-ExifIFD:LensModel=Test Lens 4.2mm f/1.8", "-ExifIFD:LensMake=Filterz",
            "-ExifIFD:FocalLength=4.2", "-ExifIFD:FocalLengthIn35mmFormat=26", "-ExifIFD:FNumber=1.8",
            "-ExifIFD:ISO=125", "-ExifIFD:ExposureTime=0.008333333333", "-ExifIFD:ExposureCompensation=-0.7",
            "-ExifIFD:DateTimeOriginal=2024:05:01 14:03:22", "-ExifIFD:SubSecTimeOriginal=120",
            "-ExifIFD:OffsetTimeOriginal=+09:00", "-ExifIFD:CreateDate=2024:05:01 14:03:22",
            "-ExifIFD:ColorSpace=1", "-ExifIFD:UserComment=made in the tests",
            "-GPS:GPSLatitudeRef=N", "-GPS:GPSLatitude=35.658581", "-GPS:GPSLongitudeRef=E",
            "-GPS:GPSLongitude=139.745433", "-GPS:GPSAltitudeRef=0", "-GPS:GPSAltitude=150.5",
            "-GPS:GPSVersionID=2 3 0 0", "-GPS:GPSMapDatum=WGS-84",
            "-XMP-dc:Creator=Filterz tests", "-XMP-dc:Title=Test photo", "-XMP-tiff:Orientation=\(orientation)",
        ]
    }
}
