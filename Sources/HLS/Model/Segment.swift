import Notation

/// A media segment: its URI line, its EXTINF and the segment tags written before it (RFC 8216bis §4.4.4).
///
/// Tags that apply "to every following segment" (EXT-X-KEY, EXT-X-MAP, EXT-X-BITRATE) are attached to the
/// segment they were written before; ``MediaPlaylist`` has helpers that give the ones in effect.
public struct Segment: Hashable, Sendable {
    /// The URI line, after variable substitution, as written (not resolved).
    public var uri: String {
        get { uriText.string }
        set { uriText = ParsedText(newValue) }
    }
    /// Parsed URIs stay a range of the input until read.
    var uriText: ParsedText
    /// EXTINF duration in seconds.
    public var duration: Double
    /// EXTINF title (after the comma); nil when empty.
    public var title: String?
    /// EXT-X-BYTERANGE.
    public var byteRange: ByteRange?
    /// EXT-X-DISCONTINUITY before this segment.
    public var discontinuity: Bool
    /// EXT-X-PROGRAM-DATE-TIME written before this segment.
    public var programDateTime: DateTime?
    /// EXT-X-GAP.
    public var gap: Bool
    /// EXT-X-BITRATE written before this segment, kilobits per second.
    public var bitrateKilobitsPerSecond: Int?
    /// EXT-X-KEY tags written before this segment (several for several KEYFORMATs).
    public var keys: [Key] {
        get { rare?.tags.keys ?? [] }
        set { changeRare { $0.keys = newValue } }
    }
    /// EXT-X-MAP written before this segment.
    public var map: Map? {
        get { rare?.tags.map }
        set { changeRare { $0.map = newValue } }
    }
    /// True when EXT-X-MAP is written before this segment's EXT-X-KEY tags, so the key does not apply to the
    /// initialization section (it stays clear); false writes the keys first, which encrypts the section with
    /// them (RFC 8216bis §4.4.4.5). Only meaningful with both a map and keys.
    public var mapPrecedesKeys: Bool {
        get { rare?.tags.mapPrecedesKeys ?? false }
        set { changeRare { $0.mapPrecedesKeys = newValue } }
    }
    /// EXT-X-PART tags of this segment (LL-HLS), in order.
    public var parts: [PartialSegment] {
        get { rare?.tags.parts ?? [] }
        set { changeRare { $0.parts = newValue } }
    }
    /// EXT-X-DATERANGE tags written before this segment.
    public var dateRanges: [DateRange] {
        get { rare?.tags.dateRanges ?? [] }
        set { changeRare { $0.dateRanges = newValue } }
    }
    /// Unknown tags and comments written between the previous segment and this one's URI line.
    public var verbatimLines: [VerbatimLine] {
        get { rare?.tags.verbatimLines ?? [] }
        set { changeRare { $0.verbatimLines = newValue } }
    }
    /// True when the segment has any of the tags most segments lack (keys, map, parts, date ranges, unknown
    /// tags or comments): loops over many segments skip the others without looking further.
    public var hasRareTags: Bool { rare != nil }
    /// The tags most segments lack, out of line (nil when there are none): a plain segment then holds one
    /// reference (its URI's input), which keeps it small and cheap to create, copy and free.
    private var rare: RareSegmentTags.Box?
    /// Where the element was parsed from; nil when built in code. Takes no part in equality.
    public var source: SourceSpan? {
        get { sourceLink.span }
        set { sourceLink.span = newValue }
    }
    var sourceLink = SourceLink()

    public init(
        uri: String, duration: Double, title: String? = nil, byteRange: ByteRange? = nil,
        discontinuity: Bool = false, keys: [Key] = [], map: Map? = nil, programDateTime: DateTime? = nil,
        gap: Bool = false, bitrateKilobitsPerSecond: Int? = nil, parts: [PartialSegment] = [],
        dateRanges: [DateRange] = [], verbatimLines: [VerbatimLine] = [], source: SourceSpan? = nil
    ) {
        self.init(uriText: ParsedText(uri), duration: duration)
        self.title = title
        self.byteRange = byteRange
        self.discontinuity = discontinuity
        self.programDateTime = programDateTime
        self.gap = gap
        self.bitrateKilobitsPerSecond = bitrateKilobitsPerSecond
        let rare = RareSegmentTags(
            keys: keys, map: map, parts: parts, dateRanges: dateRanges, verbatimLines: verbatimLines)
        self.rare = rare.isEmpty ? nil : RareSegmentTags.Box(rare)
        self.source = source
    }

    /// A segment with nothing but a URI and a duration (what the parser starts from for each segment).
    init(uriText: ParsedText, duration: Double) {
        self.uriText = uriText
        self.duration = duration
        title = nil
        byteRange = nil
        discontinuity = false
        programDateTime = nil
        gap = false
        bitrateKilobitsPerSecond = nil
        rare = nil
    }

    private mutating func changeRare(_ change: (inout RareSegmentTags) -> Void) {
        var tags = rare?.tags ?? RareSegmentTags()
        rare = nil  // so the arrays in `tags` are the only copies and change in place
        change(&tags)
        rare = tags.isEmpty ? nil : RareSegmentTags.Box(tags)
    }
}

/// The segment tags that most segments lack: EXT-X-KEY, EXT-X-MAP, EXT-X-PART, EXT-X-DATERANGE, and unknown
/// tags and comments.
struct RareSegmentTags: Hashable, Sendable {
    var keys: [Key] = []
    var map: Map?
    var mapPrecedesKeys = false
    var parts: [PartialSegment] = []
    var dateRanges: [DateRange] = []
    var verbatimLines: [VerbatimLine] = []

    var isEmpty: Bool { keys.isEmpty && map == nil && parts.isEmpty && dateRanges.isEmpty && verbatimLines.isEmpty }

    /// Immutable and shared between copies of a segment; a change makes a new box.
    final class Box: Hashable, Sendable {
        let tags: RareSegmentTags
        init(_ tags: RareSegmentTags) { self.tags = tags }
        static func == (lhs: Box, rhs: Box) -> Bool { lhs === rhs || lhs.tags == rhs.tags }
        func hash(into hasher: inout Hasher) { hasher.combine(tags) }
    }
}

/// EXT-X-PART: a partial segment (LL-HLS, RFC 8216bis §4.4.4.9).
public struct PartialSegment: Hashable, Sendable {
    public var uri: String
    /// DURATION in seconds.
    public var duration: Double
    /// INDEPENDENT=YES.
    public var independent: Bool
    /// BYTERANGE (a quoted-string `length[@offset]`).
    public var byteRange: ByteRange?
    /// GAP=YES.
    public var gap: Bool
    public var otherAttributes: [Attribute]
    /// Where the element was parsed from; nil when built in code. Takes no part in equality.
    public var source: SourceSpan? {
        get { sourceLink.span }
        set { sourceLink.span = newValue }
    }
    var sourceLink = SourceLink()

    public init(
        uri: String, duration: Double, independent: Bool = false, byteRange: ByteRange? = nil, gap: Bool = false,
        otherAttributes: [Attribute] = [], source: SourceSpan? = nil
    ) {
        self.uri = uri
        self.duration = duration
        self.independent = independent
        self.byteRange = byteRange
        self.gap = gap
        self.otherAttributes = otherAttributes
        self.source = source
    }
}

/// EXT-X-KEY (§4.4.4.4) and EXT-X-SESSION-KEY (§4.4.6.5): how segments are encrypted.
public struct Key: Hashable, Sendable {
    public var method: EncryptionMethod
    /// URI of the key; absent for METHOD=NONE.
    public var uri: String?
    /// IV (128-bit hexadecimal-sequence).
    public var iv: HexadecimalSequence?
    /// KEYFORMAT; absent means `identity`.
    public var keyFormat: String?
    /// KEYFORMATVERSIONS, e.g. `1/2/5`.
    public var keyFormatVersions: String?
    public var otherAttributes: [Attribute]
    /// Where the element was parsed from; nil when built in code. Takes no part in equality.
    public var source: SourceSpan? {
        get { sourceLink.span }
        set { sourceLink.span = newValue }
    }
    var sourceLink = SourceLink()

    public init(
        method: EncryptionMethod, uri: String? = nil, iv: HexadecimalSequence? = nil, keyFormat: String? = nil,
        keyFormatVersions: String? = nil, otherAttributes: [Attribute] = [], source: SourceSpan? = nil
    ) {
        self.method = method
        self.uri = uri
        self.iv = iv
        self.keyFormat = keyFormat
        self.keyFormatVersions = keyFormatVersions
        self.otherAttributes = otherAttributes
        self.source = source
    }
}

/// EXT-X-SESSION-KEY carries the same attributes as EXT-X-KEY.
public typealias SessionKey = Key

/// EXT-X-MAP: the media initialization section (§4.4.4.5).
public struct Map: Hashable, Sendable {
    public var uri: String
    public var byteRange: ByteRange?
    public var otherAttributes: [Attribute]
    /// Where the element was parsed from; nil when built in code. Takes no part in equality.
    public var source: SourceSpan? {
        get { sourceLink.span }
        set { sourceLink.span = newValue }
    }
    var sourceLink = SourceLink()

    public init(uri: String, byteRange: ByteRange? = nil, otherAttributes: [Attribute] = [], source: SourceSpan? = nil)
    {
        self.uri = uri
        self.byteRange = byteRange
        self.otherAttributes = otherAttributes
        self.source = source
    }
}

/// EXT-X-DATERANGE (§4.4.5.1).
public struct DateRange: Hashable, Sendable {
    public var id: String
    /// CLASS.
    public var className: String?
    public var startDate: DateTime?
    /// CUE, e.g. `PRE` or `POST,ONCE` (an enumerated-string-list in quotes).
    public var cue: String?
    public var endDate: DateTime?
    /// DURATION in seconds.
    public var duration: Double?
    /// PLANNED-DURATION in seconds.
    public var plannedDuration: Double?
    public var scte35Command: HexadecimalSequence?
    public var scte35Out: HexadecimalSequence?
    public var scte35In: HexadecimalSequence?
    /// END-ON-NEXT=YES.
    public var endOnNext: Bool
    /// `X-…` client attributes and any unknown attribute, in written order.
    public var clientAttributes: [Attribute]
    /// Where the element was parsed from; nil when built in code. Takes no part in equality.
    public var source: SourceSpan? {
        get { sourceLink.span }
        set { sourceLink.span = newValue }
    }
    var sourceLink = SourceLink()

    public init(
        id: String, className: String? = nil, startDate: DateTime? = nil, cue: String? = nil,
        endDate: DateTime? = nil, duration: Double? = nil, plannedDuration: Double? = nil,
        scte35Command: HexadecimalSequence? = nil, scte35Out: HexadecimalSequence? = nil,
        scte35In: HexadecimalSequence? = nil, endOnNext: Bool = false, clientAttributes: [Attribute] = [],
        source: SourceSpan? = nil
    ) {
        self.id = id
        self.className = className
        self.startDate = startDate
        self.cue = cue
        self.endDate = endDate
        self.duration = duration
        self.plannedDuration = plannedDuration
        self.scte35Command = scte35Command
        self.scte35Out = scte35Out
        self.scte35In = scte35In
        self.endOnNext = endOnNext
        self.clientAttributes = clientAttributes
        self.source = source
    }
}
