import Platform
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// The content keys of one video in a key folder, made on first use: `key(n)` draws key `n` from the kernel's
/// CSPRNG and writes it to `<folder>/<n>.key` (16 raw bytes, mode 0600, written to a hidden temporary name,
/// synced, then renamed into place) before returning it, so a segment encrypted with a key is never written
/// before the key is on disk. Thread-safe: the writer threads of every track share one ring, and the first to
/// ask for a key makes it.
public final class KeyRing: Sendable {
    /// The folder holding this video's keys.
    public let folder: String
    private let keys = Mutex<[Int: ContentKey]>([:])

    /// - Throws: `EncryptionError.keyFile` when the folder cannot be made (created with mode 0700, parents too).
    public init(folder: String) throws(EncryptionError) {
        self.folder = folder
        try Self.makeFolder(folder)
    }

    /// `3.key`: the file name of key `index` (the last path segment of its key URI, too).
    public static func fileName(_ index: Int) -> String { "\(index).key" }

    /// Key `index`, made and written on the first call.
    public func key(_ index: Int) throws(EncryptionError) -> ContentKey {
        try keys.withLock { (made: inout [Int: ContentKey]) throws(EncryptionError) -> ContentKey in
            if let key = made[index] { return key }
            let key = try ContentKey.random()
            try Self.write(key, to: folder + "/" + Self.fileName(index))
            made[index] = key
            return key
        }
    }

    /// The indices of the keys made so far.
    public var madeIndices: [Int] { keys.withLock { $0.keys.sorted() } }

    /// Reads a key file: exactly 16 bytes.
    public static func read(_ path: String) throws(EncryptionError) -> ContentKey {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw .keyFile(path: path, reason: String(cString: strerror(errno))) }
        defer { close(descriptor) }
        var buffer = [UInt8](repeating: 0, count: AES128CBC.keyBytes + 1)
        var filled = 0
        while filled < buffer.count {
            let got = buffer.withUnsafeMutableBytes { raw -> Int in
                guard let base = raw.baseAddress else { return 0 }
                return Glibc.read(descriptor, base + filled, raw.count - filled)
            }
            if got < 0 && errno == EINTR { continue }
            if got < 0 { throw .keyFile(path: path, reason: String(cString: strerror(errno))) }
            if got == 0 { break }
            filled += got
        }
        guard filled == AES128CBC.keyBytes else {
            let size = filled > AES128CBC.keyBytes ? "more" : "\(filled)"
            throw .keyFile(path: path, reason: "a key file holds exactly 16 bytes, this one \(size)")
        }
        return try ContentKey(bytes: Array(buffer.prefix(AES128CBC.keyBytes)))
    }

    /// Writes `key` to `path` with mode 0600, atomically and durably (`AtomicFile`: a temporary name in the
    /// same folder, fsync, rename).
    public static func write(_ key: ContentKey, to path: String) throws(EncryptionError) {
        do {
            try AtomicFile.write(key.bytes, to: path, mode: 0o600, durable: true)
        } catch {
            throw .keyFile(path: path, reason: error.reason)
        }
    }

    /// `mkdir -p` with mode 0700 for the folders it creates.
    public static func makeFolder(_ path: String) throws(EncryptionError) {
        do {
            try AtomicFile.makeFolder(path, mode: 0o700)
        } catch {
            throw .keyFile(path: path, reason: error.reason)
        }
    }
}
