/// The attributes EXT-X-STREAM-INF and EXT-X-I-FRAME-STREAM-INF share: an I-frame stream tag takes every attribute
/// of EXT-X-STREAM-INF except FRAME-RATE, AUDIO, SUBTITLES and CLOSED-CAPTIONS (RFC 8216bis §4.4.6.3).
/// `Variant` and `IFrameVariant` hold them in `streamInf` (see ``StreamInfElement``).
public struct StreamInfAttributes: Hashable, Sendable {
    /// BANDWIDTH, bits per second (peak). REQUIRED; 0 when it was missing (reported).
    public var bandwidth: Int
    /// AVERAGE-BANDWIDTH, bits per second.
    public var averageBandwidth: Int?
    /// SCORE.
    public var score: Double?
    /// CODECS, e.g. `avc1.64001f,mp4a.40.2` (see ``codecList``).
    public var codecs: String?
    /// SUPPLEMENTAL-CODECS.
    public var supplementalCodecs: String?
    public var resolution: Resolution?
    public var hdcpLevel: HDCPLevel?
    /// ALLOWED-CPC.
    public var allowedCPC: String?
    public var videoRange: VideoRange?
    /// REQ-VIDEO-LAYOUT.
    public var requiredVideoLayout: String?
    public var stableVariantID: String?
    /// VIDEO group id.
    public var video: String?
    public var pathwayID: String?
    /// PROGRAM-ID (removed in protocol version 6; kept when present).
    public var programID: Int?

    public init(
        bandwidth: Int, averageBandwidth: Int? = nil, score: Double? = nil, codecs: String? = nil,
        supplementalCodecs: String? = nil, resolution: Resolution? = nil, hdcpLevel: HDCPLevel? = nil,
        allowedCPC: String? = nil, videoRange: VideoRange? = nil, requiredVideoLayout: String? = nil,
        stableVariantID: String? = nil, video: String? = nil, pathwayID: String? = nil, programID: Int? = nil
    ) {
        self.bandwidth = bandwidth
        self.averageBandwidth = averageBandwidth
        self.score = score
        self.codecs = codecs
        self.supplementalCodecs = supplementalCodecs
        self.resolution = resolution
        self.hdcpLevel = hdcpLevel
        self.allowedCPC = allowedCPC
        self.videoRange = videoRange
        self.requiredVideoLayout = requiredVideoLayout
        self.stableVariantID = stableVariantID
        self.video = video
        self.pathwayID = pathwayID
        self.programID = programID
    }

    /// CODECS split at commas, e.g. `["avc1.64001f", "mp4a.40.2"]`.
    public var codecList: [String] {
        guard let codecs else { return [] }
        return codecs.split(separator: ",").map { String($0) }
    }
}

/// A variant of either kind: its shared attributes read and write as its own members (`variant.bandwidth` is
/// `variant.streamInf.bandwidth`).
@dynamicMemberLookup
public protocol StreamInfElement {
    var uri: String { get }
    var streamInf: StreamInfAttributes { get set }
}

extension StreamInfElement {
    public subscript<Value>(dynamicMember path: WritableKeyPath<StreamInfAttributes, Value>) -> Value {
        get { streamInf[keyPath: path] }
        set { streamInf[keyPath: path] = newValue }
    }

    public subscript<Value>(dynamicMember path: KeyPath<StreamInfAttributes, Value>) -> Value {
        streamInf[keyPath: path]
    }
}

/// EXT-X-STREAM-INF and its URI line: one variant stream (RFC 8216bis §4.4.6.2).
public struct Variant: StreamInfElement, Hashable, Sendable {
    /// The URI line after the tag (substituted, not resolved).
    public var uri: String
    /// BANDWIDTH, CODECS, RESOLUTION and the other attributes I-frame variants have too.
    public var streamInf: StreamInfAttributes
    /// FRAME-RATE, frames per second.
    public var frameRate: Double?
    /// AUDIO group id.
    public var audio: String?
    /// SUBTITLES group id.
    public var subtitles: String?
    public var closedCaptions: ClosedCaptionsReference?
    /// Attributes the spec does not define for this tag, in written order.
    public var otherAttributes: [Attribute]
    /// Unknown tags and comments between the tag and its URI line.
    public var verbatimLines: [VerbatimLine]
    /// Where the element was parsed from; nil when built in code. Takes no part in equality.
    public var source: SourceSpan? {
        get { sourceLink.span }
        set { sourceLink.span = newValue }
    }
    var sourceLink = SourceLink()

    public init(
        uri: String, bandwidth: Int, averageBandwidth: Int? = nil, score: Double? = nil, codecs: String? = nil,
        supplementalCodecs: String? = nil, resolution: Resolution? = nil, frameRate: Double? = nil,
        hdcpLevel: HDCPLevel? = nil, allowedCPC: String? = nil, videoRange: VideoRange? = nil,
        requiredVideoLayout: String? = nil, stableVariantID: String? = nil, audio: String? = nil,
        video: String? = nil, subtitles: String? = nil, closedCaptions: ClosedCaptionsReference? = nil,
        pathwayID: String? = nil, programID: Int? = nil, otherAttributes: [Attribute] = [],
        verbatimLines: [VerbatimLine] = [], source: SourceSpan? = nil
    ) {
        self.uri = uri
        self.streamInf = StreamInfAttributes(
            bandwidth: bandwidth, averageBandwidth: averageBandwidth, score: score, codecs: codecs,
            supplementalCodecs: supplementalCodecs, resolution: resolution, hdcpLevel: hdcpLevel,
            allowedCPC: allowedCPC, videoRange: videoRange, requiredVideoLayout: requiredVideoLayout,
            stableVariantID: stableVariantID, video: video, pathwayID: pathwayID, programID: programID)
        self.frameRate = frameRate
        self.audio = audio
        self.subtitles = subtitles
        self.closedCaptions = closedCaptions
        self.otherAttributes = otherAttributes
        self.verbatimLines = verbatimLines
        self.source = source
    }
}

/// EXT-X-I-FRAME-STREAM-INF: an I-frame-only variant (RFC 8216bis §4.4.6.3).
public struct IFrameVariant: StreamInfElement, Hashable, Sendable {
    /// URI attribute: the I-frame media playlist.
    public var uri: String
    /// BANDWIDTH, CODECS, RESOLUTION and the other attributes it shares with EXT-X-STREAM-INF.
    public var streamInf: StreamInfAttributes
    public var otherAttributes: [Attribute]
    /// Where the element was parsed from; nil when built in code. Takes no part in equality.
    public var source: SourceSpan? {
        get { sourceLink.span }
        set { sourceLink.span = newValue }
    }
    var sourceLink = SourceLink()

    public init(
        uri: String, bandwidth: Int, averageBandwidth: Int? = nil, score: Double? = nil, codecs: String? = nil,
        supplementalCodecs: String? = nil, resolution: Resolution? = nil, hdcpLevel: HDCPLevel? = nil,
        allowedCPC: String? = nil, videoRange: VideoRange? = nil, requiredVideoLayout: String? = nil,
        stableVariantID: String? = nil, video: String? = nil, pathwayID: String? = nil, programID: Int? = nil,
        otherAttributes: [Attribute] = [], source: SourceSpan? = nil
    ) {
        self.uri = uri
        self.streamInf = StreamInfAttributes(
            bandwidth: bandwidth, averageBandwidth: averageBandwidth, score: score, codecs: codecs,
            supplementalCodecs: supplementalCodecs, resolution: resolution, hdcpLevel: hdcpLevel,
            allowedCPC: allowedCPC, videoRange: videoRange, requiredVideoLayout: requiredVideoLayout,
            stableVariantID: stableVariantID, video: video, pathwayID: pathwayID, programID: programID)
        self.otherAttributes = otherAttributes
        self.source = source
    }
}

/// EXT-X-MEDIA: an alternative rendition (RFC 8216bis §4.4.6.1).
public struct Rendition: Hashable, Sendable {
    public var type: MediaType
    /// GROUP-ID.
    public var groupID: String
    public var name: String
    /// URI; absent for CLOSED-CAPTIONS and for renditions muxed into the variant.
    public var uri: String?
    /// LANGUAGE (RFC 5646 tag).
    public var language: String?
    /// ASSOC-LANGUAGE.
    public var associatedLanguage: String?
    public var stableRenditionID: String?
    /// DEFAULT=YES.
    public var isDefault: Bool
    /// AUTOSELECT=YES.
    public var autoselect: Bool
    /// FORCED=YES.
    public var forced: Bool
    /// INSTREAM-ID, e.g. `CC1`, `SERVICE3`.
    public var instreamID: String?
    /// BIT-DEPTH.
    public var bitDepth: Int?
    /// SAMPLE-RATE, Hz.
    public var sampleRate: Int?
    /// CHARACTERISTICS, comma-separated UTIs.
    public var characteristics: String?
    /// CHANNELS, e.g. `2`, `6`, `16/JOC`, `20/OA/BED-6`.
    public var channels: String?
    public var otherAttributes: [Attribute]
    /// Where the element was parsed from; nil when built in code. Takes no part in equality.
    public var source: SourceSpan? {
        get { sourceLink.span }
        set { sourceLink.span = newValue }
    }
    var sourceLink = SourceLink()

    public init(
        type: MediaType, groupID: String, name: String, uri: String? = nil, language: String? = nil,
        associatedLanguage: String? = nil, stableRenditionID: String? = nil, isDefault: Bool = false,
        autoselect: Bool = false, forced: Bool = false, instreamID: String? = nil, bitDepth: Int? = nil,
        sampleRate: Int? = nil, characteristics: String? = nil, channels: String? = nil,
        otherAttributes: [Attribute] = [], source: SourceSpan? = nil
    ) {
        self.type = type
        self.groupID = groupID
        self.name = name
        self.uri = uri
        self.language = language
        self.associatedLanguage = associatedLanguage
        self.stableRenditionID = stableRenditionID
        self.isDefault = isDefault
        self.autoselect = autoselect
        self.forced = forced
        self.instreamID = instreamID
        self.bitDepth = bitDepth
        self.sampleRate = sampleRate
        self.characteristics = characteristics
        self.channels = channels
        self.otherAttributes = otherAttributes
        self.source = source
    }
}
