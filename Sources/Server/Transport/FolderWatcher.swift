internal import CLinux
import Parallel

#if canImport(Glibc)
    import Glibc
#endif

/// Reports files that appear or change anywhere below the served folder (inotify): a file renamed into place
/// or closed after writing. The server learns of new parts and playlist versions this way, whichever process
/// writes them. Folders created later are watched as they appear; the tree is watched to `maximumDepth` levels.
final class FolderWatcher: @unchecked Sendable {
    static let maximumDepth = 8

    private let root: String
    private let inotify: Int32
    private let stopDescriptor: Int32
    private var folders: [Int32: String] = [:]
    private var thread: pthread_t?
    private let onChange: @Sendable ([String]) -> Void

    /// Nil when inotify is not available (the server then re-checks held requests on its sweep instead).
    /// `onChange` receives paths below the folder, `/`-separated, on the watcher's own thread.
    init?(root: String, onChange: @escaping @Sendable ([String]) -> Void) {
        self.root = root
        self.onChange = onChange
        inotify = inotify_init1(Int32(IN_NONBLOCK | IN_CLOEXEC))
        stopDescriptor = filterz_eventfd()
        guard inotify >= 0, stopDescriptor >= 0 else {
            if inotify >= 0 { close(inotify) }
            if stopDescriptor >= 0 { close(stopDescriptor) }
            return nil
        }
        watch("", depth: 0)
        thread = ThreadStarter.start { [unowned self] in self.run() }
    }

    deinit {
        close(inotify)
        close(stopDescriptor)
    }

    /// Ends the watching thread and waits for it.
    func stop() {
        guard let running = thread else { return }
        thread = nil
        var one: UInt64 = 1
        _ = write(stopDescriptor, &one, 8)
        pthread_join(running, nil)
    }

    private func watch(_ relative: String, depth: Int) {
        let path = relative.isEmpty ? root : root + "/" + relative
        let mask = UInt32(IN_MOVED_TO | IN_CLOSE_WRITE | IN_CREATE | IN_ONLYDIR | IN_DONT_FOLLOW)
        let descriptor = inotify_add_watch(inotify, path, mask)
        guard descriptor >= 0 else { return }
        folders[descriptor] = relative
        guard depth < Self.maximumDepth, let directory = opendir(path) else { return }
        defer { closedir(directory) }
        while let entry = readdir(directory) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) {
                String(cString: $0.bindMemory(to: CChar.self).baseAddress!)
            }
            guard name != ".", name != "..", !name.hasPrefix("."), entry.pointee.d_type == UInt8(DT_DIR) else {
                continue
            }
            watch(relative.isEmpty ? name : relative + "/" + name, depth: depth + 1)
        }
    }

    private func run() {
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        var polls = [
            pollfd(fd: inotify, events: Int16(POLLIN), revents: 0),
            pollfd(fd: stopDescriptor, events: Int16(POLLIN), revents: 0),
        ]
        while true {
            guard poll(&polls, 2, -1) >= 0 || errno == EINTR else { return }
            if polls[1].revents != 0 { return }
            var changed: [String] = []
            while true {
                let count = buffer.withUnsafeMutableBytes { read(inotify, $0.baseAddress, $0.count) }
                guard count > 0 else { break }
                buffer.withUnsafeBytes { bytes in
                    var offset = 0
                    while offset + MemoryLayout<inotify_event>.size <= count {
                        let event = bytes.load(fromByteOffset: offset, as: inotify_event.self)
                        let nameStart = offset + MemoryLayout<inotify_event>.size
                        let nameBytes = bytes[nameStart..<min(count, nameStart + Int(event.len))].prefix { $0 != 0 }
                        offset = nameStart + Int(event.len)
                        guard let folder = folders[event.wd], !nameBytes.isEmpty else { continue }
                        let name = String(decoding: nameBytes, as: UTF8.self)
                        let relative = folder.isEmpty ? name : folder + "/" + name
                        if event.mask & UInt32(IN_ISDIR) != 0 {
                            if !name.hasPrefix(".") { watch(relative, depth: relative.split(separator: "/").count) }
                        } else if event.mask & UInt32(IN_MOVED_TO | IN_CLOSE_WRITE) != 0 {
                            changed.append(relative)
                        }
                    }
                }
            }
            if !changed.isEmpty { onChange(changed) }
        }
    }
}
