import Encryption
import Foundation
import Packaging
import Platform

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

    init(_ options: KeySettings, outputFolder: String, live: Bool) throws(RecordingError) {
        let id = KeySettings.videoID(outputFolder: outputFolder)
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
        } catch {
            throw .failed("keys: \(error)")
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
