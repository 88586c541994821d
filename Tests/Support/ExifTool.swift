import Foundation
import RealClients

/// Phil Harvey's exiftool (Debian `libimage-exiftool-perl`), the independent client the photo tests read and write
/// metadata with.
public enum ExifTool {
    public static var isInstalled: Bool { ExternalTool.isInstalled("exiftool") }

    /// A skip reason for `.enabled(if:)`-less tests that need exiftool.
    public static let missing = "exiftool is not installed (make deps installs libimage-exiftool-perl)"

    /// Writes tags (`"-Make=Canon"`, `"-GPSLatitude=35.6"`, …) into `path` in place.
    @discardableResult
    public static func write(_ assignments: [String], to path: String) throws -> ExternalTool.Result {
        let result = try ExternalTool.run("exiftool", ["-q", "-overwrite_original", "-n"] + assignments + [path])
        if result.exitCode != 0 { throw ToolFailure(command: "exiftool", output: result.stderr + result.stdout) }
        return result
    }

    /// Every tag exiftool reads in `path`, keyed `Group1:Name` (`IFD0:Make`, `ExifIFD:ISO`, `GPS:GPSLatitude`,
    /// `XMP-dc:Creator`, `ICC_Profile:ProfileDescription`), values as exiftool's JSON prints them with `-n`
    /// (numbers as numbers), rendered as text for comparison.
    public static func tags(of path: String) throws -> [String: String] {
        let result = try ExternalTool.run("exiftool", ["-j", "-G1", "-a", "-n", "-b", path])
        guard result.exitCode == 0, let data = result.stdout.data(using: .utf8),
            let array = try JSONSerialization.jsonObject(with: data) as? [[String: Any]], let object = array.first
        else { throw ToolFailure(command: "exiftool -j", output: result.stderr + result.stdout) }
        var tags: [String: String] = [:]
        for (key, value) in object { tags[key] = "\(value)" }
        return tags
    }

    public struct ToolFailure: Error, CustomStringConvertible {
        public var command: String
        public var output: String
        public var description: String { "\(command) failed: \(output)" }
    }
}
