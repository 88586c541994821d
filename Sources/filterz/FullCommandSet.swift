import CLIKit
import Glibc

/// `filterz-full`, the executable with every command, installed in the same folder as `filterz`.
enum FullCommandSet {
    static let executableName = "filterz-full"

    /// Replaces this process with `filterz-full` run on `arguments` (its program name stays `filterz`, so its
    /// messages and help screens read as ours). Returns only if that fails, with exit status 2 and one line
    /// naming the file it looked for.
    static func exec(_ arguments: [String]) -> Never {
        let path = besideThisExecutable(executableName)
        var argv: [UnsafeMutablePointer<CChar>?] = (["filterz"] + arguments).map { strdup($0) }
        argv.append(nil)
        execv(path, &argv)
        let reason = String(cString: strerror(errno))
        let message = "filterz: error: cannot run \(path) (\(reason)); filterz-full must be installed beside filterz\n"
        _ = message.withCString { write(2, $0, strlen($0)) }
        exit(2)
    }

    /// `name` in the folder of the running executable (`/proc/self/exe`, symbolic links resolved).
    static func besideThisExecutable(_ name: String) -> String { (RunningExecutable.folder ?? "") + name }
}
