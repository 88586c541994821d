/// Value types shared by several tags, named after the attribute value types of RFC 8216bis §4.2.

/// A decimal-resolution: `1280x720`.
public struct Resolution: Hashable, Sendable, CustomStringConvertible {
    public var width: Int
    public var height: Int
    public init(width: Int, height: Int) {
        self.width = width
        self.height = height
    }
    /// `WIDTHxHEIGHT`, as written in playlists.
    public var description: String { "\(width)x\(height)" }
}

/// A hexadecimal-sequence (`0x…`), e.g. an IV or SCTE-35 payload, kept as bytes.
///
/// An odd number of digits is padded with a leading zero nibble. Written back in upper case with `0x`.
public struct HexadecimalSequence: Hashable, Sendable, CustomStringConvertible {
    public var bytes: [UInt8]
    public init(bytes: [UInt8]) { self.bytes = bytes }

    /// `0x` followed by two upper-case hex digits per byte.
    public var description: String {
        let digits: [UInt8] = Array("0123456789ABCDEF".utf8)
        var text: [UInt8] = [UInt8(ascii: "0"), UInt8(ascii: "x")]
        text.reserveCapacity(2 + bytes.count * 2)
        for b in bytes {
            text.append(digits[Int(b >> 4)])
            text.append(digits[Int(b & 0xF)])
        }
        return String(decoding: text, as: UTF8.self)
    }
}

/// A byte range of a resource: `length[@offset]` (EXT-X-BYTERANGE, EXT-X-MAP BYTERANGE, EXT-X-PART BYTERANGE).
///
/// `offset` nil means "right after the previous range of the same resource" (not resolved here).
public struct ByteRange: Hashable, Sendable, CustomStringConvertible {
    public var length: Int
    public var offset: Int?
    public init(length: Int, offset: Int? = nil) {
        self.length = length
        self.offset = offset
    }
    /// `length@offset` or `length`.
    public var description: String { offset.map { "\(length)@\($0)" } ?? "\(length)" }
}

/// An attribute the model has no field for (unknown attributes, DATERANGE `X-` client attributes), kept so
/// it can be written back.
public struct Attribute: Hashable, Sendable {
    public enum Value: Hashable, Sendable {
        /// Written in double quotes (a quoted-string); variables substituted.
        case quotedString(String)
        /// Written without quotes: a number, hexadecimal-sequence or enumerated-string, as written.
        case unquoted(String)
    }
    public var name: String
    public var value: Value
    public init(name: String, value: Value) {
        self.name = name
        self.value = value
    }
}

/// An unknown tag or a comment, kept where it was so it round-trips.
public struct VerbatimLine: Hashable, Sendable {
    public enum Content: Hashable, Sendable {
        /// A `#EXT…` tag this model does not know (or a known tag in the wrong kind of playlist):
        /// `name` without `#`, `value` after the first `:` (nil when there is no `:`).
        case unknownTag(name: String, value: String?)
        /// A `#` line that is not a tag, without the `#`.
        case comment(String)
    }
    public var content: Content
    /// Where the element was parsed from; nil when built in code. Takes no part in equality.
    public var source: SourceSpan? {
        get { sourceLink.span }
        set { sourceLink.span = newValue }
    }
    var sourceLink = SourceLink()

    public init(_ content: Content, source: SourceSpan? = nil) {
        self.content = content
        self.source = source
    }
    /// An unknown tag (`name` without `#`).
    public static func unknown(name: String, value: String?) -> VerbatimLine {
        VerbatimLine(.unknownTag(name: name, value: value))
    }
    /// A comment line (`text` without the leading `#`).
    public static func comment(_ text: String) -> VerbatimLine { VerbatimLine(.comment(text)) }

    /// The line as written (without line terminator).
    public var text: String {
        switch content {
        case .unknownTag(let name, let value): value.map { "#\(name):\($0)" } ?? "#\(name)"
        case .comment(let text): "#\(text)"
        }
    }
}

/// One known tag as it appeared in the text, for rules about order and placement (validator).
public struct TagOccurrence: Hashable, Sendable {
    // 12 bytes: a media playlist records several per segment.
    private var storedLine: UInt32
    private var storedSegment: UInt32
    private var storedColumn: UInt16
    public var tag: TagName
    /// True when the tag belongs to the other kind of playlist and was kept as a verbatim line.
    public var isMisplaced: Bool

    public init(tag: TagName, location: SourceLocation, segmentIndex: Int, isMisplaced: Bool = false) {
        self.tag = tag
        storedLine = UInt32(clamping: location.line)
        storedColumn = UInt16(clamping: location.column)
        storedSegment = UInt32(clamping: segmentIndex)
        self.isMisplaced = isMisplaced
    }

    public var location: SourceLocation { SourceLocation(line: Int(storedLine), column: Int(storedColumn)) }
    /// Media playlists: the index of the segment this tag comes before (the segment being described), i.e. the
    /// number of complete segments (URI lines) seen before it. Multivariant playlists: the number of variants
    /// (STREAM-INF URI lines) seen before it.
    public var segmentIndex: Int { Int(storedSegment) }

    /// The same occurrence with `count` more segments before it.
    func shifted(bySegments count: Int) -> TagOccurrence {
        var moved = self
        moved.storedSegment = UInt32(clamping: Int(storedSegment) + count)
        return moved
    }
}

/// A number whose text the grammar refuses (RFC 8216bis §4.2), read as well as it can be: the parser reports
/// the error and keeps this value instead of dropping it, so durations, totals and bandwidths are not built on
/// zeros. The reading: spaces and tabs around the number are skipped, then a sign and the longest
/// `digits[.digits]` prefix are read (`" 11.320"` → 11.32, `"6s"` → 6, as hls.js reads them); where a
/// decimal-integer belongs the decimal is cut to its whole part (`1280000.7` → 1280000, as `parseInt` does),
/// except EXT-X-TARGETDURATION, an upper bound, which is rounded up (`0.5` → 1). A negative number is kept as
/// written. When nothing can be read `value` is nil and the field keeps its default.
public struct LenientValue: Hashable, Sendable {
    public enum Number: Hashable, Sendable {
        case integer(Int)
        case decimal(Double)
    }
    /// Where the value was written: the location of its error.
    public var location: SourceLocation
    public var tag: TagName
    /// The attribute name, or nil for a tag's own value (EXTINF, EXT-X-TARGETDURATION, …).
    public var attribute: String?
    /// The text as written.
    public var written: String
    public var value: Number?
    /// For a media segment tag (EXTINF, EXT-X-BITRATE, EXT-X-PART, …): the index of the segment it describes.
    public var segmentIndex: Int?

    public init(
        location: SourceLocation, tag: TagName, attribute: String? = nil, written: String, value: Number?,
        segmentIndex: Int? = nil
    ) {
        self.location = location
        self.tag = tag
        self.attribute = attribute
        self.written = written
        self.value = value
        self.segmentIndex = segmentIndex
    }
}
