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

extension MetadataWarning {
    /// `warnings` with each kind (severity and code) reported once, where it first appears: a kind that repeats keeps
    /// its first message followed by how many more there are, so a broken IFD of many entries is a few lines.
    ///
    ///     MetadataWarning.collapsingRepeats(sixtyUnknownTypes)
    ///     // [warning: IFD0 tag 0x1000 has unknown type 99; dropped (its size is unknown) (and 59 more like it) [exif.unknown-type]]
    ///
    /// - Complexity: O(n) in the number of warnings.
    public static func collapsingRepeats(_ warnings: [MetadataWarning]) -> [MetadataWarning] {
        var counts: [String: Int] = [:]
        for warning in warnings { counts[warning.severity.rawValue + " " + warning.code, default: 0] += 1 }
        var reported: Set<String> = []
        return warnings.compactMap { warning in
            let kind = warning.severity.rawValue + " " + warning.code
            guard reported.insert(kind).inserted else { return nil }
            let more = (counts[kind] ?? 1) - 1
            guard more > 0 else { return warning }
            var collapsed = warning
            collapsed.message += " (and \(more) more like it)"
            return collapsed
        }
    }
}
