import CLIKit
import HLS
import JSON
import PhotoMetadata

/// The detail screen of `photo info`, as text rows or as JSON.
enum PhotoInfoReport {
    /// The rows shown, in order, for those fields the photo has.
    static func rows(_ d: PhotoDetails) -> [(String, String)] {
        var rows: [(String, String)] = []
        func add(_ label: String, _ value: String?) { if let value { rows.append((label, value)) } }
        add("Camera", d.camera)
        add("Lens", d.lensModel)
        add("Focal length", d.focalLength)
        add("Aperture", d.aperture)
        add("ISO", d.iso.map { "\($0)" })
        add("Shutter speed", d.shutterSpeed)
        add("Captured", d.captureTime?.display)
        if let location = d.location {
            add(
                "Location",
                DetailFormat.coordinate(location.latitude) + ", " + DetailFormat.coordinate(location.longitude)
                    + (location.altitudeMetres.map { ", altitude " + DetailFormat.altitude($0) } ?? ""))
            add("Map", location.mapLink)
        }
        if let width = d.pixelWidth, let height = d.pixelHeight {
            let megapixels = Double(width * height) / 1e6
            add(
                "Pixels",
                "\(width) × \(height)"
                    + (megapixels >= 0.1
                        ? " (\(fixedNumber(megapixels, digits: 1)) MP)" : ""))
        }
        // "6 — Rotate 90 CW": a dash, since exiftool's names have parentheses of their own ("Horizontal (normal)").
        add(
            "Orientation",
            d.orientation.map { value in "\(value)" + (DetailFormat.orientation(value).map { " — \($0)" } ?? "") })
        add("Colour profile", d.colourProfile)
        add("Format", d.format + (d.formatDetail.map { " (\($0))" } ?? ""))
        add("File size", d.fileSize)
        var metadata: [String] = []
        if d.exifEntryCount > 0 {
            metadata.append("EXIF (\(d.exifEntryCount) \(d.exifEntryCount == 1 ? "entry" : "entries"))")
        }
        if d.hasXMP { metadata.append("XMP") }
        add("Metadata", metadata.isEmpty ? "none" : metadata.joined(separator: ", "))
        return rows
    }

    static func text(_ details: PhotoDetails, file: String) -> String {
        let rows = rows(details)
        let width = rows.map(\.0.count).max() ?? 0
        return file + "\n"
            + rows.map { "  " + $0.0.padding(toLength: width + 2, withPad: " ", startingAt: 0) + $0.1 + "\n" }.joined()
    }

    static func json(_ d: PhotoDetails, file: String) -> JSONValue {
        var members: [(String, JSONValue)] = [("file", .string(file)), ("format", .string(d.format))]
        func add(_ key: String, _ value: JSONValue?) { if let value { members.append((key, value)) } }
        add("format_detail", d.formatDetail.map(JSONValue.string))
        add("pixel_width", d.pixelWidth.map(JSONValue.integer))
        add("pixel_height", d.pixelHeight.map(JSONValue.integer))
        members.append(("file_size_bytes", .integer(d.fileSizeBytes)))
        members.append(("file_size", .string(d.fileSize)))
        add("make", d.make.map(JSONValue.string))
        add("model", d.model.map(JSONValue.string))
        add("camera", d.camera.map(JSONValue.string))
        add("lens_model", d.lensModel.map(JSONValue.string))
        add("focal_length_mm", d.focalLengthMillimetres.map(JSONValue.number))
        add("focal_length_35mm_mm", d.focalLength35mmMillimetres.map(JSONValue.integer))
        add("f_number", d.fNumber.map(JSONValue.number))
        add("aperture", d.aperture.map(JSONValue.string))
        add("iso", d.iso.map(JSONValue.integer))
        if let exposure = d.exposureTime {
            members.append(("exposure_time", .string(exposure.description)))
            add("exposure_time_s", exposure.doubleValue.map(JSONValue.number))
        }
        add("shutter_speed", d.shutterSpeed.map(JSONValue.string))
        if let time = d.captureTime {
            members.append(("capture_time", .string(time.iso8601)))
            add("capture_time_offset", time.offset.map(JSONValue.string))
        }
        if let location = d.location {
            var gps: [(String, JSONValue)] = [
                ("latitude", .number(location.latitude)), ("longitude", .number(location.longitude)),
            ]
            if let altitude = location.altitudeMetres { gps.append(("altitude_m", .number(altitude))) }
            gps.append(("map_link", .string(location.mapLink)))
            members.append(("location", .object(gps)))
        }
        if let orientation = d.orientation {
            var value: [(String, JSONValue)] = [("value", .integer(Int(orientation)))]
            if let name = DetailFormat.orientation(orientation) { value.append(("description", .string(name))) }
            members.append(("orientation", .object(value)))
        }
        add("colour_profile", d.colourProfile.map(JSONValue.string))
        members.append(("exif_entries", .integer(d.exifEntryCount)))
        members.append(("xmp", .bool(d.hasXMP)))
        members.append(
            (
                "warnings",
                .array(
                    d.warnings.map { w in
                        .object([
                            ("severity", .string(w.severity.rawValue)), ("code", .string(w.code)),
                            ("message", .string(w.message)),
                        ])
                    })
            ))
        return .object(members)
    }
}
