/// The byte-level playlist parser behind ``parse(_:options:)``.
///
/// One pass over the UTF-8 bytes: each line is found by scanning for LF (CR before LF is dropped), classified
/// by its first bytes and handled in place. Strings are built only for URIs, quoted strings, titles and
/// unknown tags. Media segment tags accumulate in a pending ``Segment`` that the URI line completes.
/// Limits (``ParseOptions``) bound line length, line count, diagnostics and substituted values; nothing
/// recurses, so no input can make it trap, hang or grow without bound.
struct PlaylistParser {
    let bytes: [UInt8]
    /// The same bytes, shared with the segment URIs that point into them.
    let parsedBytes: ParsedBytes
    let options: ParseOptions
    /// Valid only during ``run()``.
    var buffer = UnsafeBufferPointer<UInt8>(start: nil, count: 0)

    // Diagnostics and stopping.
    var diagnostics: [Diagnostic] = []
    var stopped = false
    var droppedDiagnostics = false

    // Current line.
    var lineNumber = 0
    var lineStart = 0
    var lineEnd = 0  // content end (before CR LF)
    var lineNext = 0  // start of the next line
    var columnBase = 0  // byte offset of column 1 of the current line

    // Whole-playlist state.
    var kind: Playlist.Kind?
    var info = ParseInfo()
    var version: Int?
    var independentSegments = false
    var start: Start?
    var defines: [Define] = []
    var variables: [String: String] = [:]
    /// Every name an EXT-X-DEFINE gave, with a value or not (duplicates are found in constant time).
    var definedNames: Set<String> = []
    /// Bytes substitution has produced so far (`ParseOptions.maximumSubstitutedBytes`); `substitutionExhausted`
    /// once the budget ran out and that was reported.
    var substitutedBytes = 0
    var substitutionExhausted = false
    var variableLimitReported = false
    var headerVerbatim: [VerbatimLine] = []
    var queryParameters: [String: String]?

    var media = MediaPlaylist()
    var multivariant = MultivariantPlaylist()

    // Media playlist: the segment being described.
    /// True while the segment being described sits at the end of `media.segments` (it is added there at its
    /// first line and built in place, never copied); the URI line completes it.
    var pendingInArray = false
    var pendingHasExtinf = false
    var pendingHasTags = false
    var pendingStart: Int?
    var pendingLocation: SourceLocation?
    var extinfLocation = SourceLocation.start
    var lastSegmentEnd: Int?

    // Multivariant playlist: a STREAM-INF waiting for its URI line.
    var pendingVariant: Variant?
    var pendingVariantStart = 0
    var pendingVariantLocation = SourceLocation.start

    /// Reused attribute slots (no allocation per tag).
    var attributes: [AttributeSlot] = []

    // The second half of a parse in halves (`PlaylistParser+Halves.swift`): where it starts and its first line
    // number.
    var continuation: Int?
    var firstLine = 0
    /// Tests: the cut to read in halves at, whatever the size; and whether the second half's work was kept.
    var forcedCut: Int?
    var keptSecondHalf = false

    init(bytes: [UInt8], options: ParseOptions) {
        self.bytes = bytes
        self.parsedBytes = ParsedBytes(bytes)
        self.options = options
    }

    consuming func run(halves: (Bool) -> Void = { _ in }) -> ParseResult {
        let input = bytes
        return input.withUnsafeBufferPointer { buffer in
            self.buffer = buffer
            scanAllLines()
            halves(keptSecondHalf)
            finish()
            self.buffer = UnsafeBufferPointer(start: nil, count: 0)
            if stopped && options.strict {
                return ParseResult(playlist: nil, diagnostics: diagnostics)
            }
            return ParseResult(playlist: makePlaylist(), diagnostics: diagnostics)
        }
    }

    // MARK: - Lines

    /// Reads the lines of `buffer[start..<end]`; `start` is 0 or the first byte of a line, `end` the end of the
    /// input or just after an LF. Reading `0..<k` and then `k..<n` is reading `0..<n`.
    mutating func scanLines(from start: Int = 0, to end: Int? = nil) {
        let n = end ?? buffer.count
        var position = start
        info.byteCount = buffer.count
        if start == 0 && n >= 3 && buffer[0] == 0xEF && buffer[1] == 0xBB && buffer[2] == 0xBF {
            info.hasByteOrderMark = true
            report(
                .error, .byteOrderMark, "the playlist starts with a UTF-8 byte order mark (clients SHOULD fail)",
                at: .start, spec: SpecReference.playlistFile)
            position = 3
        }
        let maximumLineLength = options.maximumLineLength
        while position < n && !stopped {
            lineNumber += 1
            if lineNumber > options.maximumLineCount {
                lineNumber -= 1
                report(
                    .error, .tooManyLines, "more than \(options.maximumLineCount) lines; the rest is ignored",
                    at: SourceLocation(line: lineNumber + 1, column: 1))
                break
            }
            columnBase = lineNumber == 1 ? 0 : position
            lineStart = position
            var i = position
            var firstControl = -1
            // Eight bytes at a time while none is a control character (< 0x20, which includes LF, or 0x7F).
            if let base = buffer.baseAddress {
                let raw = UnsafeRawPointer(base)
                while i &+ 8 <= n {
                    let word = raw.loadUnaligned(fromByteOffset: i, as: UInt64.self)
                    let below = (word &- 0x2020_2020_2020_2020) & ~word & 0x8080_8080_8080_8080
                    let x = word ^ 0x7F7F_7F7F_7F7F_7F7F
                    let delete = (x &- 0x0101_0101_0101_0101) & ~x & 0x8080_8080_8080_8080
                    if below | delete != 0 {
                        // The lowest flagged byte is exact (a borrow only causes false flags above a true one),
                        // so every byte before it is ordinary: jump there and let the byte loop decide.
                        i &+= (below | delete).trailingZeroBitCount >> 3
                        break
                    }
                    i &+= 8
                }
            }
            while i < n {
                let b = buffer[i]
                if b < 0x20 || b == 0x7F {
                    if b == 0x0A { break }
                    if firstControl < 0 { firstControl = i }
                }
                i &+= 1
            }
            lineNext = i < n ? i + 1 : n
            lineEnd = i
            if lineEnd > lineStart && buffer[lineEnd - 1] == 0x0D && i < n {
                lineEnd -= 1
                info.usesCRLF = true
            } else if lineEnd > lineStart && buffer[lineEnd - 1] == 0x0D {
                lineEnd -= 1  // CR at end of input: treat as a line terminator too
            }
            if firstControl >= 0 && firstControl < lineEnd {
                reportControlCharacter(at: firstControl)
            }
            if lineEnd - lineStart > maximumLineLength {
                report(
                    .error, .lineTooLong,
                    "line is \(lineEnd - lineStart) bytes, longer than the limit of \(maximumLineLength); skipped",
                    at: location(lineStart))
            } else {
                handleLine()
            }
            position = lineNext
        }
        info.lineCount = lineNumber
    }

    mutating func reportControlCharacter(at offset: Int) {
        let b = buffer[offset]
        if b == 0x0D {
            report(
                .error, .strayCarriageReturn, "carriage return not followed by a line feed", at: location(offset),
                spec: SpecReference.playlistFile)
        } else {
            let name = b == 0x09 ? "TAB" : "U+00" + String(b, radix: 16, uppercase: true).leftPadded(to: 2)
            report(
                .error, .controlCharacter, "control character \(name) (only CR and LF are allowed)",
                at: location(offset), spec: SpecReference.playlistFile)
        }
    }

    mutating func handleLine() {
        if lineStart == lineEnd { return }  // blank line
        let first = buffer[lineStart]
        if lineNumber == 1 {
            noteFirstLine()
        }
        if first == UInt8(ascii: "#") {
            if lineEnd - lineStart >= 4 && buffer[lineStart + 1] == UInt8(ascii: "E")
                && buffer[lineStart + 2] == UInt8(ascii: "X") && buffer[lineStart + 3] == UInt8(ascii: "T")
            {
                handleTagLine()
            } else {
                addVerbatim(.comment(string(lineStart + 1..<lineEnd)))
            }
        } else {
            handleURILine()
        }
    }

    mutating func noteFirstLine() {
        let extm3u: [UInt8] = Array("#EXTM3U".utf8)
        if lineEnd - lineStart == extm3u.count && zip(buffer[lineStart..<lineEnd], extm3u).allSatisfy({ $0 == $1 }) {
            info.startsWithEXTM3U = true
        }
    }

    mutating func handleTagLine() {
        // The most frequent tag first: "#EXTINF:" as one 8-byte comparison.
        if lineEnd - lineStart >= 8, let base = buffer.baseAddress,
            UnsafeRawPointer(base).loadUnaligned(fromByteOffset: lineStart, as: UInt64.self)
                == 0x3A46_4E49_5458_4523
        {
            handleTag(.extinf, value: lineStart + 8..<lineEnd)
            return
        }
        // Tag name: up to ':' or end of line.
        var colon = lineStart + 1
        while colon < lineEnd && buffer[colon] != UInt8(ascii: ":") { colon += 1 }
        let nameRange = lineStart + 1..<colon
        let valueRange: Range<Int>? = colon < lineEnd ? colon + 1..<lineEnd : nil
        guard let tag = TagName.lookup(buffer, nameRange) else {
            addVerbatim(.unknownTag(name: string(nameRange), value: valueRange.map { string($0) }))
            return
        }
        handleTag(tag, value: valueRange)
    }

    /// The segment being described (see `pendingInArray`).
    var pending: Segment {
        get {
            pendingInArray ? media.segments[media.segments.count - 1] : Segment(uriText: ParsedText(""), duration: 0)
        }
        _modify {
            if !pendingInArray {
                media.segments.append(Segment(uriText: ParsedText(""), duration: 0))
                pendingInArray = true
            }
            yield &media.segments[media.segments.count - 1]
        }
    }

    /// Segments whose URI line has been read.
    var completedSegmentCount: Int { media.segments.count - (pendingInArray ? 1 : 0) }

    // MARK: - Reporting

    mutating func report(
        _ severity: Severity, _ code: DiagnosticCode, _ message: String, at location: SourceLocation,
        spec: String? = nil
    ) {
        if stopped { return }
        if diagnostics.count >= options.maximumDiagnosticCount {
            if !droppedDiagnostics {
                droppedDiagnostics = true
                diagnostics.append(
                    Diagnostic(
                        severity: .note, code: .tooManyDiagnostics,
                        message: "more than \(options.maximumDiagnosticCount) problems; the rest are not listed",
                        location: location))
            }
        } else {
            diagnostics.append(
                Diagnostic(severity: severity, code: code, message: message, location: location, specReference: spec))
        }
        if severity == .error && options.strict { stopped = true }
    }

    /// The location of byte `offset` on the current line.
    @inline(__always)
    func location(_ offset: Int) -> SourceLocation {
        SourceLocation(line: lineNumber, column: offset - columnBase + 1)
    }

    var lineLocation: SourceLocation {
        @inline(__always) get { location(lineStart) }
    }

    /// A String from bytes (invalid UTF-8 is repaired with U+FFFD).
    @inline(__always)
    func string(_ range: Range<Int>) -> String {
        buffer.text(range)
    }

    // MARK: - End of input

    mutating func finish() {
        if stopped { return }
        if info.extm3uLocation == nil {
            report(
                .error, .extm3uMissing, "the playlist does not start with #EXTM3U", at: .start,
                spec: SpecReference.extm3u)
        } else if !info.startsWithEXTM3U {
            report(
                .error, .extm3uNotFirst, "#EXTM3U is not the first line", at: info.extm3uLocation ?? .start,
                spec: SpecReference.extm3u)
        }
        if let variant = pendingVariant {
            report(
                .error, .streamInfWithoutURI, "EXT-X-STREAM-INF is not followed by a URI line",
                at: pendingVariantLocation, spec: SpecReference.streamInf)
            _ = variant
            pendingVariant = nil
        }
        if pendingHasExtinf {
            report(
                .error, .extinfWithoutURI, "EXTINF is not followed by a URI line", at: extinfLocation,
                spec: SpecReference.extinf)
        }
        if pendingHasTags || pendingHasExtinf {
            pending.source = SourceSpan(
                location: pendingLocation ?? .start, byteRange: (pendingStart ?? bytes.count)..<bytes.count)
            media.incompleteSegment = media.segments.removeLast()
            pendingInArray = false
        } else if pendingInArray {
            let leftover = media.segments.removeLast()
            pendingInArray = false
            media.trailingVerbatimLines = leftover.verbatimLines
        }
        if kind == .multivariant {
            for define in defines where define.kind == .import {
                report(
                    .error, .importInMultivariant,
                    "EXT-X-DEFINE IMPORT is only allowed in media playlists", at: define.source?.location ?? .start,
                    spec: SpecReference.define)
            }
        }
    }

    mutating func makePlaylist() -> Playlist {
        kind == .multivariant ? .multivariant(finished(multivariant)) : .media(finished(media))
    }

    /// `playlist` with the tags either kind may have and its link to the parsed input.
    func finished<Kind: ParsedPlaylist>(_ playlist: Kind) -> Kind {
        var playlist = playlist
        playlist.version = version
        playlist.independentSegments = independentSegments
        playlist.start = start
        playlist.defines = defines
        playlist.verbatimLines = headerVerbatim + playlist.verbatimLines
        let snapshot = playlist
        playlist.provenance.origin = ParsedOrigin(bytes: bytes, model: snapshot, info: info)
        return playlist
    }
}

/// What both kinds of playlist hold that the parser fills in at the end.
protocol ParsedPlaylist: Sendable {
    var version: Int? { get set }
    var independentSegments: Bool { get set }
    var start: Start? { get set }
    var defines: [Define] { get set }
    var verbatimLines: [VerbatimLine] { get set }
    var provenance: Provenance<Self> { get set }
}

extension MediaPlaylist: ParsedPlaylist {}
extension MultivariantPlaylist: ParsedPlaylist {}

/// One `NAME=value` of an attribute list, as byte offsets into the input.
struct AttributeSlot {
    var nameStart: Int
    var nameEnd: Int
    var valueStart: Int
    var valueEnd: Int
    var quoted: Bool
}

extension String {
    func leftPadded(to width: Int, with pad: Character = "0") -> String {
        count >= width ? self : String(repeating: pad, count: width - count) + self
    }
}
