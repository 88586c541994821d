/// A multivariant (master) playlist: variant streams, alternative renditions and session data
/// (RFC 8216bis §4.4.6).
///
/// ```swift
/// let master = MultivariantPlaylist(
///     version: 6, independentSegments: true,
///     renditions: [Rendition(type: .subtitles, groupID: "subs", name: "한국어", uri: "subs/ko.m3u8", language: "ko")],
///     variants: [Variant(uri: "v0/index.m3u8", bandwidth: 2_000_000, codecs: "avc1.64001f,mp4a.40.2",
///                        resolution: Resolution(width: 1280, height: 720), subtitles: "subs")])
/// ```
public struct MultivariantPlaylist: Hashable, Sendable {
    /// EXT-X-VERSION as declared; nil when absent.
    public var version: Int?
    public var independentSegments: Bool
    public var start: Start?
    public var defines: [Define]
    /// EXT-X-CONTENT-STEERING.
    public var contentSteering: ContentSteering?
    public var sessionData: [SessionData]
    public var sessionKeys: [SessionKey]
    /// EXT-X-MEDIA renditions in order.
    public var renditions: [Rendition]
    /// EXT-X-STREAM-INF variants in order.
    public var variants: [Variant]
    /// EXT-X-I-FRAME-STREAM-INF variants in order.
    public var iFrameVariants: [IFrameVariant]
    /// Unknown tags and comments (other than those between a STREAM-INF and its URI line), in order.
    public var verbatimLines: [VerbatimLine]

    var provenance = Provenance<MultivariantPlaylist>()

    public init(
        version: Int? = nil, independentSegments: Bool = false, start: Start? = nil, defines: [Define] = [],
        contentSteering: ContentSteering? = nil, sessionData: [SessionData] = [], sessionKeys: [SessionKey] = [],
        renditions: [Rendition] = [], variants: [Variant] = [], iFrameVariants: [IFrameVariant] = [],
        verbatimLines: [VerbatimLine] = []
    ) {
        self.version = version
        self.independentSegments = independentSegments
        self.start = start
        self.defines = defines
        self.contentSteering = contentSteering
        self.sessionData = sessionData
        self.sessionKeys = sessionKeys
        self.renditions = renditions
        self.variants = variants
        self.iFrameVariants = iFrameVariants
        self.verbatimLines = verbatimLines
    }

    /// Facts about the parsed text (tag order and positions); nil for a playlist built in code.
    public var parseInfo: ParseInfo? { provenance.origin?.info }

    /// The renditions of one group, in order.
    public func renditions(inGroup groupID: String, type: MediaType? = nil) -> [Rendition] {
        renditions.filter { $0.groupID == groupID && (type == nil || $0.type == type) }
    }
}
