import Foundation

/// What `--out` may hold for a VOD ladder to replace it whole: nothing, or what a package writes
/// (`master.m3u8`, `poster.jpg`, `filter.json`, `audio/`, `subs/`, rendition folders such as `720p/`, hidden
/// temporary files). Anything else is refused, since the swap would delete it.
enum PackageFolder {
    static func checkReplaceable(_ path: String) throws(RecordingError) {
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isFolder) else { return }
        guard isFolder.boolValue else { throw .outputNotReplaceable("--out \(path) is a file, not a folder") }
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []
        let foreign = entries.filter { !isPackageEntry($0) }.sorted()
        guard foreign.isEmpty else {
            let names = foreign.prefix(3).joined(separator: ", ") + (foreign.count > 3 ? ", …" : "")
            throw .outputNotReplaceable(
                "--out \(path) holds files that are not from a filterz package (\(names)); replacing it would delete "
                    + "them: give a new or empty folder")
        }
    }

    static func isPackageEntry(_ name: String) -> Bool {
        if name.hasPrefix(".") || ["master.m3u8", "poster.jpg", "filter.json", "audio", "subs"].contains(name) {
            return true
        }
        return name.count > 1 && name.hasSuffix("p") && name.dropLast().allSatisfy { $0.isASCII && $0.isNumber }
    }
}
