/// Low-latency and delta-update tags of media playlists (RFC 8216bis §4.4.3.7–8, §4.4.5.2–4).

/// EXT-X-SERVER-CONTROL.
public struct ServerControl: Hashable, Sendable {
    /// CAN-SKIP-UNTIL, seconds.
    public var canSkipUntil: Double?
    /// CAN-SKIP-DATERANGES=YES.
    public var canSkipDateRanges: Bool
    /// HOLD-BACK, seconds.
    public var holdBack: Double?
    /// PART-HOLD-BACK, seconds.
    public var partHoldBack: Double?
    /// CAN-BLOCK-RELOAD=YES.
    public var canBlockReload: Bool
    public var otherAttributes: [Attribute]
    /// Where the element was parsed from; nil when built in code. Takes no part in equality.
    public var source: SourceSpan? {
        get { sourceLink.span }
        set { sourceLink.span = newValue }
    }
    var sourceLink = SourceLink()

    public init(
        canSkipUntil: Double? = nil, canSkipDateRanges: Bool = false, holdBack: Double? = nil,
        partHoldBack: Double? = nil, canBlockReload: Bool = false, otherAttributes: [Attribute] = [],
        source: SourceSpan? = nil
    ) {
        self.canSkipUntil = canSkipUntil
        self.canSkipDateRanges = canSkipDateRanges
        self.holdBack = holdBack
        self.partHoldBack = partHoldBack
        self.canBlockReload = canBlockReload
        self.otherAttributes = otherAttributes
        self.source = source
    }
}

/// EXT-X-PART-INF.
public struct PartInf: Hashable, Sendable {
    /// PART-TARGET, seconds.
    public var partTarget: Double
    public var otherAttributes: [Attribute]
    /// Where the element was parsed from; nil when built in code. Takes no part in equality.
    public var source: SourceSpan? {
        get { sourceLink.span }
        set { sourceLink.span = newValue }
    }
    var sourceLink = SourceLink()

    public init(partTarget: Double, otherAttributes: [Attribute] = [], source: SourceSpan? = nil) {
        self.partTarget = partTarget
        self.otherAttributes = otherAttributes
        self.source = source
    }
}

/// EXT-X-SKIP: segments left out of a playlist delta update.
public struct Skip: Hashable, Sendable {
    public var skippedSegments: Int
    /// RECENTLY-REMOVED-DATERANGES: the IDs (tab-separated on the wire).
    public var recentlyRemovedDateRanges: [String]?
    public var otherAttributes: [Attribute]
    /// Where the element was parsed from; nil when built in code. Takes no part in equality.
    public var source: SourceSpan? {
        get { sourceLink.span }
        set { sourceLink.span = newValue }
    }
    var sourceLink = SourceLink()

    public init(
        skippedSegments: Int, recentlyRemovedDateRanges: [String]? = nil, otherAttributes: [Attribute] = [],
        source: SourceSpan? = nil
    ) {
        self.skippedSegments = skippedSegments
        self.recentlyRemovedDateRanges = recentlyRemovedDateRanges
        self.otherAttributes = otherAttributes
        self.source = source
    }
}

/// EXT-X-PRELOAD-HINT.
public struct PreloadHint: Hashable, Sendable {
    public var type: PreloadHintType
    public var uri: String
    /// BYTERANGE-START (absent = 0).
    public var byteRangeStart: Int?
    /// BYTERANGE-LENGTH (absent = to the end of the resource).
    public var byteRangeLength: Int?
    public var otherAttributes: [Attribute]
    /// Where the element was parsed from; nil when built in code. Takes no part in equality.
    public var source: SourceSpan? {
        get { sourceLink.span }
        set { sourceLink.span = newValue }
    }
    var sourceLink = SourceLink()

    public init(
        type: PreloadHintType, uri: String, byteRangeStart: Int? = nil, byteRangeLength: Int? = nil,
        otherAttributes: [Attribute] = [], source: SourceSpan? = nil
    ) {
        self.type = type
        self.uri = uri
        self.byteRangeStart = byteRangeStart
        self.byteRangeLength = byteRangeLength
        self.otherAttributes = otherAttributes
        self.source = source
    }
}

/// EXT-X-RENDITION-REPORT.
public struct RenditionReport: Hashable, Sendable {
    public var uri: String
    /// LAST-MSN.
    public var lastMediaSequenceNumber: Int?
    /// LAST-PART.
    public var lastPart: Int?
    public var otherAttributes: [Attribute]
    /// Where the element was parsed from; nil when built in code. Takes no part in equality.
    public var source: SourceSpan? {
        get { sourceLink.span }
        set { sourceLink.span = newValue }
    }
    var sourceLink = SourceLink()

    public init(
        uri: String, lastMediaSequenceNumber: Int? = nil, lastPart: Int? = nil, otherAttributes: [Attribute] = [],
        source: SourceSpan? = nil
    ) {
        self.uri = uri
        self.lastMediaSequenceNumber = lastMediaSequenceNumber
        self.lastPart = lastPart
        self.otherAttributes = otherAttributes
        self.source = source
    }
}
