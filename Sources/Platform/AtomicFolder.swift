internal import CLinux
import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// Writes a whole folder that readers may be using (a finished HLS package) so that they see the old folder or
/// the new one, never a mix of both: everything is written into a hidden sibling, `.<name>.filterz-partial-<pid>`,
/// which replaces the folder in one step once it is complete (renameat2 RENAME_EXCHANGE; where the file system
/// cannot exchange, the old folder is moved aside to `.<name>.filterz-old-<pid>` and the new one renamed into
/// place, so for an instant there is no folder at all, still never a mix). On failure the sibling is removed and
/// the old folder is untouched.
///
/// A process killed on the way (`kill -9`) leaves its sibling behind; the next `begin` for the same folder
/// removes every sibling whose process is gone, and puts back an old folder moved aside whose replacement never
/// arrived. Siblings of a live process (another job writing the same folder) are left alone.
public struct AtomicFolder: Sendable {
    /// The folder being replaced, absolute, symbolic links resolved.
    public let path: String
    /// Where the new contents are written until `commit()`.
    public let stagingPath: String

    static let partialMarker = ".filterz-partial-"
    static let oldMarker = ".filterz-old-"

    /// Prepares an empty staging sibling for `path` (its parents are created if needed), after cleaning up
    /// what killed runs left.
    public static func begin(replacing path: String) throws(AtomicFile.WriteError) -> AtomicFolder {
        let target = absolute(path)
        guard let slash = target.lastIndex(of: "/"), target != "/" else {
            throw AtomicFile.WriteError(path: path, reason: "not a folder that can be replaced")
        }
        let parent = slash == target.startIndex ? "/" : String(target[..<slash])
        let name = String(target[target.index(after: slash)...])
        try AtomicFile.makeFolder(parent)
        removeLeftovers(parent: parent, name: name, target: target)
        let staging = sibling(parent, name, partialMarker, getpid())
        removeTree(staging)
        guard mkdir(staging, 0o755) == 0 else {
            throw AtomicFile.WriteError(path: staging, reason: String(cString: strerror(errno)))
        }
        return AtomicFolder(path: target, stagingPath: staging)
    }

    /// Puts the staged folder in place of `path`, and removes the old one.
    public func commit() throws(AtomicFile.WriteError) {
        var status = stat()
        guard lstat(path, &status) == 0 else {
            // Nothing to replace: one rename.
            guard rename(stagingPath, path) == 0 else { throw failure(path) }
            return
        }
        if filterz_rename_exchange(stagingPath, path) == 0 {
            Self.removeTree(stagingPath)  // the old contents, now under the staging name
            return
        }
        guard errno == EINVAL || errno == ENOSYS else { throw failure(path) }
        let aside = Self.sibling(parentPath, name, Self.oldMarker, getpid())
        Self.removeTree(aside)
        guard rename(path, aside) == 0 else { throw failure(path) }
        guard rename(stagingPath, path) == 0 else {
            let error = failure(path)
            _ = rename(aside, path)
            throw error
        }
        Self.removeTree(aside)
    }

    /// Removes the staging folder; the folder at `path` is as it was.
    public func discard() { Self.removeTree(stagingPath) }

    private var parentPath: String {
        path.lastIndex(of: "/").map { $0 == path.startIndex ? "/" : String(path[..<$0]) } ?? "."
    }
    private var name: String { path.lastIndex(of: "/").map { String(path[path.index(after: $0)...]) } ?? path }

    private func failure(_ path: String) -> AtomicFile.WriteError {
        AtomicFile.WriteError(path: path, reason: String(cString: strerror(errno)))
    }

    static func sibling(_ parent: String, _ name: String, _ marker: String, _ pid: pid_t) -> String {
        (parent == "/" ? "" : parent) + "/." + name + marker + String(pid)
    }

    /// `path` made absolute, without trailing slashes, `.` or `..`, and with symbolic links resolved where it
    /// exists (a link to a package folder replaces the folder it points to, not the link).
    static func absolute(_ path: String) -> String {
        let url = URL(fileURLWithPath: path).standardizedFileURL
        let resolved = FileManager.default.fileExists(atPath: url.path) ? url.resolvingSymlinksInPath() : url
        var text = resolved.path
        while text.count > 1 && text.hasSuffix("/") { text.removeLast() }
        return text
    }

    /// Removes the staging and moved-aside siblings of `name` that no live process owns; an old folder whose
    /// replacement never arrived goes back to `target` first.
    static func removeLeftovers(parent: String, name: String, target: String) {
        guard let entries = try? FileManager.default.contentsOfDirectory(atPath: parent) else { return }
        for entry in entries.sorted() {
            for marker in [partialMarker, oldMarker] {
                let prefix = "." + name + marker
                guard entry.hasPrefix(prefix), let pid = pid_t(entry.dropFirst(prefix.count)) else { continue }
                if pid != getpid() && (kill(pid, 0) == 0 || errno == EPERM) { continue }  // still at work
                let leftover = (parent == "/" ? "" : parent) + "/" + entry
                var status = stat()
                if marker == oldMarker && lstat(target, &status) != 0 && rename(leftover, target) == 0 { continue }
                removeTree(leftover)
            }
        }
    }

    /// Removes a file or a folder and everything in it, if it exists.
    static func removeTree(_ path: String) {
        try? FileManager.default.removeItem(atPath: path)
    }
}
