/// Something in a photo's metadata that could not be read as written, or that is not carried to the output,
/// with a stable code (e.g. `exif.ifd-loop`) and a sentence for people. Reading goes on after a warning: what
/// could be read is kept.
public struct MetadataWarning: Sendable, Hashable, CustomStringConvertible {
    public enum Severity: String, Sendable, Hashable {
        /// The metadata is malformed here; some of it may be missing.
        case warning
        /// Well-formed, but not carried over (or changed), and why.
        case note
    }

    public var severity: Severity
    public var code: String
    public var message: String

    public init(_ severity: Severity = .warning, code: String, _ message: String) {
        self.severity = severity
        self.code = code
        self.message = message
    }

    /// `warning: IFD at offset 4096 lies past the end (300 bytes) [exif.ifd-offset]`
    public var description: String { "\(severity.rawValue): \(message) [\(code)]" }
}
