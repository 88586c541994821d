import Platform

/// Where a recording's files go and how they are published. A VOD ladder grows in a hidden sibling of the output
/// folder and takes its place in one step when complete (`AtomicFolder`); a live recording writes in place, since
/// players read it while it grows. The keys live and die with the ladder (`KeyOutput`): a VOD run's replace the
/// earlier package's only once the new ladder is in place, and a failed run's are removed.
struct RecordingOutput {
    /// The folder the segmenter writes into (the staging sibling for VOD).
    let folder: String
    let keys: KeyOutput?
    private let staged: AtomicFolder?
    private let outputFolder: String

    /// Makes the folder (a VOD run checks that the output folder holds only a package it may replace), the keys
    /// and filter.json.
    static func prepare(_ settings: Recording.Settings) throws(RecordingError) -> RecordingOutput {
        let out = settings.outputFolder
        var staged: AtomicFolder?
        if settings.isLive {
            do {
                try AtomicFile.makeFolder(out)
            } catch {
                throw .outputUnwritable(error.description)
            }
            // A master playlist from an earlier run must not pass for this recording's.
            AtomicFile.remove(out + "/master.m3u8")
        } else {
            try PackageFolder.checkReplaceable(out)
            do {
                staged = try AtomicFolder.begin(replacing: out)
            } catch {
                throw .outputUnwritable(error.description)
            }
        }
        let keys: KeyOutput?
        do {
            keys = try settings.keys.map { keys throws(RecordingError) in
                try KeyOutput(keys, outputFolder: out, live: settings.isLive)
            }
        } catch {
            staged?.discard()
            throw error
        }
        let output = RecordingOutput(folder: staged?.stagingPath ?? out, keys: keys, staged: staged, outputFolder: out)
        do {
            try AtomicFile.write(settings.preset.jsonBytes(), to: output.folder + "/filter.json")
        } catch {
            output.discard()
            throw .outputUnwritable(error.description)
        }
        return output
    }

    /// Puts a VOD ladder in place of the output folder, then removes the keys no published ladder uses.
    func publish() throws(RecordingError) {
        do {
            try staged?.commit()
        } catch {
            throw .failed("cannot put the new ladder in place of \(outputFolder): \(error.reason)")
        }
        // Only now that no published ladder uses them.
        keys?.retireReplacedKeys()
    }

    /// After a failure: removes a VOD run's staging folder and the keys no ladder on disk uses.
    func discard() {
        staged?.discard()
        keys?.discard()
    }
}
