/// What a rule sees: the playlist and where its tags were written (when it was parsed from text).
public struct ValidationContext: Sendable {
    public let playlist: Playlist
    /// Tag positions from the parser; nil for a playlist built in code (positions then fall back to 1:1).
    public let parseInfo: ParseInfo?

    /// Per tag, the first location written for each segment index (built once; rules look up many segments).
    private let segmentTagLocations: [TagName: [Int: SourceLocation]]

    public init(playlist: Playlist) {
        self.playlist = playlist
        self.parseInfo = playlist.parseInfo
        var table: [TagName: [Int: SourceLocation]] = [:]
        for occurrence in parseInfo?.tagOccurrences ?? [] where occurrence.tag.isMediaSegmentTag {
            if table[occurrence.tag]?[occurrence.segmentIndex] == nil {
                table[occurrence.tag, default: [:]][occurrence.segmentIndex] = occurrence.location
            }
        }
        segmentTagLocations = table
    }

    /// Where the first occurrence of `tag` was written, or nil.
    public func firstLocation(of tag: TagName) -> SourceLocation? {
        parseInfo?.tagOccurrences.first { $0.tag == tag }?.location
    }

    /// Where the media segment tag `tag` was written for the segment at `segmentIndex`, or nil.
    public func location(of tag: TagName, segment segmentIndex: Int) -> SourceLocation? {
        segmentTagLocations[tag]?[segmentIndex]
    }

    /// The start of an element's span, else `fallback`, else line 1 column 1.
    public func location(_ span: SourceSpan?, fallback: SourceLocation? = nil) -> SourceLocation {
        span?.location ?? fallback ?? .start
    }

    /// Where whole-playlist problems are reported: the `#EXTM3U` line, else 1:1.
    public var playlistLocation: SourceLocation { parseInfo?.extm3uLocation ?? .start }
}

extension Diagnostic {
    static func error(
        _ code: DiagnosticCode, _ message: String, at location: SourceLocation, _ reference: String
    ) -> Diagnostic {
        Diagnostic(severity: .error, code: code, message: message, location: location, specReference: reference)
    }

    static func warning(
        _ code: DiagnosticCode, _ message: String, at location: SourceLocation, _ reference: String
    ) -> Diagnostic {
        Diagnostic(severity: .warning, code: code, message: message, location: location, specReference: reference)
    }
}

/// Seconds printed without a needless fraction: `6`, `4.5`, `0.33334`.
func formatSeconds(_ value: Double) -> String {
    value == value.rounded() && abs(value) < 1e15 ? String(Int(value)) : String(value)
}
