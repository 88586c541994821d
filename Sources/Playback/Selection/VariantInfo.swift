/// One variant (rendition) as the selector sees it.
public struct VariantInfo: Sendable, Hashable {
    /// Position in the ladder, sorted by bandwidth ascending.
    public var index: Int
    /// `BANDWIDTH` (peak), bits per second.
    public var bandwidthBitsPerSecond: Int
    /// `AVERAGE-BANDWIDTH`, bits per second, when the playlist gives it.
    public var averageBandwidthBitsPerSecond: Int?
    public var width: Int?
    public var height: Int?
    public var frameRate: Double?
    public var codecs: [String]

    public init(
        index: Int, bandwidthBitsPerSecond: Int, averageBandwidthBitsPerSecond: Int? = nil,
        width: Int? = nil, height: Int? = nil, frameRate: Double? = nil, codecs: [String] = []
    ) {
        self.index = index
        self.bandwidthBitsPerSecond = bandwidthBitsPerSecond
        self.averageBandwidthBitsPerSecond = averageBandwidthBitsPerSecond
        self.width = width
        self.height = height
        self.frameRate = frameRate
        self.codecs = codecs
    }

    /// The rate a rule plans with: the average bandwidth when known, else the peak.
    public var nominalBitsPerSecond: Int { averageBandwidthBitsPerSecond ?? bandwidthBitsPerSecond }
}
