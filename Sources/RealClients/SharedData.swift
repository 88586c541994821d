import Foundation

/// Locates the repository and the read-only `../shared` folder (corpus, traces, manifests, reference)
/// that sits beside the clone, locally and in CI. `FILTERZ_SHARED` overrides the location.
public enum SharedData {
    /// The package root (the folder holding Package.swift).
    public static let packageRoot: URL = {
        var url = URL(fileURLWithPath: #filePath)
        while url.path != "/" {
            url.deleteLastPathComponent()
            if FileManager.default.fileExists(atPath: url.appendingPathComponent("Package.swift").path) {
                return url
            }
        }
        return URL(fileURLWithPath: FileManager.default.currentDirectoryPath)
    }()

    /// `../shared` beside the package, or `$FILTERZ_SHARED`; nil when absent.
    public static let root: URL? = {
        if let override = ProcessInfo.processInfo.environment["FILTERZ_SHARED"] {
            return URL(fileURLWithPath: override)
        }
        let url = packageRoot.deletingLastPathComponent().appendingPathComponent("shared")
        return FileManager.default.fileExists(atPath: url.path) ? url : nil
    }()

    public static var isAvailable: Bool { root != nil }

    /// A folder inside shared/, e.g. `corpus/playlists`.
    public static func folder(_ relativePath: String) -> URL? {
        guard let root else { return nil }
        let url = root.appendingPathComponent(relativePath)
        return FileManager.default.fileExists(atPath: url.path) ? url : nil
    }

    /// The sample media committed with the repository.
    public static var sampleMedia: URL { packageRoot.appendingPathComponent("SampleMedia") }
}
