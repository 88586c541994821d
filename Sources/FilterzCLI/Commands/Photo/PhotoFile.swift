import CLIKit
import Inspect

/// A photo file's bytes, read once into one array of the file's size (`PlaylistFile.read`, no second copy).
enum PhotoFile {
    /// The largest photo file read: 4 GiB.
    static let maximumBytes = 4 << 30

    /// - Throws: `CLIError.input` naming the file (missing, unreadable, a folder, larger than 4 GiB).
    static func read(_ path: String) throws(CLIError) -> [UInt8] {
        try PlaylistFile.read(path, maximumBytes: maximumBytes, kind: "a photo")
    }
}
