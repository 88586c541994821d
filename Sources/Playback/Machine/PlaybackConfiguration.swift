/// The playback machine's tuning knobs, with defaults close to common players.
public struct PlaybackConfiguration: Sendable, Hashable {
    /// Buffered seconds needed before the first frame plays (less when the rest of the stream is shorter).
    public var startupBufferSeconds: Double = 4
    /// Buffered seconds needed to resume after a stall.
    public var resumeBufferSeconds: Double = 4
    /// Loading stops while this much is buffered ahead of the position (with `maxBufferBytes`, the least).
    public var maxBufferSeconds: Double = 30
    /// When set, hls.js's `maxBufferSize` (its default is 60 MB): loading a variant stops at
    /// max(8 × this / BANDWIDTH, `maxBufferSeconds`) seconds, at most `maxMaxBufferSeconds`, so a lower
    /// variant buffers further ahead. nil: `maxBufferSeconds` for every variant.
    public var maxBufferBytes: Int? = nil
    /// hls.js `maxMaxBufferLength` (its default is 600 s): the most `maxBufferBytes` may extend the limit to.
    public var maxMaxBufferSeconds: Double = 600
    /// Retries of a failed segment before the selector steps down a variant.
    public var segmentRetryLimit: Int = 3
    /// Retries of a failed playlist before playback fails.
    public var playlistRetryLimit: Int = 2
    /// Retry delay: `retryBaseDelaySeconds × 2^(attempt − 1)`, at most `retryMaxDelaySeconds`.
    public var retryBaseDelaySeconds: Double = 0.5
    public var retryMaxDelaySeconds: Double = 8
    /// Segments of look-ahead sizes handed to the selector (when the playlists know sizes).
    public var lookAheadSegments: Int = 5
    /// A hole in the media up to this long is played over; a longer one moves the position (reported).
    public var maxGapSeconds: Double = 1
    /// Segment duration assumed for the first selection, before any media playlist is known.
    public var assumedSegmentDurationSeconds: Double = 6
    /// Rotating to landscape presents the player full screen; back to portrait exits.
    public var fullScreenInLandscape: Bool = true
    /// Start playing as soon as enough is buffered (otherwise start paused on the first frame).
    public var autoplay: Bool = true

    public init() {}

    /// Seconds of buffer at which loading stops while segments come from a variant of `bandwidthBitsPerSecond`
    /// (hls.js `getMaxBufferLength` when `maxBufferBytes` is set).
    public func loadLimitSeconds(bandwidthBitsPerSecond: Int) -> Double {
        guard let bytes = maxBufferBytes, bandwidthBitsPerSecond > 0 else { return maxBufferSeconds }
        return min(max(8 * Double(bytes) / Double(bandwidthBitsPerSecond), maxBufferSeconds), maxMaxBufferSeconds)
    }

    /// The largest load limit of any variant.
    var loadLimitCeilingSeconds: Double {
        maxBufferBytes == nil ? maxBufferSeconds : max(maxBufferSeconds, maxMaxBufferSeconds)
    }
}
