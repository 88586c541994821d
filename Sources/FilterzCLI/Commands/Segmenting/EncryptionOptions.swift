import CLIKit
import Encryption
import Foundation
import Media
import Packaging
import Platform

/// `--encrypt aes-128 [--key-rotation N] [--keys DIR]` of `record` and `package`.
struct EncryptionOptions {
    /// Segments per key; nil: one key for the whole video.
    var segmentsPerKey: Int?
    /// The folder holding one key folder per video (`<keys>/<video id>/<n>.key`).
    var keysFolder: String

    static let encrypt = Option.optional(
        "--encrypt", placeholder: "aes-128",
        help: "Encrypt video and audio segments (AES-128-CBC, RFC 8216bis §5.2); subtitles stay clear.")
    static let keyRotation = Option.optionalInteger(
        "--key-rotation", placeholder: "n", in: 1...1_000_000,
        help: "With --encrypt: a new key every n segments (default: one key per video).")
    static let keys = Option.optional(
        "--keys", placeholder: "folder", shownDefault: "~/.local/state/filterz/keys",
        help: "With --encrypt: where keys go, as <folder>/<video id>/<n>.key (mode 0600); never inside --out.")

    static let specs: [OptionSpec] = [encrypt.spec, keyRotation.spec, keys.spec]

    /// Nil without `--encrypt`. `environment` (the command's) places the default keys folder.
    static func parse(
        _ args: ParsedArguments, outputFolder: String, environment: [String: String]
    ) throws(CLIError) -> EncryptionOptions? {
        guard let method = try args.get(encrypt) else {
            if args.isGiven(keyRotation) { throw .usage("\(keyRotation.name) needs --encrypt aes-128") }
            if args.isGiven(keys) { throw .usage("\(keys.name) needs --encrypt aes-128") }
            return nil
        }
        guard method == "aes-128" else { throw .usage("--encrypt expects aes-128, got '\(method)'") }
        let segmentsPerKey = try args.get(keyRotation)
        let keys = absolute(try args.get(Self.keys) ?? defaultKeysFolder(environment))
        let out = absolute(outputFolder)
        if keys == out || keys.hasPrefix(out + "/") {
            throw .usage("--keys \(keys) is inside --out \(out), where anyone who can read the segments reads the keys")
        }
        return EncryptionOptions(segmentsPerKey: segmentsPerKey, keysFolder: keys)
    }

    /// `$XDG_STATE_HOME/filterz/keys`, or `~/.local/state/filterz/keys`: outside every folder a package is
    /// written to or served from.
    static func defaultKeysFolder(_ environment: [String: String]) -> String {
        if let state = environment["XDG_STATE_HOME"], state.hasPrefix("/") { return state + "/filterz/keys" }
        return (environment["HOME"] ?? NSHomeDirectory()) + "/.local/state/filterz/keys"
    }

    static func absolute(_ path: String) -> String {
        let expanded = path.hasPrefix("~/") ? NSHomeDirectory() + path.dropFirst() : path
        var text = URL(fileURLWithPath: expanded).standardizedFileURL.path
        while text.count > 1 && text.hasSuffix("/") { text.removeLast() }
        return text
    }

    /// The video's catalogue id as `filterz serve` names it: the last path segment of `--out`.
    static func videoID(outputFolder: String) -> String {
        URL(fileURLWithPath: absolute(outputFolder)).lastPathComponent
    }
}

/// The keys of one run: where they are written, the schedule, and the encryptor the writer threads call.
///
/// Keys go straight into `<keys>/<video id>`, each before the first segment that uses it. A VOD ladder's keys are
/// numbered past every key already there (``SegmentEncryption/firstKey``), so they never replace a key of the
/// package still published; once the new ladder is in place (`retireReplacedKeys`), the keys of the one it
/// replaced, and of runs killed before, go. At every instant the published ladder's keys exist: a failed or
/// killed run leaves the earlier ladder and its keys as they were. A live recording writes in place from key 0;
/// keys an earlier run left in the folder are removed first, and when it fails, the keys it made whose segments
/// never reached the disk are removed again.
struct KeyOutput {
    let plan: SegmentEncryption
    let ring: KeyRing
    /// The live recording's output folder (nil for VOD).
    private let liveOutput: String?

    init(_ options: EncryptionOptions, outputFolder: String, live: Bool) throws(CLIError) {
        let id = EncryptionOptions.videoID(outputFolder: outputFolder)
        let folder = options.keysFolder + "/" + id
        do {
            try KeyRing.makeFolder(options.keysFolder)
            ring = try KeyRing(folder: folder)
            let existing = Self.keyNumbers(in: folder)
            if live {
                liveOutput = outputFolder
                for number in existing { AtomicFile.remove(folder + "/" + KeyRing.fileName(number)) }
            } else {
                liveOutput = nil
            }
            plan = SegmentEncryption(
                videoID: id, segmentsPerKey: options.segmentsPerKey, ivPrefix: try RandomBytes.make(8),
                firstKey: live ? 0 : (existing.max() ?? -1) + 1)
        } catch let error as EncryptionError {
            throw .failure("keys: \(error)")
        } catch {
            throw .failure("keys: \(error)")
        }
    }

    /// The numbers of the key files (`<n>.key`) in `folder`.
    static func keyNumbers(in folder: String) -> [Int] {
        ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).compactMap { name in
            guard name.hasSuffix(".key"), let number = Int(name.dropLast(4)), number >= 0,
                KeyRing.fileName(number) == name
            else { return nil }
            return number
        }
    }

    /// Encrypts segment `index` with its key, making the key first if it is the first segment to need it.
    var encryptor: SegmentEncryptor {
        let plan = plan, ring = ring
        return { index, plaintext in
            let keyIndex = plan.keyIndex(forSegment: index)
            let key = try ring.key(keyIndex)
            return try AES128CBC.encrypt(plaintext, key: key.bytes, iv: plan.iv(forKey: keyIndex))
        }
    }

    /// After a VOD ladder is in place: removes every key of the video that it does not use (those of the ladder
    /// it replaced, and of killed runs). Nothing to do live.
    func retireReplacedKeys() {
        guard liveOutput == nil else { return }
        let kept = Set(ring.madeIndices)
        for number in Self.keyNumbers(in: ring.folder) where !kept.contains(number) {
            AtomicFile.remove(ring.folder + "/" + KeyRing.fileName(number))
        }
    }

    /// Removes the keys of a failed run that no ladder on disk uses: all a VOD run made (its ladder was never
    /// published), and of a live run those whose segments and parts never reached the disk.
    func discard() {
        let used: Set<Int>
        if let liveOutput {
            used = Self.segmentIndices(under: liveOutput).reduce(into: Set<Int>()) {
                $0.insert(plan.keyIndex(forSegment: $1))
            }
        } else {
            used = []
        }
        for index in ring.madeIndices where !used.contains(index) {
            AtomicFile.remove(ring.folder + "/" + KeyRing.fileName(index))
        }
    }

    /// The segment numbers of the `seg_NNNNN.*` files (segments and their parts) in the folders of `root`.
    static func segmentIndices(under root: String) -> Set<Int> {
        var found: Set<Int> = []
        let files = FileManager.default
        for track in (try? files.contentsOfDirectory(atPath: root)) ?? [] {
            for name in (try? files.contentsOfDirectory(atPath: root + "/" + track)) ?? [] where name.hasPrefix("seg_")
            {
                if let number = Int(name.dropFirst(4).prefix { $0.isNumber }) { found.insert(number) }
            }
        }
        return found
    }
}
