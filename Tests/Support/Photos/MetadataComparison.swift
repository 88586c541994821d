/// exiftool's view of a source photo and of its filtered copy, compared tag by tag: what `photo apply` promises
/// about metadata, checked by a client nobody here wrote.
///
/// Compared: every tag of the EXIF groups (IFD0, ExifIFD, GPS, InteropIFD), of XMP (`XMP-*`) and of the ICC
/// profile (`ICC*`). Allowed to differ: Orientation (must be 1 in the output), the pixel dimensions (must be the
/// output's size), and the thumbnail's IFD1 (must be gone). Container groups (File, JFIF, PNG, QuickTime, …) and
/// exiftool's Composite tags are not metadata the photo carries and are not compared.
public enum MetadataComparison {
    /// Tags whose value must be the output's new size (keys without their group).
    static let widthTags: Set<String> = ["ExifImageWidth", "ImageWidth", "PixelXDimension"]
    static let heightTags: Set<String> = ["ExifImageHeight", "ImageHeight", "PixelYDimension"]

    static func isCarried(_ key: String) -> Bool {
        guard let group = key.split(separator: ":").first else { return false }
        return ["IFD0", "ExifIFD", "GPS", "InteropIFD"].contains(group) || group.hasPrefix("XMP-")
            || group.hasPrefix("ICC")
    }

    /// The differences, one sentence each (empty when the output keeps what it must).
    public static func differences(source: [String: String], output: [String: String], width: Int, height: Int)
        -> [String]
    {
        var problems: [String] = []
        for key in source.keys.sorted() where isCarried(key) {
            let name = String(key.split(separator: ":").last ?? "")
            let expected: String
            if name == "Orientation" {
                expected = "1"
            } else if widthTags.contains(name) {
                expected = "\(width)"
            } else if heightTags.contains(name) {
                expected = "\(height)"
            } else {
                expected = source[key] ?? ""
            }
            if output[key] != expected {
                problems.append(
                    "\(key): source \(source[key] ?? "-"), output \(output[key] ?? "missing"), expected \(expected)")
            }
        }
        for key in output.keys.sorted() where isCarried(key) && source[key] == nil {
            problems.append("\(key): not in the source, output \(output[key] ?? "")")
        }
        for key in output.keys.sorted() where key.hasPrefix("IFD1:") {
            problems.append("\(key): a thumbnail tag is still there")
        }
        for key in ["ExifTool:Warning", "ExifTool:Error"] where output[key] != nil {
            problems.append("\(key): exiftool says \(output[key] ?? "") about the output")
        }
        return problems
    }
}
