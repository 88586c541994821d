import FilterKit
import FilterzTestSupport
import Foundation
import PhotoMetadata
import PhotoTestSupport
import Photos
import RealClients
import Testing

@testable import CLIKit
@testable import FilterzCLI
@testable import Inspect

/// `filterz photo info`: the app's detail screen from a camera photo's tags (written by exiftool), as text and
/// JSON; broken metadata as warnings with what could be read.
@Suite struct PhotoInfoCommandTests {
    /// The value of the row labelled `label` in the text screen (the labels' column width varies with the rows shown).
    static func row(_ label: String, in text: String) -> String? {
        for line in text.split(separator: "\n") where line.hasPrefix("  " + label + " ") {
            return line.dropFirst(2 + label.count).trimmingCharacters(in: .whitespaces)
        }
        return nil
    }

    @Test(.enabled(if: ExifTool.isInstalled, "\(ExifTool.missing)"))
    func theDetailScreenShowsTheCamerasTags() throws {
        let folder = try TemporaryFolder(prefix: "filterz-info")
        let path = folder.url.appendingPathComponent("IMG_0001.jpg").path
        try TestPhotos.writeCameraPhoto(TestPhotos.frame(width: 64, height: 48), to: path, orientation: 6)
        let size = try #require(FileManager.default.attributesOfItem(atPath: path)[.size] as? Int)
        let result = runFilterz(["photo", "info", path])
        #expect(result.code == 0, "\(result.err)")
        #expect(result.err.isEmpty, "\(result.err)")
        let expected = """
            \(path)
              Camera          Filterz Test Camera 12
              Lens            Test Lens 4.2mm f/1.8
              Focal length    4.2 mm (26 mm in 35 mm film)
              Aperture        ƒ/1.8
              ISO             125
              Shutter speed   1/120 s
              Captured        2024-05-01 14:03:22 +09:00
              Location        35.658581, 139.745433, altitude 150.5 m
              Map             https://www.openstreetmap.org/?mlat=35.658581&mlon=139.745433#map=17/35.658581/139.745433
              Pixels          48 × 64
              Orientation     6 — Rotate 90 CW
              Colour profile  sRGB
              Format          JPEG (baseline, YCbCr, 8-bit)
              File size       \(DetailFormat.fileSize(size))

            """
        // Every row but the metadata count, which depends on how many tags exiftool adds of its own.
        let rows = result.out.split(separator: "\n", omittingEmptySubsequences: false).filter {
            !$0.contains("Metadata")
        }
        #expect(rows.joined(separator: "\n") == expected)
        #expect(result.out.contains("  Metadata        EXIF ("), "\(result.out)")
    }

    /// The Orientation row for every value: the number, then exiftool's name after a dash (no parentheses inside
    /// parentheses); a value outside 1–8 alone.
    @Test(arguments: [
        (1, "1 — Horizontal (normal)"), (2, "2 — Mirror horizontal"), (3, "3 — Rotate 180"),
        (4, "4 — Mirror vertical"), (5, "5 — Mirror horizontal and rotate 270 CW"), (6, "6 — Rotate 90 CW"),
        (7, "7 — Mirror horizontal and rotate 90 CW"), (8, "8 — Rotate 270 CW"), (9, "9"),
    ])
    func theOrientationRowReadsAsValueAndName(_ value: UInt16, _ expected: String) {
        let ifd0 = IFD(kind: .ifd0, entries: [.short(ExifTag.orientation, value, order: .bigEndian)])
        let details = PhotoDetails(
            format: "JPEG", storedWidth: 4, storedHeight: 3, fileSizeBytes: 100,
            metadata: CarriedMetadata(exif: ExifMetadata(byteOrder: .bigEndian, ifd0: ifd0)))
        let row = PhotoInfoReport.rows(details).first { $0.0 == "Orientation" }
        #expect(row?.1 == expected)
    }

    @Test(.enabled(if: ExifTool.isInstalled, "\(ExifTool.missing)"))
    func jsonHasTheSameFactsWithUnitsInTheKeys() throws {
        let folder = try TemporaryFolder(prefix: "filterz-info")
        let path = folder.url.appendingPathComponent("photo.png").path
        try TestPhotos.writeCameraPhoto(TestPhotos.frame(width: 30, height: 20), to: path, orientation: 1)
        let result = runFilterz(["photo", "info", path, "--json"])
        #expect(result.code == 0, "\(result.err)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(result.out.utf8)) as? [String: Any])
        #expect(object["format"] as? String == "PNG")
        #expect(object["format_detail"] as? String == "8-bit RGB")
        #expect(object["pixel_width"] as? Int == 30 && object["pixel_height"] as? Int == 20)
        #expect(object["camera"] as? String == "Filterz Test Camera 12")
        #expect(object["f_number"] as? Double == 1.8 && object["aperture"] as? String == "ƒ/1.8")
        #expect(object["iso"] as? Int == 125)
        #expect(object["shutter_speed"] as? String == "1/120 s")
        #expect(object["focal_length_mm"] as? Double == 4.2 && object["focal_length_35mm_mm"] as? Int == 26)
        #expect(object["capture_time"] as? String == "2024-05-01T14:03:22.120+09:00")
        #expect(object["capture_time_offset"] as? String == "+09:00")
        let location = try #require(object["location"] as? [String: Any])
        #expect(abs((location["latitude"] as? Double ?? 0) - 35.658581) < 1e-6)
        #expect(abs((location["longitude"] as? Double ?? 0) - 139.745433) < 1e-6)
        #expect(location["altitude_m"] as? Double == 150.5)
        #expect((object["orientation"] as? [String: Any])?["value"] as? Int == 1)
        #expect(object["xmp"] as? Bool == true)
        #expect((object["warnings"] as? [Any])?.isEmpty == true)
    }

    @Test func aPhotoWithoutMetadataShowsOnlyWhatItHas() throws {
        let folder = try TemporaryFolder(prefix: "filterz-info")
        let path = folder.url.appendingPathComponent("plain.png").path
        try Data(TestPhotos.encode(TestPhotos.frame(width: 10, height: 10), as: .png)).write(
            to: URL(fileURLWithPath: path))
        let result = runFilterz(["photo", "info", path])
        #expect(result.code == 0)
        let labels = result.out.split(separator: "\n").dropFirst().map {
            $0.trimmingCharacters(in: .whitespaces).prefix(while: { $0 != " " })
        }
        #expect(labels == ["Pixels", "Format", "File", "Metadata"], "\(result.out)")
        #expect(Self.row("Metadata", in: result.out) == "none")
    }

    /// A small JPEG with `tiff` as its EXIF APP1 segment, right after SOI.
    static func jpeg(withEXIF tiff: [UInt8]) throws -> [UInt8] {
        let encoded = try TestPhotos.encode(TestPhotos.frame(width: 16, height: 16), as: .jpeg)
        let payload = Array("Exif\0\0".utf8) + tiff
        let app1: [UInt8] = [0xFF, 0xE1, UInt8((payload.count + 2) >> 8), UInt8((payload.count + 2) & 0xFF)] + payload
        return Array(encoded[0..<2]) + app1 + Array(encoded[2...])
    }

    /// An IFD0 of 60 entries of an unknown type, with its other tags out of order and repeated: one stderr line per
    /// kind of problem (with its count), and `photo apply` writes the entries sorted, the first of each tag kept.
    @Test func aBrokenIFDIsOneLinePerProblemAndIsWrittenInTagOrder() throws {
        let o = ByteOrder.bigEndian
        func entry(_ tag: UInt16, _ type: UInt16, _ field: [UInt8]) -> [UInt8] {
            o.bytes(tag) + o.bytes(type) + o.bytes(UInt32(field.count / (type == 3 ? 2 : 1))) + field
                + [UInt8](repeating: 0, count: 4 - field.count)
        }
        let entries =
            [
                entry(0x0112, 3, o.bytes(UInt16(6))), entry(0x010F, 2, Array("Cam\0".utf8)),
                entry(0x0112, 3, o.bytes(UInt16(3))), entry(0x010F, 2, Array("Dup\0".utf8)),
            ] + (0..<60).map { entry(UInt16(0x1000 + $0), 99, [0, 0, 0, 0]) }
        let tiff =
            o.marker + o.bytes(UInt16(42)) + o.bytes(UInt32(8)) + o.bytes(UInt16(entries.count))
            + entries.flatMap { $0 } + o.bytes(UInt32(0))
        let folder = try TemporaryFolder(prefix: "filterz-info")
        let path = folder.url.appendingPathComponent("unsorted.jpg").path
        try Data(Self.jpeg(withEXIF: tiff)).write(to: URL(fileURLWithPath: path))
        let expected = [
            "\(path): warning: IFD0 tag 0x1000 has unknown type 99; dropped (its size is unknown) (and 59 more like it) [exif.unknown-type]",
            "\(path): warning: IFD0 repeats tags 0x112, 0x10F; the first entry of each is kept [exif.duplicate-tag]",
            "\(path): warning: IFD0's entries are not in ascending tag order; they are written in that order [exif.entry-order]",
        ]
        let info = runFilterz(["photo", "info", path])
        #expect(info.code == 0)
        #expect(info.err.split(separator: "\n").map(String.init) == expected)
        #expect(Self.row("Camera", in: info.out) == "Cam")
        #expect(Self.row("Orientation", in: info.out) == "6 — Rotate 90 CW")
        let output = folder.url.appendingPathComponent("sorted.jpg").path
        let applied = PhotoApplyCommandTests.run(["photo", "apply", path, "--preset", "noir", "-o", output])
        #expect(applied.code == 0)
        #expect(applied.err.split(separator: "\n").map(String.init) == expected)
        let written = try #require(
            try PhotoReader.decode(PhotoApplyCommandTests.bytes(output)).metadata.exif, "the output has EXIF")
        #expect(written.ifd0.entries.map(\.tag) == [0x010F, 0x0112])
        #expect(written.value(0x010F, in: .ifd0)?.text == "Cam")
        #expect(written.orientation == 1)
        let again = runFilterz(["photo", "info", output])
        #expect(again.err.isEmpty, "\(again.err)")
    }

    /// EXIF whose IFDs loop and whose GPS pointer is dangling, in a JPEG: warnings, and the tags before the damage.
    @Test func malformedExifIsAWarningWithWhatCouldBeRead() throws {
        let order = ByteOrder.bigEndian
        var tiff = order.marker + order.bytes(UInt16(42)) + order.bytes(UInt32(8))
        let entries: [[UInt8]] = [
            order.bytes(UInt16(0x010F)) + order.bytes(UInt16(2)) + order.bytes(UInt32(4)) + Array("Cam\0".utf8),
            order.bytes(UInt16(0x8825)) + order.bytes(UInt16(4)) + order.bytes(UInt32(1)) + order.bytes(UInt32(60_000)),
            order.bytes(UInt16(0x8769)) + order.bytes(UInt16(4)) + order.bytes(UInt32(1)) + order.bytes(UInt32(8)),
        ]
        tiff += order.bytes(UInt16(entries.count)) + entries.flatMap { $0 } + order.bytes(UInt32(8))
        let folder = try TemporaryFolder(prefix: "filterz-info")
        let path = folder.url.appendingPathComponent("broken.jpg").path
        try Data(Self.jpeg(withEXIF: tiff)).write(to: URL(fileURLWithPath: path))
        let result = runFilterz(["photo", "info", path])
        #expect(result.code == 0)
        #expect(Self.row("Camera", in: result.out) == "Cam")
        #expect(Self.row("Metadata", in: result.out) == "EXIF (1 entry)")
        #expect(
            result.err.contains("warning: GPS at offset 60000 lies outside the 50-byte EXIF block [exif.ifd-offset]"),
            "\(result.err)")
        #expect(result.err.contains("[exif.ifd-loop]"), "\(result.err)")
        // photo apply writes what could be read, and the result reads back clean.
        let output = folder.url.appendingPathComponent("fixed.jpg").path
        let applied = PhotoApplyCommandTests.run(["photo", "apply", path, "--preset", "noir", "-o", output])
        #expect(applied.code == 0)
        let again = runFilterz(["photo", "info", output])
        #expect(again.err.isEmpty, "\(again.err)")
        #expect(Self.row("Camera", in: again.out) == "Cam")
    }

    /// A JPEG whose frame header (SOF) is cut out has no size: both commands fail naming the file, never showing or
    /// writing a 0 × 0 photo.
    @Test func aJPEGWithoutAFrameHeaderIsAFailureNamingTheFile() throws {
        let noFrame = try TestPhotos.jpegWithoutFrameHeader()
        #expect(JPEGStructure.scan(noFrame).structure?.frame == nil)
        let folder = try TemporaryFolder(prefix: "filterz-info")
        let path = folder.url.appendingPathComponent("no-frame.jpg").path
        try Data(noFrame).write(to: URL(fileURLWithPath: path))
        let message = "not a complete JPEG: it has no frame header (SOF marker), so it holds no picture"
        let info = runFilterz(["photo", "info", path])
        #expect(info.code == 1)
        #expect(info.out.isEmpty, "\(info.out)")
        #expect(info.err.contains("\(path): \(message)"), "\(info.err)")
        let output = folder.url.appendingPathComponent("out.jpg").path
        let applied = PhotoApplyCommandTests.run(["photo", "apply", path, "--preset", "noir", "-o", output])
        #expect(applied.code == 1)
        #expect(applied.err.contains("\(path): error: \(message)"), "\(applied.err)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.url.path) == ["no-frame.jpg"])
    }

    @Test func notAPhotoIsAFailureAndAMissingFileIsUnreadable() throws {
        let folder = try TemporaryFolder(prefix: "filterz-info")
        let text = folder.url.appendingPathComponent("notes.txt").path
        try Data("hello".utf8).write(to: URL(fileURLWithPath: text))
        let notPhoto = runFilterz(["photo", "info", text])
        #expect(notPhoto.code == 1)
        #expect(
            notPhoto.err.contains("not a JPEG, PNG or HEIC/HEIF photo (it starts with \"hello\")"), "\(notPhoto.err)")
        let missing = runFilterz(["photo", "info", folder.url.appendingPathComponent("none.jpg").path])
        #expect(missing.code == 2)
        #expect(missing.err.contains("no such file"))
    }

    /// `photo info` reads the file once, into one buffer of its size (it used to hold it twice: 2.1 GB for 1 GiB):
    /// on a 320 MiB file — a small picture, then padding (bytes after JPEG's EOI and PNG's IEND, a HEIF `free`
    /// box) — the process's peak (GNU time's maximum resident set) stays under 1.5 times the file.
    @Test(.slow, arguments: PhotoFormat.allCases)
    func aLargeFileIsReadOnce(_ format: PhotoFormat) throws {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/time") else {
            Issue.record("GNU time (/usr/bin/time, package time) is not installed; the peak is not measured")
            return
        }
        let folder = try TemporaryFolder(prefix: "filterz-info")
        let path = folder.url.appendingPathComponent("large.\(format.fileExtension)").path
        let size = 320 << 20
        let photo = try TestPhotos.encode(TestPhotos.frame(width: 64, height: 48), as: format)
        let padding = size - photo.count
        // A HEIF box: 32-bit size, type, content.
        let head: [UInt8] =
            format == .heif
            ? [UInt8(padding >> 24), UInt8(padding >> 16 & 0xFF), UInt8(padding >> 8 & 0xFF), UInt8(padding & 0xFF)]
                + Array("free".utf8) : []
        FileManager.default.createFile(atPath: path, contents: Data(photo + head))
        let file = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
        try file.seekToEnd()
        let chunk = Data(count: 1 << 20)
        var written = photo.count + head.count
        while written < size {
            try file.write(contentsOf: chunk.prefix(min(chunk.count, size - written)))
            written += min(chunk.count, size - written)
        }
        try file.close()
        let child = try FilterzChild(
            ["photo", "info", path], launcher: ["/usr/bin/time", "-f", "peak-kb %M"], logs: folder.url)
        #expect(child.waitForExit(timeoutSeconds: 120) == 0, "\(child.stderr)")
        #expect(child.stdout.contains("64 × 48"), "\(child.stdout)")
        let line = child.stderr.split(separator: "\n").last { $0.hasPrefix("peak-kb ") }
        let peak = try #require(
            line.flatMap { Int($0.dropFirst("peak-kb ".count)) }.map { $0 * 1024 }, "\(child.stderr)")
        #expect(peak < size + size / 2, "peak \(peak >> 20) MiB for a \(size >> 20) MiB file")
    }
}
