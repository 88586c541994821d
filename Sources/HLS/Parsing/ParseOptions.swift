/// How to parse: strictness, context for variable substitution, and input limits.
public struct ParseOptions: Sendable {
    /// Stop at the first error and return no playlist (`filterz inspect --strict`). Lenient (false) returns the
    /// model and every diagnostic.
    public var strict: Bool
    /// The URI the playlist was loaded from; its query provides EXT-X-DEFINE QUERYPARAM values.
    public var playlistURI: String?
    /// Variables of the multivariant playlist that referenced this media playlist, for EXT-X-DEFINE IMPORT.
    public var importedVariables: [String: String]
    /// Lines longer than this (bytes, without terminator) are reported and skipped.
    public var maximumLineLength: Int
    /// Lines after this many are reported once and ignored.
    public var maximumLineCount: Int
    /// Diagnostics after this many are dropped (one last diagnostic says so).
    public var maximumDiagnosticCount: Int
    /// A variable value longer than this after substitution is reported and cut (protects against
    /// exponential growth through definitions that reference each other).
    public var maximumSubstitutedLength: Int
    /// EXT-X-DEFINE tags after this many are reported once and ignored.
    public var maximumVariableCount: Int
    /// Bytes that substitution may produce in one playlist, all values and references together; past it,
    /// references are reported once and left as written. With `maximumSubstitutedLength` this keeps the work
    /// of substitution linear in the input: a chain of definitions, each one longer than the last, or many
    /// references to one long value, cannot make a small playlist cost gigabytes.
    public var maximumSubstitutedBytes: Int
    /// With two threads lent, a large media playlist is parsed as two halves at once (the result is the same
    /// as one pass; see `PlaylistParser+Halves.swift`). Nil: one pass on the calling thread.
    public var parallel: ParallelPair?

    public init(
        strict: Bool = false, playlistURI: String? = nil, importedVariables: [String: String] = [:],
        maximumLineLength: Int = 1 << 20, maximumLineCount: Int = 10_000_000, maximumDiagnosticCount: Int = 1000,
        maximumSubstitutedLength: Int = 1 << 16, maximumVariableCount: Int = 10_000,
        maximumSubstitutedBytes: Int = 64 << 20, parallel: ParallelPair? = nil
    ) {
        self.strict = strict
        self.playlistURI = playlistURI
        self.importedVariables = importedVariables
        self.maximumLineLength = maximumLineLength
        self.maximumLineCount = maximumLineCount
        self.maximumDiagnosticCount = maximumDiagnosticCount
        self.maximumSubstitutedLength = maximumSubstitutedLength
        self.maximumVariableCount = maximumVariableCount
        self.maximumSubstitutedBytes = maximumSubstitutedBytes
        self.parallel = parallel
    }
}

/// Parses HLS playlist bytes (UTF-8, LF or CRLF) into a ``Playlist`` plus diagnostics. Never traps.
///
/// ```swift
/// let result = HLS.parse(Array(text.utf8))
/// if case .media(let playlist) = result.playlist { print(playlist.segments.count) }
/// for problem in result.diagnostics { print(problem.formatted(file: "index.m3u8")) }
/// ```
/// - Complexity: O(n) in the input size.
public func parse(_ bytes: [UInt8], options: ParseOptions = ParseOptions()) -> ParseResult {
    PlaylistParser(bytes: bytes, options: options).run()
}

/// Parses playlist text (see ``parse(_:options:)``).
public func parse(_ text: String, options: ParseOptions = ParseOptions()) -> ParseResult {
    parse(Array(text.utf8), options: options)
}
