/// A media playlist: a list of media segments and the tags that describe them (RFC 8216bis §4.4.3–4.4.5).
///
/// Build one in code and write it with ``PlaylistWriter``:
/// ```swift
/// var playlist = MediaPlaylist(version: 3, targetDuration: 6, playlistType: .vod, endList: true)
/// playlist.segments.append(Segment(uri: "seg0.ts", duration: 6.006))
/// let text = PlaylistWriter().string(for: .media(playlist))
/// ```
/// A parsed playlist remembers its text: written back unedited it is byte for byte the input; after an edit
/// only the edited segments (or the header, when a playlist-level property changed) are re-serialised.
public struct MediaPlaylist: Hashable, Sendable {
    /// EXT-X-VERSION as declared; nil when absent (protocol version 1).
    public var version: Int?
    /// EXT-X-INDEPENDENT-SEGMENTS.
    public var independentSegments: Bool
    public var start: Start?
    /// EXT-X-DEFINE tags in order.
    public var defines: [Define]
    /// EXT-X-TARGETDURATION, seconds. REQUIRED; nil when absent.
    public var targetDuration: Int?
    /// EXT-X-MEDIA-SEQUENCE; nil when absent (the spec default is 0, see ``firstMediaSequenceNumber``).
    public var mediaSequence: Int?
    /// EXT-X-DISCONTINUITY-SEQUENCE; nil when absent (default 0).
    public var discontinuitySequence: Int?
    public var playlistType: PlaylistType?
    /// EXT-X-I-FRAMES-ONLY.
    public var iFramesOnly: Bool
    public var partInf: PartInf?
    public var serverControl: ServerControl?
    /// EXT-X-SKIP of a delta update.
    public var skip: Skip?
    /// Complete media segments (those with a URI line), in order.
    public var segments: [Segment]
    /// Tags after the last URI line that belong to a segment not yet complete: LL-HLS EXT-X-PART tags of the
    /// segment being produced, or DATERANGEs written at the end. Its `uri` is empty and `duration` 0 (or the
    /// EXTINF duration when an EXTINF lacked its URI line).
    public var incompleteSegment: Segment?
    /// EXT-X-ENDLIST.
    public var endList: Bool
    public var preloadHints: [PreloadHint]
    public var renditionReports: [RenditionReport]
    /// Unknown tags and comments before the first segment's tags.
    public var verbatimLines: [VerbatimLine]
    /// Unknown tags and comments after the last segment (when no incomplete segment takes them).
    public var trailingVerbatimLines: [VerbatimLine]

    var provenance = Provenance<MediaPlaylist>()

    public init(
        version: Int? = nil, independentSegments: Bool = false, start: Start? = nil, defines: [Define] = [],
        targetDuration: Int? = nil, mediaSequence: Int? = nil, discontinuitySequence: Int? = nil,
        playlistType: PlaylistType? = nil, iFramesOnly: Bool = false, partInf: PartInf? = nil,
        serverControl: ServerControl? = nil, skip: Skip? = nil, segments: [Segment] = [],
        incompleteSegment: Segment? = nil, endList: Bool = false, preloadHints: [PreloadHint] = [],
        renditionReports: [RenditionReport] = [], verbatimLines: [VerbatimLine] = [],
        trailingVerbatimLines: [VerbatimLine] = []
    ) {
        self.version = version
        self.independentSegments = independentSegments
        self.start = start
        self.defines = defines
        self.targetDuration = targetDuration
        self.mediaSequence = mediaSequence
        self.discontinuitySequence = discontinuitySequence
        self.playlistType = playlistType
        self.iFramesOnly = iFramesOnly
        self.partInf = partInf
        self.serverControl = serverControl
        self.skip = skip
        self.segments = segments
        self.incompleteSegment = incompleteSegment
        self.endList = endList
        self.preloadHints = preloadHints
        self.renditionReports = renditionReports
        self.verbatimLines = verbatimLines
        self.trailingVerbatimLines = trailingVerbatimLines
    }

    /// Facts about the parsed text (tag order and positions); nil for a playlist built in code.
    public var parseInfo: ParseInfo? { provenance.origin?.info }

    /// The media sequence number of the first segment (EXT-X-MEDIA-SEQUENCE, default 0).
    public var firstMediaSequenceNumber: Int { mediaSequence ?? 0 }

    /// Sum of the segment durations, seconds.
    public var totalDuration: Double { segments.reduce(0) { $0 + $1.duration } }

    /// The smallest EXT-X-TARGETDURATION the segments allow: the longest duration rounded to the nearest integer
    /// (saturating at `Int.max` for a duration past it).
    public var minimumTargetDuration: Int {
        Int(saturating: (segments.map(\.duration).max() ?? 0).rounded())
    }

    /// The EXT-X-KEY tags in effect for segment `index` (the latest key per KEYFORMAT written at or before it;
    /// a METHOD=NONE key clears them all).
    public func keys(inEffectAt index: Int) -> [Key] {
        var keys: [Key] = []
        guard !segments.isEmpty, index >= 0 else { return keys }
        for segment in segments[...min(index, segments.count - 1)] where !segment.keys.isEmpty {
            for key in segment.keys {
                if key.method == .none {
                    keys.removeAll()
                } else {
                    keys.removeAll { ($0.keyFormat ?? "identity") == (key.keyFormat ?? "identity") }
                    keys.append(key)
                }
            }
        }
        return keys
    }

    /// The EXT-X-MAP in effect for segment `index`.
    public func map(inEffectAt index: Int) -> Map? {
        guard !segments.isEmpty, index >= 0 else { return nil }
        for segment in segments[...min(index, segments.count - 1)].reversed() {
            if let map = segment.map { return map }
        }
        return nil
    }
}
