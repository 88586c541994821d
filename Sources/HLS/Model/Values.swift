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

/// An ISO 8601 date and time as used by EXT-X-PROGRAM-DATE-TIME and EXT-X-DATERANGE, kept field by field so
/// it is written back exactly (fraction digits and zone offset preserved).
public struct DateTime: Hashable, Sendable, Comparable, CustomStringConvertible {
    // Stored compactly (16 bytes): a media playlist holds one per segment.
    private var storedYear: Int32
    private var storedNanosecond: Int32
    private var storedOffset: Int16
    private var storedMonth: UInt8
    private var storedDay: UInt8
    private var storedHour: UInt8
    private var storedMinute: UInt8
    private var storedSecond: UInt8
    private var storedFractionDigits: UInt8

    public var year: Int {
        get { Int(storedYear) }
        set { storedYear = Int32(clamping: newValue) }
    }
    public var month: Int {
        get { Int(storedMonth) }
        set { storedMonth = UInt8(clamping: newValue) }
    }
    public var day: Int {
        get { Int(storedDay) }
        set { storedDay = UInt8(clamping: newValue) }
    }
    public var hour: Int {
        get { Int(storedHour) }
        set { storedHour = UInt8(clamping: newValue) }
    }
    public var minute: Int {
        get { Int(storedMinute) }
        set { storedMinute = UInt8(clamping: newValue) }
    }
    public var second: Int {
        get { Int(storedSecond) }
        set { storedSecond = UInt8(clamping: newValue) }
    }
    /// The fraction of a second, in nanoseconds (0...999_999_999).
    public var nanosecond: Int {
        get { Int(storedNanosecond) }
        set { storedNanosecond = Int32(clamping: newValue) }
    }
    /// How many fraction digits to write (0 = none); 3 gives milliseconds.
    public var fractionDigits: Int {
        get { Int(storedFractionDigits) }
        set { storedFractionDigits = UInt8(clamping: newValue) }
    }
    /// Minutes east of UTC; 0 is written `Z`.
    public var utcOffsetMinutes: Int {
        get { Int(storedOffset) }
        set { storedOffset = Int16(clamping: newValue) }
    }

    public init(
        year: Int, month: Int, day: Int, hour: Int = 0, minute: Int = 0, second: Int = 0, nanosecond: Int = 0,
        fractionDigits: Int = 3, utcOffsetMinutes: Int = 0
    ) {
        storedYear = Int32(clamping: year)
        storedMonth = UInt8(clamping: month)
        storedDay = UInt8(clamping: day)
        storedHour = UInt8(clamping: hour)
        storedMinute = UInt8(clamping: minute)
        storedSecond = UInt8(clamping: second)
        storedNanosecond = Int32(clamping: nanosecond)
        storedFractionDigits = UInt8(clamping: fractionDigits)
        storedOffset = Int16(clamping: utcOffsetMinutes)
    }

    /// The UTC date-time `secondsSince1970` seconds after 1970-01-01T00:00:00Z, written with milliseconds.
    /// Values beyond ±10^11 seconds (about ±3,000 years) and non-finite values are clamped to that range.
    public init(secondsSince1970: Double) {
        let seconds = secondsSince1970.isFinite ? min(max(secondsSince1970, -1e11), 1e11) : 0
        let totalNanoseconds = (seconds * 1_000_000_000).rounded()
        let secondsTotal = Int((totalNanoseconds / 1_000_000_000).rounded(.down))
        let nanos = Int(totalNanoseconds - Double(secondsTotal) * 1_000_000_000)
        var days = secondsTotal / 86_400
        var rest = secondsTotal % 86_400
        if rest < 0 {
            rest += 86_400
            days -= 1
        }
        let (y, m, d) = CivilDate.date(days: days)
        self.init(
            year: y, month: m, day: d, hour: rest / 3600, minute: rest % 3600 / 60, second: rest % 60,
            nanosecond: min(max(nanos, 0), 999_999_999), fractionDigits: 3, utcOffsetMinutes: 0)
    }

    /// Seconds since 1970-01-01T00:00:00Z.
    public var secondsSince1970: Double {
        let days = CivilDate.days(year: year, month: month, day: day)
        let seconds = days * 86_400 + hour * 3600 + minute * 60 + second - utcOffsetMinutes * 60
        return Double(seconds) + Double(nanosecond) / 1_000_000_000
    }

    public static func < (lhs: DateTime, rhs: DateTime) -> Bool { lhs.secondsSince1970 < rhs.secondsSince1970 }

    /// `YYYY-MM-DDThh:mm:ss[.fff](Z|±hh:mm)`.
    public var description: String {
        func pad(_ value: Int, _ width: Int) -> String {
            let text = String(value)
            return text.count >= width ? text : String(repeating: "0", count: width - text.count) + text
        }
        var text = "\(pad(year, 4))-\(pad(month, 2))-\(pad(day, 2))T\(pad(hour, 2)):\(pad(minute, 2)):\(pad(second, 2))"
        if fractionDigits > 0 {
            let nine = pad(nanosecond, 9)
            let digits = min(fractionDigits, 9)
            text += "." + nine.prefix(digits)
            if fractionDigits > 9 { text += String(repeating: "0", count: fractionDigits - 9) }
        }
        if utcOffsetMinutes == 0 {
            text += "Z"
        } else {
            let magnitude = abs(utcOffsetMinutes)
            text += (utcOffsetMinutes < 0 ? "-" : "+") + pad(magnitude / 60, 2) + ":" + pad(magnitude % 60, 2)
        }
        return text
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
