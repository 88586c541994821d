/// Facts about the text a playlist was parsed from, beyond its content: where each known tag was, whether
/// EXTM3U came first, the line endings. Used by the validator for order and placement rules.
public struct ParseInfo: Sendable {
    /// Every known tag in input order (including tags of the wrong playlist kind, marked `isMisplaced`).
    public var tagOccurrences: [TagOccurrence]
    /// Where `#EXTM3U` was; nil when absent.
    public var extm3uLocation: SourceLocation?
    /// True when the first line (after a BOM, if any) is exactly `#EXTM3U`.
    public var startsWithEXTM3U: Bool
    /// True when the input started with a UTF-8 byte order mark.
    public var hasByteOrderMark: Bool
    /// True when at least one line ended in CR LF.
    public var usesCRLF: Bool
    /// Number of lines read.
    public var lineCount: Int
    /// The input size in bytes.
    public var byteCount: Int
    /// Numbers read from text their grammar refuses, each also reported as an error, in input order.
    public var lenientValues: [LenientValue] = []
    /// Where each tag that lacks a required attribute starts (the byte offset of its line, as in its element's
    /// `source`); the parser reported each. Their placeholders (`NAME=""`, …) take no part in comparisons.
    public var tagsLackingRequiredAttributes: Set<Int> = []

    public init(
        tagOccurrences: [TagOccurrence] = [], extm3uLocation: SourceLocation? = nil, startsWithEXTM3U: Bool = false,
        hasByteOrderMark: Bool = false, usesCRLF: Bool = false, lineCount: Int = 0, byteCount: Int = 0
    ) {
        self.tagOccurrences = tagOccurrences
        self.extm3uLocation = extm3uLocation
        self.startsWithEXTM3U = startsWithEXTM3U
        self.hasByteOrderMark = hasByteOrderMark
        self.usesCRLF = usesCRLF
        self.lineCount = lineCount
        self.byteCount = byteCount
    }

    /// The occurrences of one tag.
    public func occurrences(of tag: TagName) -> [TagOccurrence] { tagOccurrences.filter { $0.tag == tag } }
}

/// The parsed bytes and the model as parsed, shared (not copied) by every copy of a parsed playlist.
final class ParsedOrigin<Model: Sendable>: Sendable {
    let bytes: [UInt8]
    let model: Model
    let info: ParseInfo
    init(bytes: [UInt8], model: Model, info: ParseInfo) {
        self.bytes = bytes
        self.model = model
        self.info = info
    }
}

/// A playlist's link to the text it was parsed from. Takes no part in equality: it is provenance, not content.
struct Provenance<Model: Sendable>: Hashable, Sendable {
    var origin: ParsedOrigin<Model>?
    static func == (lhs: Provenance, rhs: Provenance) -> Bool { true }
    func hash(into hasher: inout Hasher) {}
}
