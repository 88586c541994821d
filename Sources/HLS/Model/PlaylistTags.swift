/// Tags that can appear in either kind of playlist, and the multivariant-only session tags.

/// EXT-X-START: where to start playing.
public struct Start: Hashable, Sendable {
    /// TIME-OFFSET, seconds (signed: negative counts from the end).
    public var timeOffset: Double
    /// PRECISE=YES.
    public var precise: Bool
    public var otherAttributes: [Attribute]
    /// Where the element was parsed from; nil when built in code. Takes no part in equality.
    public var source: SourceSpan? {
        get { sourceLink.span }
        set { sourceLink.span = newValue }
    }
    var sourceLink = SourceLink()

    public init(timeOffset: Double, precise: Bool = false, otherAttributes: [Attribute] = [], source: SourceSpan? = nil)
    {
        self.timeOffset = timeOffset
        self.precise = precise
        self.otherAttributes = otherAttributes
        self.source = source
    }
}

/// EXT-X-DEFINE: a variable for `{$name}` substitution (RFC 8216bis §4.3, §4.4.2.3).
public struct Define: Hashable, Sendable {
    public enum Kind: Hashable, Sendable {
        /// NAME + VALUE.
        case value
        /// IMPORT: taken from the multivariant playlist that referenced this media playlist.
        case `import`
        /// QUERYPARAM: taken from the query of the playlist's URI.
        case queryParameter
    }
    public var kind: Kind
    public var name: String
    /// The value: VALUE (substituted) for `.value`; the imported or query value when it was available.
    public var value: String?
    /// Where the element was parsed from; nil when built in code. Takes no part in equality.
    public var source: SourceSpan? {
        get { sourceLink.span }
        set { sourceLink.span = newValue }
    }
    var sourceLink = SourceLink()

    public init(kind: Kind = .value, name: String, value: String? = nil, source: SourceSpan? = nil) {
        self.kind = kind
        self.name = name
        self.value = value
        self.source = source
    }
}

/// EXT-X-SESSION-DATA.
public struct SessionData: Hashable, Sendable {
    /// DATA-ID, reverse-DNS, e.g. `com.example.movie.title`.
    public var dataID: String
    public var value: String?
    public var uri: String?
    public var format: SessionDataFormat?
    public var language: String?
    public var otherAttributes: [Attribute]
    /// Where the element was parsed from; nil when built in code. Takes no part in equality.
    public var source: SourceSpan? {
        get { sourceLink.span }
        set { sourceLink.span = newValue }
    }
    var sourceLink = SourceLink()

    public init(
        dataID: String, value: String? = nil, uri: String? = nil, format: SessionDataFormat? = nil,
        language: String? = nil, otherAttributes: [Attribute] = [], source: SourceSpan? = nil
    ) {
        self.dataID = dataID
        self.value = value
        self.uri = uri
        self.format = format
        self.language = language
        self.otherAttributes = otherAttributes
        self.source = source
    }
}

/// EXT-X-CONTENT-STEERING.
public struct ContentSteering: Hashable, Sendable {
    /// SERVER-URI of the steering manifest.
    public var serverURI: String
    /// PATHWAY-ID to start with.
    public var pathwayID: String?
    public var otherAttributes: [Attribute]
    /// Where the element was parsed from; nil when built in code. Takes no part in equality.
    public var source: SourceSpan? {
        get { sourceLink.span }
        set { sourceLink.span = newValue }
    }
    var sourceLink = SourceLink()

    public init(
        serverURI: String, pathwayID: String? = nil, otherAttributes: [Attribute] = [], source: SourceSpan? = nil
    ) {
        self.serverURI = serverURI
        self.pathwayID = pathwayID
        self.otherAttributes = otherAttributes
        self.source = source
    }
}
