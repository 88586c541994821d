internal import CLinux
import Parallel
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// Reports what appears, changes or goes anywhere below the served folder (inotify): a file renamed into place or
/// closed after writing, a file or folder created, removed or renamed away. The server learns of new parts and
/// playlist versions this way, whichever process writes them, and the catalogue of videos that come and go.
/// Folders created later are watched as they appear, and the files already in them when the watch begins are
/// reported too; the tree is watched to `maximumDepth` levels. When the kernel's queue overflows, the change
/// reported is `everything`.
final class FolderWatcher: @unchecked Sendable {
    static let maximumDepth = 8
    /// The path reported when events were lost: anything below the folder may have changed.
    static let everything = ""

    private let root: String
    private let inotify: Int32
    private let stopDescriptor: Int32
    private var folders: [Int32: String] = [:]
    private var thread: pthread_t?
    private let onChange: @Sendable ([String]) -> Void
    /// Held while events are read and reported (by the watcher's thread, or by a reader that drains first); guards
    /// the read buffer and `folders`.
    private let draining = Mutex([UInt8](repeating: 0, count: 64 * 1024))

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
        var ignored: [String]? = nil
        watch("", depth: 0, reporting: &ignored)
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

    /// Watches the folder `relative` and the folders below it; the files found in them are added to `found`
    /// when it is not nil (a folder that appeared may have been filled before its watch began).
    private func watch(_ relative: String, depth: Int, reporting found: inout [String]?) {
        let path = relative.isEmpty ? root : root + "/" + relative
        let mask = UInt32(
            IN_MOVED_TO | IN_CLOSE_WRITE | IN_CREATE | IN_DELETE | IN_MOVED_FROM | IN_ONLYDIR | IN_DONT_FOLLOW)
        let descriptor = inotify_add_watch(inotify, path, mask)
        guard descriptor >= 0 else { return }
        folders[descriptor] = relative
        guard depth < Self.maximumDepth, let directory = opendir(path) else { return }
        defer { closedir(directory) }
        while let entry = readdir(directory) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) {
                String(cString: $0.bindMemory(to: CChar.self).baseAddress!)
            }
            guard name != ".", name != "..", !name.hasPrefix(".") else { continue }
            let below = relative.isEmpty ? name : relative + "/" + name
            if entry.pointee.d_type == UInt8(DT_DIR) {
                watch(below, depth: depth + 1, reporting: &found)
            } else {
                found?.append(below)
            }
        }
    }

    private func run() {
        var polls = [
            pollfd(fd: inotify, events: Int16(POLLIN), revents: 0),
            pollfd(fd: stopDescriptor, events: Int16(POLLIN), revents: 0),
        ]
        while true {
            guard poll(&polls, 2, -1) >= 0 || errno == EINTR else { return }
            if polls[1].revents != 0 { return }
            drain()
        }
    }

    /// Reports every event queued so far. A change made before this call (a file renamed or closed: the kernel
    /// queues its event before the call that made it returns) has been reported when it returns, so a reader
    /// that drains first sees what its client wrote before asking.
    func drain() {
        draining.withLock { buffer in
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
                        changed.append(contentsOf: changes(event, name: nameBytes))
                    }
                }
            }
            if !changed.isEmpty { onChange(changed) }
        }
    }

    /// The paths one event reports (watching the folders that appeared).
    private func changes(_ event: inotify_event, name nameBytes: Slice<UnsafeRawBufferPointer>) -> [String] {
        if event.mask & UInt32(IN_Q_OVERFLOW) != 0 { return [Self.everything] }
        guard let folder = folders[event.wd], !nameBytes.isEmpty else { return [] }
        let name = String(decoding: nameBytes, as: UTF8.self)
        let relative = folder.isEmpty ? name : folder + "/" + name
        if event.mask & UInt32(IN_ISDIR) != 0 {
            guard !name.hasPrefix(".") else { return [] }
            guard event.mask & UInt32(IN_CREATE | IN_MOVED_TO) != 0 else { return [relative] }
            var found: [String]? = []
            watch(relative, depth: relative.split(separator: "/").count, reporting: &found)
            return [relative] + (found ?? [])
        }
        return event.mask & UInt32(IN_MOVED_TO | IN_CLOSE_WRITE | IN_DELETE | IN_MOVED_FROM) != 0 ? [relative] : []
    }
}
