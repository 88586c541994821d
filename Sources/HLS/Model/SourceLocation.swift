/// A position in playlist text: 1-based line and 1-based column, both counted in bytes (not characters).
///
/// A UTF-8 byte order mark counts as three bytes of line 1, so the first tag after a BOM is at column 4.
public struct SourceLocation: Hashable, Sendable, Comparable, CustomStringConvertible {
    /// 1-based line number.
    public var line: Int
    /// 1-based byte column within the line.
    public var column: Int

    public init(line: Int, column: Int) {
        self.line = line
        self.column = column
    }

    /// Line 1, column 1: used for problems that concern the whole playlist.
    public static let start = SourceLocation(line: 1, column: 1)

    public static func < (lhs: SourceLocation, rhs: SourceLocation) -> Bool {
        (lhs.line, lhs.column) < (rhs.line, rhs.column)
    }

    /// `line:column`, the way compilers print positions.
    public var description: String { "\(line):\(column)" }
}

/// Where a model element came from: its first position and the byte range of all its lines in the parsed input.
///
/// Elements built in code have no span (`source == nil`). An element's `source` takes no part in the element's
/// equality or hashing, so two playlists are equal when they say the same thing, wherever it was written:
/// `parse(write(p)) == p` compares content only. The writer uses the byte range to copy unedited elements
/// through byte for byte.
public struct SourceSpan: Hashable, Sendable, CustomStringConvertible {
    private var storedLine: UInt32
    private var storedColumn: UInt32
    private var storedStart: UInt32
    private var storedEnd: UInt32

    /// - Parameters:
    ///   - location: where the element starts (its first tag or URI line).
    ///   - byteRange: the element's lines, line terminators included, as offsets into the parsed bytes.
    public init(location: SourceLocation, byteRange: Range<Int>) {
        storedLine = UInt32(clamping: location.line)
        storedColumn = UInt32(clamping: location.column)
        storedStart = UInt32(clamping: byteRange.lowerBound)
        storedEnd = UInt32(clamping: max(byteRange.upperBound, byteRange.lowerBound))
    }

    /// No span (line 0): what ``SourceLink`` holds for elements built in code.
    init() {
        storedLine = 0
        storedColumn = 0
        storedStart = 0
        storedEnd = 0
    }

    /// Where the element starts.
    public var location: SourceLocation { SourceLocation(line: Int(storedLine), column: Int(storedColumn)) }

    /// The element's lines (terminators included) as byte offsets into the parsed input.
    public var byteRange: Range<Int> { Int(storedStart)..<Int(storedEnd) }

    public var description: String { location.description }

    var isEmpty: Bool { storedLine == 0 }
}

/// Holds an element's ``SourceSpan`` without making it part of the element's equality.
struct SourceLink: Hashable, Sendable {
    // 16 bytes: a span whose line is 0 means "none".
    private var stored = SourceSpan()
    init() {}
    var span: SourceSpan? {
        get { stored.isEmpty ? nil : stored }
        set { stored = newValue ?? SourceSpan() }
    }
    static func == (lhs: SourceLink, rhs: SourceLink) -> Bool { true }
    func hash(into hasher: inout Hasher) {}
}
