/// A segment load as a rule sees it: in progress (`ABRRule.checkLoad`) or finished (`ABRRule.segmentLoaded`).
public struct LoadProgress: Sendable, Hashable {
    /// The variant the segment is loaded from.
    public var variantIndex: Int
    /// Index of the segment in its media playlist.
    public var segmentIndex: Int
    public var segmentDurationSeconds: Double
    /// Bytes received so far (all of them when finished).
    public var bytesLoaded: Int
    /// Seconds since the request was sent.
    public var elapsedSeconds: Double
    /// Seconds from the request to the first byte; nil while none has arrived.
    public var timeToFirstByteSeconds: Double?
    /// True while the media element plays: something has been shown (not start-up) and the user has not
    /// paused. A stall counts as playing, as it does for a media element.
    public var mediaIsPlaying: Bool

    public init(
        variantIndex: Int, segmentIndex: Int, segmentDurationSeconds: Double, bytesLoaded: Int,
        elapsedSeconds: Double, timeToFirstByteSeconds: Double?, mediaIsPlaying: Bool = true
    ) {
        self.variantIndex = variantIndex
        self.segmentIndex = segmentIndex
        self.segmentDurationSeconds = segmentDurationSeconds
        self.bytesLoaded = bytesLoaded
        self.elapsedSeconds = elapsedSeconds
        self.timeToFirstByteSeconds = timeToFirstByteSeconds
        self.mediaIsPlaying = mediaIsPlaying
    }
}
