/// Why a recording did not complete: a one-line reason naming the file or folder at fault.
public enum RecordingError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The output folder cannot take the ladder as it stands (a file, or a folder holding files that are not
    /// from a package): the caller's to change.
    case outputNotReplaceable(String)
    /// The output folder, or the first file in it, cannot be written.
    case outputUnwritable(String)
    /// The recording failed once under way (the source, an encoder, a write, the keys).
    case failed(String)

    public var description: String {
        switch self {
        case .outputNotReplaceable(let message), .outputUnwritable(let message), .failed(let message): message
        }
    }
}
