/// How bad a problem is. Errors make a playlist invalid (a strict parse stops at the first one); warnings flag
/// departures from recommendations (Apple HLS Authoring Specification, lower-case hex); notes add context.
public enum Severity: String, Hashable, Sendable, Comparable, CaseIterable {
    case note, warning, error

    public static func < (lhs: Severity, rhs: Severity) -> Bool {
        let order: [Severity] = [.note, .warning, .error]
        return order.firstIndex(of: lhs)! < order.firstIndex(of: rhs)!
    }
}

/// A stable, machine-readable name for one kind of problem, such as `stream-inf.bandwidth-missing`.
///
/// Codes never change once published: tools and tests match on them. The parser's codes are the static
/// constants below; a required attribute that is missing is reported as `<tag>.<attribute>-missing`
/// (tag without `EXT-X-`, both lower-case), e.g. `media.group-id-missing`, built by ``missingAttribute(_:in:)``.
/// The validator adds its own constants in an extension.
public struct DiagnosticCode: RawRepresentable, Hashable, Sendable, ExpressibleByStringLiteral,
    CustomStringConvertible
{
    public var rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    public init(_ rawValue: String) { self.rawValue = rawValue }
    public init(stringLiteral value: String) { self.rawValue = value }
    public var description: String { rawValue }
}

/// A problem found in a playlist, with where it is and which spec sentence it breaks.
///
/// Printed like a compiler message by ``formatted(file:)``:
/// `master.m3u8:12:5: error: EXT-X-STREAM-INF lacks BANDWIDTH [stream-inf.bandwidth-missing] (RFC 8216bis §4.4.6.2)`.
public struct Diagnostic: Hashable, Sendable, CustomStringConvertible {
    public var severity: Severity
    public var code: DiagnosticCode
    /// One sentence for a person, naming the tag/attribute and what is wrong.
    public var message: String
    public var location: SourceLocation
    /// The spec section the rule comes from, e.g. `RFC 8216bis §4.4.6.2`.
    public var specReference: String?

    public init(
        severity: Severity, code: DiagnosticCode, message: String, location: SourceLocation,
        specReference: String? = nil
    ) {
        self.severity = severity
        self.code = code
        self.message = message
        self.location = location
        self.specReference = specReference
    }

    /// `file:line:column: severity: message [code] (reference)`.
    public func formatted(file: String) -> String {
        var text = "\(file):\(location.line):\(location.column): \(severity.rawValue): \(message) [\(code.rawValue)]"
        if let specReference { text += " (\(specReference))" }
        return text
    }

    public var description: String { formatted(file: "<playlist>") }
}

/// What `parse` returns: the playlist (nil only when a strict parse stopped at an error, or the input was
/// not a playlist at all) and every problem found, in input order.
public struct ParseResult: Sendable {
    public var playlist: Playlist?
    public var diagnostics: [Diagnostic]

    public init(playlist: Playlist?, diagnostics: [Diagnostic]) {
        self.playlist = playlist
        self.diagnostics = diagnostics
    }

    /// The diagnostics of severity `.error`.
    public var errors: [Diagnostic] { diagnostics.filter { $0.severity == .error } }
    /// True when there is no error (warnings and notes allowed).
    public var isValid: Bool { playlist != nil && !diagnostics.contains { $0.severity == .error } }
    /// The playlist when it is a media playlist.
    public var mediaPlaylist: MediaPlaylist? { playlist?.media }
    /// The playlist when it is a multivariant playlist.
    public var multivariantPlaylist: MultivariantPlaylist? { playlist?.multivariant }
}

/// Spec sections cited by diagnostics.
public enum SpecReference {
    public static let playlistFile = "RFC 8216bis §4.1"
    public static let attributeLists = "RFC 8216bis §4.2"
    public static let variableSubstitution = "RFC 8216bis §4.3"
    public static let basicTags = "RFC 8216bis §4.4.1"
    public static let extm3u = "RFC 8216bis §4.4.1.1"
    public static let define = "RFC 8216bis §4.4.2.3"
    public static let extinf = "RFC 8216bis §4.4.4.1"
    public static let byteRange = "RFC 8216bis §4.4.4.2"
    public static let programDateTime = "RFC 8216bis §4.4.4.6"
    public static let streamInf = "RFC 8216bis §4.4.6.2"
    public static let mediaSegments = "RFC 8216bis §4.4.4"

    /// The section defining `tag`, or the tag chapter when unknown.
    public static func section(for tag: TagName) -> String { "RFC 8216bis §\(tag.specSection)" }
}

// MARK: - Codes reported by the parser

extension DiagnosticCode {
    // Playlist structure and line syntax.
    /// `#EXTM3U` absent from the playlist.
    public static let extm3uMissing: DiagnosticCode = "extm3u.missing"
    /// `#EXTM3U` present but not the first line.
    public static let extm3uNotFirst: DiagnosticCode = "extm3u.not-first"
    /// A UTF-8 byte order mark at the start (playlists MUST NOT have one; clients SHOULD fail).
    public static let byteOrderMark: DiagnosticCode = "playlist.byte-order-mark"
    /// The bytes are not valid UTF-8.
    public static let invalidUTF8: DiagnosticCode = "playlist.invalid-utf8"
    /// A control character other than CR/LF (e.g. TAB, NUL).
    public static let controlCharacter: DiagnosticCode = "line.control-character"
    /// A CR not followed by LF.
    public static let strayCarriageReturn: DiagnosticCode = "line.stray-carriage-return"
    /// Whitespace around a URI line, or a line holding only whitespace.
    public static let lineWhitespace: DiagnosticCode = "line.whitespace"
    /// A line longer than `ParseOptions.maximumLineLength` (skipped).
    public static let lineTooLong: DiagnosticCode = "limit.line-length"
    /// More lines than `ParseOptions.maximumLineCount` (the rest is ignored).
    public static let tooManyLines: DiagnosticCode = "limit.line-count"
    /// More diagnostics than `ParseOptions.maximumDiagnosticCount` (the rest are dropped).
    public static let tooManyDiagnostics: DiagnosticCode = "limit.diagnostic-count"
    /// A URI line not preceded by EXTINF (media) or EXT-X-STREAM-INF (multivariant).
    public static let uriWithoutTag: DiagnosticCode = "uri.without-extinf"
    /// EXTINF (and possibly other segment tags) with no URI line after it.
    public static let extinfWithoutURI: DiagnosticCode = "extinf.uri-missing"
    /// EXT-X-STREAM-INF not followed by a URI line.
    public static let streamInfWithoutURI: DiagnosticCode = "stream-inf.uri-missing"
    /// EXTINF without the comma after the duration.
    public static let extinfMissingComma: DiagnosticCode = "extinf.missing-comma"
    /// EXTINF duration negative.
    public static let extinfNegativeDuration: DiagnosticCode = "extinf.negative-duration"
    /// A tag that takes a value has none (`#EXT-X-TARGETDURATION`), or lacks its `:`.
    public static let tagValueMissing: DiagnosticCode = "tag.value-missing"
    /// A tag that takes no value has one (`#EXT-X-ENDLIST:YES`).
    public static let tagValueUnexpected: DiagnosticCode = "tag.value-unexpected"
    /// A tag of the other playlist kind (EXT-X-SESSION-KEY in a media playlist, EXTINF in a multivariant one);
    /// the line is kept as an unknown tag. Reported by the validator as a rule; the parser records it.
    public static let tagWrongPlaylistKind: DiagnosticCode = "tag.wrong-playlist-kind"

    // Attribute lists (RFC 8216bis §4.2).
    public static let unterminatedQuote: DiagnosticCode = "attribute-list.unterminated-quote"
    /// `,,` or a leading/trailing comma.
    public static let emptyAttribute: DiagnosticCode = "attribute-list.empty-attribute"
    /// Whitespace outside a quoted string.
    public static let attributeWhitespace: DiagnosticCode = "attribute-list.whitespace"
    /// `NAME` without `=value`.
    public static let attributeMissingEquals: DiagnosticCode = "attribute-list.missing-equals"
    /// An attribute name outside `[A-Z0-9-]`.
    public static let invalidAttributeName: DiagnosticCode = "attribute-list.invalid-name"
    /// The same attribute name twice in one tag.
    public static let duplicateAttribute: DiagnosticCode = "attribute-list.duplicate-attribute"
    /// Characters after a closing quote before the comma.
    public static let trailingCharacters: DiagnosticCode = "attribute-list.trailing-characters"
    /// An attribute the tag does not define (kept; a note, since clients must ignore them).
    public static let unknownAttribute: DiagnosticCode = "attribute-list.unknown-attribute"

    // Attribute and tag values.
    public static let expectedQuotedString: DiagnosticCode = "value.expected-quoted-string"
    public static let unexpectedQuotedString: DiagnosticCode = "value.unexpected-quoted-string"
    /// Not a decimal-integer (e.g. `1280000.0`, `NaN`, empty).
    public static let invalidDecimalInteger: DiagnosticCode = "value.invalid-decimal-integer"
    /// A `-` sign on a decimal-integer (it is unsigned).
    public static let negativeDecimalInteger: DiagnosticCode = "value.negative-decimal-integer"
    /// A decimal-integer above 2^63-1 (the spec allows up to 2^64-1; larger than we store).
    public static let decimalIntegerOverflow: DiagnosticCode = "value.decimal-integer-overflow"
    public static let invalidFloat: DiagnosticCode = "value.invalid-decimal-floating-point"
    /// A `-` sign where an unsigned decimal-floating-point is required.
    public static let negativeFloat: DiagnosticCode = "value.negative-decimal-floating-point"
    public static let invalidHexadecimal: DiagnosticCode = "value.invalid-hexadecimal-sequence"
    /// Lower-case hex digits: outside the grammar but universal in practice (accepted with a warning).
    public static let lowercaseHexadecimal: DiagnosticCode = "value.lowercase-hexadecimal-sequence"
    public static let invalidResolution: DiagnosticCode = "value.invalid-resolution"
    public static let invalidEnumeratedString: DiagnosticCode = "value.invalid-enumerated-string"
    public static let invalidDateTime: DiagnosticCode = "value.invalid-date-time"
    public static let invalidByteRange: DiagnosticCode = "value.invalid-byte-range"

    // Variable substitution (RFC 8216bis §4.3, EXT-X-DEFINE §4.4.2.3).
    /// `{$name}` with no EXT-X-DEFINE for `name`.
    public static let undefinedVariable: DiagnosticCode = "define.undefined-variable"
    /// Two EXT-X-DEFINE tags with the same name.
    public static let duplicateVariable: DiagnosticCode = "define.duplicate-name"
    /// EXT-X-DEFINE without exactly one of NAME, IMPORT, QUERYPARAM (or NAME without VALUE).
    public static let invalidDefine: DiagnosticCode = "define.invalid"
    /// A variable name outside `[a-zA-Z0-9_-]`.
    public static let invalidVariableName: DiagnosticCode = "define.invalid-name"
    /// IMPORT in a multivariant playlist (only media playlists may import).
    public static let importInMultivariant: DiagnosticCode = "define.import-in-multivariant"
    /// IMPORT of a name the parent multivariant playlist does not define (`ParseOptions.importedVariables`).
    public static let importNotFound: DiagnosticCode = "define.import-not-found"
    /// QUERYPARAM naming a parameter absent from the playlist URI's query (`ParseOptions.playlistURI`).
    public static let queryParameterNotFound: DiagnosticCode = "define.queryparam-not-found"

    /// `<tag>.<attribute>-missing` for a REQUIRED attribute that is absent, e.g. `stream-inf.bandwidth-missing`.
    public static func missingAttribute(_ attribute: String, in tag: TagName) -> DiagnosticCode {
        DiagnosticCode("\(tag.shortName).\(attribute.lowercased())-missing")
    }

    /// `stream-inf.bandwidth-missing`.
    public static let streamInfBandwidthMissing = missingAttribute("BANDWIDTH", in: .streamInf)
}
